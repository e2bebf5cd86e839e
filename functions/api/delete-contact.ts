import { deleteContact } from '#shared/console/console-actions.ts';
import { bearerAccess, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { noContent } from '#shared/http/responses.ts';
import { IdParams } from '#shared/http/common-schemas.ts';

export const definition = route({
  method: 'DELETE', path: '/v1/console/contacts/{id}', auth: 'bearer', tag: 'Console',
  operationId: 'deleteContact', summary: 'Remove a contact',
  description: 'Removes a saved contact.',
  params: IdParams,
  success: { status: 204, description: 'Deleted' },
  errors: { 404: 'No such contact for this application' },
  access: { ...bearerAccess, table: 'write' },
}, (deps) => async ({ params, principal }) => {
  await deleteContact(deps, principal.appId, params.id);
  return noContent();
});

export const handler = lambda(definition);
