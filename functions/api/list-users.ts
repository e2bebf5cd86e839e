import { bearerAccess, json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { userView } from '#shared/console/team-actions.ts';
import { UserListResponse } from '#shared/console/team-schemas.ts';

export const definition = route({
  method: 'GET', path: '/v1/console/users', auth: 'bearer', tag: 'Console', adminOnly: true,
  operationId: 'listUsers', summary: "The application's console users",
  description: 'Every user who may sign in to the console for this application, by email. Administrators only.',
  success: { status: 200, description: 'The users', content: json(UserListResponse) },
  errors: {},
  access: { ...bearerAccess },
}, (deps) => async ({ principal }) => respond(UserListResponse, (await deps.team.users(principal.appId)).map(userView)));

export const handler = lambda(definition);
