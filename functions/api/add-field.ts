import { addEnvelopeField } from '#domain/use-cases/envelopes.ts';
import { bearerAuth } from '#http/auth.ts';
import { lambda } from '#http/lambda.ts';
import { created } from '#http/responses.ts';
import { jsonBody, route } from '#http/route.ts';
import { fieldView } from '#http/views.ts';
import { IdParams } from '#schemas/common.ts';
import { AddFieldRequest } from '#schemas/envelopes.ts';
import type { Deps } from '#shared/deps.ts';

export const createHandler = (deps: Deps) =>
  route({ authenticate: bearerAuth(deps), params: IdParams, body: jsonBody(AddFieldRequest) }, async ({ params, body, principal, meta }) =>
    created(fieldView(await addEnvelopeField(deps, principal.appId, params.id, body, meta))));

export const handler = lambda(createHandler);
