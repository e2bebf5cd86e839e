import { json, jsonBody, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { inviteUser, userView } from '#shared/console/team-actions.ts';
import { InviteUserRequest, UserResponse } from '#shared/console/team-schemas.ts';

export const definition = route({
  method: 'POST', path: '/v1/console/users', auth: 'bearer', tag: 'Console', adminOnly: true,
  operationId: 'inviteUser', summary: 'Invite a user to the console',
  description:
    'Makes the account at the identity provider with a temporary password and emails the invitation (where to sign in, the password ' +
    'to replace), in `locale` (default en). The user belongs to this application with `role`. Administrators only.',
  body: jsonBody(InviteUserRequest),
  success: { status: 201, description: 'Invited', content: json(UserResponse) },
  errors: { 400: 'Not an email address, or no such role', 409: 'An account with this email exists already' },
  access: { table: 'write', secrets: ['JWT_SECRET'], mail: true, identities: true },
}, (deps) => async ({ body, principal }) => respond(UserResponse, userView(await inviteUser(deps, principal.appId, body)), 201));

export const handler = lambda(definition);
