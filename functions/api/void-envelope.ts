import { voidEnvelopeNow } from '#domain/use-cases/envelopes.ts';
import { bearerAuth } from '#http/auth.ts';
import { lambda } from '#http/lambda.ts';
import { ok } from '#http/responses.ts';
import { jsonBody, route } from '#http/route.ts';
import { envelopeView } from '#http/views.ts';
import { IdParams } from '#schemas/common.ts';
import { VoidRequest } from '#schemas/envelopes.ts';
import type { Deps } from '#shared/deps.ts';

export const createHandler = (deps: Deps) =>
  route({ authenticate: bearerAuth(deps), params: IdParams, body: jsonBody(VoidRequest, { optional: true }) }, async ({ params, body, principal, meta }) =>
    ok(envelopeView(await voidEnvelopeNow(deps, principal.appId, params.id, body.reason, meta))));

export const handler = lambda(createHandler);
