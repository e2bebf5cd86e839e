import { addEnvelopeSigner } from '#domain/use-cases/envelopes.ts';
import { bearerAuth } from '#http/auth.ts';
import { lambda } from '#http/lambda.ts';
import { created } from '#http/responses.ts';
import { jsonBody, route } from '#http/route.ts';
import { signerView } from '#http/views.ts';
import { IdParams } from '#schemas/common.ts';
import { CreateSignerRequest } from '#schemas/envelopes.ts';
import type { Deps } from '#shared/deps.ts';

export const createHandler = (deps: Deps) =>
  route({ authenticate: bearerAuth(deps), params: IdParams, body: jsonBody(CreateSignerRequest) }, async ({ params, body, principal, meta }) =>
    created(signerView(await addEnvelopeSigner(deps, principal.appId, params.id, body, meta))));

export const handler = lambda(createHandler);
