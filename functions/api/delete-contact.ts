import { deleteContact } from '#domain/use-cases/console.ts';
import { bearerAccess, route } from '#http/endpoint.ts';
import { lambda } from '#http/lambda.ts';
import { noContent } from '#http/responses.ts';
import { IdParams } from '#schemas/common.ts';

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
