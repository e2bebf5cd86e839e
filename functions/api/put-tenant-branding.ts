import { bearerAccess, json, jsonBody, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { BrandingResponse, TenantBrandingParams, TenantBrandingRequest } from '#shared/console/branding-schemas.ts';
import { brandingView } from '#shared/console/branding-views.ts';
import { saveBranding } from '#shared/console/branding-actions.ts';
import { resolveBranding } from '#shared/console/branding.ts';

/** Sets a tenant's branding override: each field it sets wins over the application's for that tenant's new envelopes. */
export const definition = route({
  method: 'PUT', path: '/v1/console/tenants/{tenantId}/branding', auth: 'bearer', tag: 'Console', adminOnly: true,
  operationId: 'putTenantBranding', summary: "Set a tenant's branding override",
  description:
    'Any of the application branding\'s fields; those given win over the application\'s for this tenant, the others stay the application\'s. ' +
    '`logo` as for `PUT /v1/console/branding`. Envelopes created afterwards carry the result.',
  params: TenantBrandingParams,
  body: jsonBody(TenantBrandingRequest),
  success: { status: 200, description: 'The override and the branding in force', content: json(BrandingResponse) },
  errors: { 400: 'A value outside the allowed set; a logo over 200 KB (`logo_too_large`) or not a usable PNG or SVG (`logo_invalid`)' },
  access: { ...bearerAccess, table: 'write' },
}, (deps) => async ({ params, body, principal }) => {
  const tenant = await saveBranding(deps, principal.appId, params.tenantId, body);
  const app = await deps.tenants.branding(principal.appId, null);
  return respond(BrandingResponse, brandingView(tenant, resolveBranding(app, tenant), deps.config.signingUrl));
});

export const handler = lambda(definition);
