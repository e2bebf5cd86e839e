import { frameOrigins } from '#shared/signing/embedding-actions.ts';
import { route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { embeddedPage } from '#shared/signing/embedded-page.ts';
import { TokenParams } from '#shared/signing/signing-schemas.ts';

export const definition = route({
  method: 'GET', path: '/embed/{token}', auth: 'link', tag: 'Signing',
  operationId: 'embeddedSigningPage', summary: 'The embedded signing page (HTML)',
  description:
    "The signing page with `Content-Security-Policy: frame-ancestors` set to the application's `embedOrigins`; " +
    "every other signing-host page sends `frame-ancestors 'none'`. Served on the signing host.",
  params: TokenParams,
  success: { status: 200, description: 'The page', content: { 'text/html': { jsonSchema: { type: 'string' } } } },
  errors: {},
  access: { table: 'read', secrets: ['LINK_SECRET'] },
}, (deps) => async ({ params }) => embeddedPage(deps.config.signingUrl, await frameOrigins(deps, params.token), deps.config.documentsOrigin));

export const handler = lambda(definition);
