import { authoringFrameOrigins } from '#shared/authoring/authoring-actions.ts';
import { route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { embeddedPage } from '#shared/signing/embedded-page.ts';
import { TokenParams } from '#shared/signing/signing-schemas.ts';

export const definition = route({
  method: 'GET', path: '/author/{token}', auth: 'link', tag: 'Envelopes',
  operationId: 'authoringPage', summary: 'The editor (HTML)',
  description:
    "The editor page with `Content-Security-Policy: frame-ancestors` set to the application's `embedOrigins` (`'none'` when it has none). " +
    'Served on the signing host.',
  params: TokenParams,
  success: { status: 200, description: 'The page', content: { 'text/html': { jsonSchema: { type: 'string' } } } },
  errors: {},
  access: { table: 'read', secrets: ['LINK_SECRET'] },
}, (deps) => async ({ params }) => embeddedPage(deps.config.signingUrl, await authoringFrameOrigins(deps, params.token), deps.config.documentsOrigin, 'author.html'));

export const handler = lambda(definition);
