import { bearerAccess, json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { BrandingResponse, TenantBrandingParams } from '#shared/console/branding-schemas.ts';
import { brandingView } from '#shared/console/branding-views.ts';
import { resolveBranding } from '#shared/console/branding.ts';

/** A tenant's branding override, and the branding its envelopes get (the application's with the override over it). */
export const definition = route({
  method: 'GET', path: '/v1/console/tenants/{tenantId}/branding', auth: 'bearer', tag: 'Console', adminOnly: true,
  operationId: 'getTenantBranding', summary: "A tenant's branding override",
  description: 'The fields the tenant overrides (null: the application\'s), and in `effective` what its envelopes created now get.',
  params: TenantBrandingParams,
  success: { status: 200, description: 'The override and the branding in force', content: json(BrandingResponse) },
  errors: {},
  access: { ...bearerAccess },
}, (deps) => async ({ params, principal }) => {
  const [app, tenant] = await Promise.all([deps.tenants.branding(principal.appId, null), deps.tenants.branding(principal.appId, params.tenantId)]);
  return respond(BrandingResponse, brandingView(tenant, resolveBranding(app, tenant), deps.config.signingUrl));
});

export const handler = lambda(definition);
