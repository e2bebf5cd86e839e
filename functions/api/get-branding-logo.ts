import { NotFound } from '#shared/kernel/errors.ts';
import { route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { binary } from '#shared/http/responses.ts';
import { LogoParams } from '#shared/console/branding-schemas.ts';

/**
 * A branding logo, public (emails and the signer's pages show it): named by its SHA-256, so it never changes and is
 * cached for a year. An SVG was sanitised when it was set; its policy lets it run nothing and load nothing anyway.
 */
export const definition = route({
  method: 'GET', path: '/v1/branding/{logoId}/logo', auth: 'none', tag: 'Meta',
  operationId: 'getBrandingLogo', summary: 'A branding logo (PNG or SVG)',
  description: 'No authentication: emails and the signing, download and embedded pages load it from the signing host. The id is the SHA-256 of the file, so the answer is immutable. Rate-limited per address like every unauthenticated route.',
  params: LogoParams,
  success: {
    status: 200, description: 'The logo',
    content: { 'image/png': { jsonSchema: { type: 'string', format: 'binary' } }, 'image/svg+xml': { jsonSchema: { type: 'string', description: 'A sanitised SVG' } } },
  },
  errors: { 404: 'No such logo' },
  access: { table: 'read' },
}, (deps) => async ({ params }) => {
  const logo = await deps.tenants.logo(params.logoId);
  if (!logo) throw new NotFound('No such logo');
  return binary(logo.bytes, logo.contentType, {
    'cache-control': 'public, max-age=31536000, immutable',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': 'cross-origin',
  });
});

export const handler = lambda(definition);
