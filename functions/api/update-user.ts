import { bearerAccess, json, jsonBody, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { changeRole, userView } from '#shared/console/team-actions.ts';
import { UpdateUserRequest, UserParams, UserResponse } from '#shared/console/team-schemas.ts';

export const definition = route({
  method: 'PUT', path: '/v1/console/users/{userId}', auth: 'bearer', tag: 'Console', adminOnly: true,
  operationId: 'updateUser', summary: "Change a user's role",
  description: 'Takes effect at the user\'s next request. Nobody changes their own role. Administrators only.',
  params: UserParams,
  body: jsonBody(UpdateUserRequest),
  success: { status: 200, description: 'The user with the new role', content: json(UserResponse) },
  errors: { 400: 'No such role', 404: 'No such user in this application', 409: 'Your own role' },
  access: { ...bearerAccess, table: 'write' },
}, (deps) => async ({ params, body, principal }) => respond(UserResponse, userView(await changeRole(deps, principal, params.userId, body.role))));

export const handler = lambda(definition);
