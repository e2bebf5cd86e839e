import { removeEnvelopeField } from '#shared/envelopes/draft-edit-actions.ts';
import { envelopeWrite, route } from '#shared/http/endpoint.ts';
import { CONCURRENT } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { noContent } from '#shared/http/responses.ts';
import { FieldParams } from '#shared/envelopes/draft-edit-schemas.ts';

export const definition = route({
  method: 'DELETE', path: '/v1/envelopes/{id}/fields/{fieldId}', auth: 'bearer', tag: 'Envelopes',
  operationId: 'deleteField', summary: 'Remove a field from a draft',
  params: FieldParams,
  success: { status: 204, description: 'Removed' },
  errors: { 400: 'The envelope is not in draft', 404: 'No such envelope for this application, or no such field on it', 409: CONCURRENT },
  authoring: { kind: 'envelope', mode: 'fields' },
  access: { ...envelopeWrite },
}, (deps) => async ({ params, principal, meta }) => {
  await removeEnvelopeField(deps, principal.appId, params.id, params.fieldId, meta);
  return noContent();
});

export const handler = lambda(definition);
