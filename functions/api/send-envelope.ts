import { sendEnvelopeNow } from '#domain/use-cases/envelopes.ts';
import { bearerAuth } from '#http/auth.ts';
import { lambda } from '#http/lambda.ts';
import { ok } from '#http/responses.ts';
import { jsonBody, route } from '#http/route.ts';
import { envelopeView } from '#http/views.ts';
import { IdParams } from '#schemas/common.ts';
import { SendRequest } from '#schemas/envelopes.ts';
import type { Deps } from '#shared/deps.ts';

export const createHandler = (deps: Deps) =>
  route({ authenticate: bearerAuth(deps), params: IdParams, body: jsonBody(SendRequest, { optional: true }) }, async ({ params, body, principal, meta }) => {
    const { envelope, signingUrls } = await sendEnvelopeNow(deps, principal.appId, params.id, body.message, meta);
    return ok(envelopeView(envelope, { signingUrls }));
  });

export const handler = lambda(createHandler);
