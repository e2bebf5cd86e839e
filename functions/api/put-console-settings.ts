import { checkEmbedOrigins } from '#shared/signing/embedding.ts';
import { bearerAccess, json, jsonBody, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { ConsoleSettingsRequest } from '#shared/console/console-schemas.ts';
import { ConsoleSettingsResponse } from '#shared/console/console-response-schemas.ts';

/** Sets the application's settings: `embedOrigins`, the origins allowed to frame embedded signing (decision 36). */
export const definition = route({
  method: 'PUT', path: '/v1/console/settings', auth: 'bearer', tag: 'Console', adminOnly: true,
  operationId: 'putConsoleSettings', summary: "Set the application's settings (embedOrigins)",
  description:
    'At most 20 origins, each `https://host[:port]` (plain `http` only on a loopback host, for local development). Embedded signing ' +
    "pages answer `Content-Security-Policy: frame-ancestors` with them; with none, no site can frame them.",
  body: jsonBody(ConsoleSettingsRequest),
  success: { status: 200, description: 'The settings now in force', content: json(ConsoleSettingsResponse) },
  errors: { 400: 'More than 20 origins, or one that is not an HTTPS origin' },
  access: { ...bearerAccess, table: 'write' },
}, (deps) => async ({ body, principal }) => {
  const embedOrigins = checkEmbedOrigins(body.embedOrigins);
  await deps.applications.saveSettings(principal.appId, { embedOrigins });
  return respond(ConsoleSettingsResponse, { embedOrigins });
});

export const handler = lambda(definition);
