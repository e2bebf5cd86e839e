import { bearerAccess, json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { TenantSettingsResponse } from '#shared/console/console-response-schemas.ts';
import { TenantParams } from '#shared/console/tenant-schemas.ts';

/** A tenant's settings: the stored ones, or the defaults for a tenant that has set none. */
export const definition = route({
  method: 'GET', path: '/v1/console/tenants/{tenantId}', auth: 'bearer', tag: 'Console',
  operationId: 'getTenant', summary: "A tenant's settings (expiry, retention, field origin)",
  description:
    'Per (application, tenantId) defaults, kept for each tenant of an application: `retentionDays` (30), `defaultExpiresInDays` (30), `fieldOrigin` (bottom-left), `defaultLocale` (en). ' +
    'A tenant that never set them reads the defaults.',
  params: TenantParams,
  success: { status: 200, description: "The tenant's settings", content: json(TenantSettingsResponse) },
  errors: {},
  access: { ...bearerAccess },
}, (deps) => async ({ params, principal }) => {
  const { appId: _app, ...settings } = await deps.tenants.get(principal.appId, params.tenantId);
  return respond(TenantSettingsResponse, { ...settings, defaultReminders: settings.defaultReminders ?? null });
});

export const handler = lambda(definition);
