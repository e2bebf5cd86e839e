import { replaceEnvelopeField } from '#shared/envelopes/draft-edit-actions.ts';
import { envelopeWrite, json, jsonBody, respond, route } from '#shared/http/endpoint.ts';
import { CONCURRENT } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { fieldView } from '#shared/envelopes/envelope-views.ts';
import { FieldParams, ReplaceFieldRequest } from '#shared/envelopes/draft-edit-schemas.ts';
import { FieldResponse } from '#shared/envelopes/envelope-response-schemas.ts';

export const definition = route({
  method: 'PUT', path: '/v1/envelopes/{id}/fields/{fieldId}', auth: 'bearer', tag: 'Envelopes',
  operationId: 'replaceField', summary: 'Move, resize or change a field of a draft',
  description:
    'Replaces the field\'s placement (`page`, `x`, `y`, `w`, `h`, by coordinates), type, signer, label, `required`, value and `readOnly`, ' +
    'checked as a new field is: it must lie inside its page. Without `documentId` it stays on its document; without `origin`, its origin stays.',
  params: FieldParams,
  body: jsonBody(ReplaceFieldRequest),
  success: { status: 200, description: 'The field as it is now', content: json(FieldResponse) },
  errors: {
    400: 'Validation error, a placement outside the page, a signer or document the envelope lacks, or the envelope is not in draft',
    404: 'No such envelope for this application, or no such field on it',
    409: CONCURRENT,
  },
  authoring: { kind: 'envelope', mode: 'fields' },
  access: { ...envelopeWrite, documents: { read: ['original/'] } },
}, (deps) => async ({ params, body, principal, meta }) =>
  respond(FieldResponse, fieldView(await replaceEnvelopeField(deps, principal.appId, params.id, params.fieldId, body, meta))));

export const handler = lambda(definition);
