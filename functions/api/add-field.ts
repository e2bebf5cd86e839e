import { addEnvelopeFields } from '#domain/use-cases/placement.ts';
import { bearerAuth } from '#http/auth.ts';
import { lambda } from '#http/lambda.ts';
import { created } from '#http/responses.ts';
import { jsonBody, route } from '#http/route.ts';
import { fieldView } from '#http/views.ts';
import { IdParams } from '#schemas/common.ts';
import { AddFieldRequest } from '#schemas/envelopes.ts';
import type { Deps } from '#shared/deps.ts';

/** A field by coordinates answers the Field; one by anchor answers `{ data: [Field, ...] }`, one per occurrence (ADDITIONS A3). */
export const createHandler = (deps: Deps) =>
  route({ authenticate: bearerAuth(deps), params: IdParams, body: jsonBody(AddFieldRequest) }, async ({ params, body, principal, meta }) => {
    const fields = (await addEnvelopeFields(deps, principal.appId, params.id, body, meta)).map(fieldView);
    return created(body.anchor ? { data: fields } : fields[0]);
  });

export const handler = lambda(createHandler);
