import { bearerAccess, json, jsonBody, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { BrandingRequest, BrandingResponse } from '#shared/console/branding-schemas.ts';
import { brandingView } from '#shared/console/branding-views.ts';
import { saveBranding } from '#shared/console/branding-actions.ts';
import { resolveBranding } from '#shared/console/branding.ts';

/** Sets the application's branding; envelopes created from now on take it (existing ones keep theirs). */
export const definition = route({
  method: 'PUT', path: '/v1/console/branding', auth: 'bearer', tag: 'Console', adminOnly: true,
  operationId: 'putBranding', summary: "Set the application's branding",
  description:
    '`logo` is a `data:` URI of a PNG (checked: signature, structure, at most 4096 pixels a side) or an SVG (sanitised: scripts, event handlers, ' +
    'foreign objects, images and every reference outside the file are removed), at most 200 KB; null removes it, absent keeps it. ' +
    'Envelopes created afterwards carry the branding; those created before keep what they had.',
  body: jsonBody(BrandingRequest),
  success: { status: 200, description: 'The branding now in force', content: json(BrandingResponse) },
  errors: { 400: 'A value outside the allowed set; a logo over 200 KB (`logo_too_large`) or not a usable PNG or SVG (`logo_invalid`)' },
  access: { ...bearerAccess, table: 'write' },
}, (deps) => async ({ body, principal }) => {
  const record = await saveBranding(deps, principal.appId, null, body);
  return respond(BrandingResponse, brandingView(record, resolveBranding(record, null), deps.config.signingUrl));
});

export const handler = lambda(definition);
