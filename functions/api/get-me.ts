import { bearerAccess, json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { MeResponse } from '#shared/console/team-schemas.ts';
import { resolveBranding } from '#shared/console/branding.ts';
import { pageBrandingView } from '#shared/console/branding-views.ts';

/** Who is calling: a console user (their role) or a client-credentials token (acting as an administrator). */
export const definition = route({
  method: 'GET', path: '/v1/console/me', auth: 'bearer', tag: 'Console',
  operationId: 'getMe', summary: 'The signed-in user, their role and application',
  description: 'For a console user: their email, name and role; and the application\'s branding for the console\'s header. A client-credentials token answers `role: admin` and `email: null`.',
  success: { status: 200, description: 'The caller', content: json(MeResponse) },
  errors: {},
  access: { ...bearerAccess },
}, (deps) => async ({ principal }) => {
  const [app, user, branding] = await Promise.all([
    deps.applications.get(principal.appId),
    principal.user ? deps.team.userBySubject(principal.user.userId) : undefined,
    deps.tenants.branding(principal.appId, null),
  ]);
  return respond(MeResponse, {
    email: principal.user?.email ?? null, name: user?.name ?? null, role: principal.user?.role ?? 'admin', appId: principal.appId, applicationName: app?.name ?? '',
    branding: pageBrandingView({ branding: resolveBranding(branding, null), sender: null }),
  });
});

export const handler = lambda(definition);
