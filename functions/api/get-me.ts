import { bearerAccess, json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { MeResponse } from '#shared/console/team-schemas.ts';

/** Who is calling: a console user (their role) or a client-credentials token (acting as an administrator). */
export const definition = route({
  method: 'GET', path: '/v1/console/me', auth: 'bearer', tag: 'Console',
  operationId: 'getMe', summary: 'The signed-in user, their role and application',
  description: 'For a console user: their email, name and role. A client-credentials token answers `role: admin` and `email: null`.',
  success: { status: 200, description: 'The caller', content: json(MeResponse) },
  errors: {},
  access: { ...bearerAccess },
}, (deps) => async ({ principal }) => {
  const app = await deps.applications.get(principal.appId);
  const user = principal.user ? await deps.team.userBySubject(principal.user.userId) : undefined;
  return respond(MeResponse, {
    email: principal.user?.email ?? null, name: user?.name ?? null, role: principal.user?.role ?? 'admin', appId: principal.appId, applicationName: app?.name ?? '',
  });
});

export const handler = lambda(definition);
