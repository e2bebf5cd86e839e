import { deleteTemplate } from '#shared/templates/template-actions.ts';
import { bearerAccess, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { noContent } from '#shared/http/responses.ts';
import { IdParams } from '#shared/http/common-schemas.ts';

export const definition = route({
  method: 'DELETE', path: '/v1/templates/{id}', auth: 'bearer', tag: 'Templates',
  operationId: 'deleteTemplate', summary: 'Delete a template (envelopes made from it keep their own copies)',
  description: 'Deletes the template and its documents. Envelopes made from it keep their own copies of the documents and are not changed.',
  params: IdParams,
  success: { status: 204, description: 'Deleted' },
  errors: { 404: 'No such template for this application' },
  access: { ...bearerAccess, table: 'write', documents: { delete: ['templates/'] } },
}, (deps) => async ({ params, principal }) => {
  await deleteTemplate(deps, principal.appId, params.id);
  return noContent();
});

export const handler = lambda(definition);
