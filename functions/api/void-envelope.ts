import { voidEnvelopeNow } from '#shared/envelopes/envelope-actions.ts';
import { envelopeWrite, json, jsonBody, respond, route } from '#shared/http/endpoint.ts';
import { CONCURRENT, NO_ENVELOPE } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { envelopeView } from '#shared/envelopes/envelope-views.ts';
import { IdParams } from '#shared/http/common-schemas.ts';
import { VoidRequest } from '#shared/envelopes/envelope-schemas.ts';
import { EnvelopeResponse } from '#shared/envelopes/envelope-response-schemas.ts';

export const definition = route({
  method: 'POST', path: '/v1/envelopes/{id}/void', auth: 'bearer', tag: 'Envelopes',
  operationId: 'voidEnvelope', summary: 'Void an envelope that is not yet terminal',
  description: 'Ends a sent envelope: every signing link stops working and no one can sign. Once every signer has signed the envelope is being sealed and can no longer be voided.',
  params: IdParams,
  body: jsonBody(VoidRequest, { optional: true }),
  success: { status: 200, description: 'The voided envelope', content: json(EnvelopeResponse) },
  errors: { 400: 'The envelope is already terminal (completed, declined, voided or expired), or every signer has signed and it is being sealed (`invalid_state`)', 404: NO_ENVELOPE, 409: CONCURRENT },
  access: { ...envelopeWrite },
}, (deps) => async ({ params, body, principal, meta }) =>
  respond(EnvelopeResponse, envelopeView(await voidEnvelopeNow(deps, principal.appId, params.id, body.reason, meta))));

export const handler = lambda(definition);
