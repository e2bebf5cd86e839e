import { bearerAccess, json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { BrandingResponse } from '#shared/console/branding-schemas.ts';
import { brandingView } from '#shared/console/branding-views.ts';
import { resolveBranding } from '#shared/console/branding.ts';

/** The application's branding (every field null when none was set). */
export const definition = route({
  method: 'GET', path: '/v1/console/branding', auth: 'bearer', tag: 'Console', adminOnly: true,
  operationId: 'getBranding', summary: "The application's branding (organisation, logo, colour, email sender name)",
  description: 'What invitations, reminders, notices, completion emails, the signing and download pages and the audit certificate show. A tenant may override it: `/v1/console/tenants/{tenantId}/branding`.',
  success: { status: 200, description: 'The branding', content: json(BrandingResponse) },
  errors: {},
  access: { ...bearerAccess },
}, (deps) => async ({ principal }) => {
  const record = await deps.tenants.branding(principal.appId, null);
  return respond(BrandingResponse, brandingView(record, resolveBranding(record, null), deps.config.signingUrl));
});

export const handler = lambda(definition);
