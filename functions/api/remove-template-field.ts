import { removeTemplateField } from '#shared/templates/template-edit-actions.ts';
import { route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { noContent } from '#shared/http/responses.ts';
import { FieldParams } from '#shared/envelopes/draft-edit-schemas.ts';

export const definition = route({
  method: 'DELETE', path: '/v1/templates/{id}/fields/{fieldId}', auth: 'bearer', tag: 'Templates',
  operationId: 'deleteTemplateField', summary: 'Remove a field from a template',
  params: FieldParams,
  success: { status: 204, description: 'Removed' },
  errors: { 404: 'No such template for this application, or no such field on it', 409: 'The template is being changed by another request' },
  authoring: { kind: 'template', mode: 'fields' },
  access: { table: 'write', secrets: ['JWT_SECRET'] },
}, (deps) => async ({ params, principal }) => {
  await removeTemplateField(deps, principal.appId, params.id, params.fieldId);
  return noContent();
});

export const handler = lambda(definition);
