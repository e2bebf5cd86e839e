import { bearerAccess, json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { ConsoleSettingsResponse } from '#shared/console/console-response-schemas.ts';

/** The application's own settings (embedded signing origins). */
export const definition = route({
  method: 'GET', path: '/v1/console/settings', auth: 'bearer', tag: 'Console', adminOnly: true,
  operationId: 'getConsoleSettings', summary: "The application's settings (embedOrigins)",
  description: 'The settings of the calling application: `embedOrigins`, the origins allowed to frame its embedded signing pages (empty: none).',
  success: { status: 200, description: 'The settings', content: json(ConsoleSettingsResponse) },
  errors: {},
  access: { ...bearerAccess },
}, (deps) => async ({ principal }) => {
  const app = await deps.applications.get(principal.appId);
  return respond(ConsoleSettingsResponse, { embedOrigins: app?.embedOrigins ?? [] });
});

export const handler = lambda(definition);
