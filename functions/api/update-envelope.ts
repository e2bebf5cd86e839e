import { updateEnvelopeDetails } from '#shared/envelopes/draft-edit-actions.ts';
import { envelopeWrite, json, jsonBody, respond, route } from '#shared/http/endpoint.ts';
import { CONCURRENT, NO_ENVELOPE } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { envelopeView } from '#shared/envelopes/envelope-views.ts';
import { IdParams } from '#shared/http/common-schemas.ts';
import { UpdateEnvelopeRequest } from '#shared/envelopes/draft-edit-schemas.ts';
import { EnvelopeResponse } from '#shared/envelopes/envelope-response-schemas.ts';

export const definition = route({
  method: 'PATCH', path: '/v1/envelopes/{id}', auth: 'bearer', tag: 'Envelopes',
  operationId: 'updateEnvelope', summary: 'Change the subject or message of a draft',
  description: 'Sets what the request gives (`subject`, `message`; null clears it) and leaves the rest. The message is the invitation\'s, unless the send gives another.',
  params: IdParams,
  body: jsonBody(UpdateEnvelopeRequest),
  success: { status: 200, description: 'The envelope', content: json(EnvelopeResponse) },
  errors: { 400: 'Validation error, neither subject nor message given, or the envelope is not in draft', 404: NO_ENVELOPE, 409: CONCURRENT },
  authoring: { kind: 'envelope', mode: 'full' },
  access: { ...envelopeWrite },
}, (deps) => async ({ params, body, principal, meta }) =>
  respond(EnvelopeResponse, envelopeView(await updateEnvelopeDetails(deps, principal.appId, params.id, body, meta))));

export const handler = lambda(definition);
