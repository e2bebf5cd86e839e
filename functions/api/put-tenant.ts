import { bearerAccess, json, jsonBody, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { TenantSettingsResponse } from '#shared/console/console-response-schemas.ts';
import { TenantParams, TenantSettingsRequest } from '#shared/console/tenant-schemas.ts';

/** Sets a tenant's defaults; envelopes created from now on take them (existing ones keep theirs). */
export const definition = route({
  method: 'PUT', path: '/v1/console/tenants/{tenantId}', auth: 'bearer', tag: 'Console',
  operationId: 'putTenant', summary: "Set a tenant's settings",
  description:
    'Sets any of the settings; envelopes created afterwards take them. `retentionDays` is one of the retention classes ' +
    '(7, 30, 90, 365, 730, 2555): the PDFs are deleted that many days after the envelope ends.',
  params: TenantParams,
  body: jsonBody(TenantSettingsRequest),
  success: { status: 200, description: 'The settings now in force', content: json(TenantSettingsResponse) },
  errors: { 400: 'A value outside the allowed set' },
  access: { ...bearerAccess, table: 'write' },
}, (deps) => async ({ params, body, principal }) => {
  const current = await deps.tenants.get(principal.appId, params.tenantId);
  const next = { ...current, ...body };
  await deps.tenants.put(next);
  const { appId: _app, ...settings } = next;
  return respond(TenantSettingsResponse, { ...settings, defaultReminders: settings.defaultReminders ?? null });
});

export const handler = lambda(definition);
