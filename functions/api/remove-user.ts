import { bearerAccess, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { noContent } from '#shared/http/responses.ts';
import { removeUser } from '#shared/console/team-actions.ts';
import { UserParams } from '#shared/console/team-schemas.ts';

export const definition = route({
  method: 'DELETE', path: '/v1/console/users/{userId}', auth: 'bearer', tag: 'Console', adminOnly: true,
  operationId: 'removeUser', summary: 'Remove a user',
  description: 'Their tokens are refused from the next request on, and their account at the identity provider is deleted. Nobody removes themselves. Administrators only.',
  params: UserParams,
  success: { status: 204, description: 'Removed' },
  errors: { 404: 'No such user in this application', 409: 'Yourself' },
  access: { ...bearerAccess, table: 'write', identities: true },
}, (deps) => async ({ params, principal }) => {
  await removeUser(deps, principal, params.userId);
  return noContent();
});

export const handler = lambda(definition);
