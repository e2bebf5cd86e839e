/**
 * The rendered API reference: Swagger UI (swagger-ui-dist, served from our own origin, no CDN) over the OpenAPI
 * document. The local API serves it at /docs (reading /v1/openapi.json); `npm run build:docs` writes the same page,
 * with the document beside it, to web/docs-dist/docs/, which the signing host deploys (infra/stacks/web-stack.ts) and
 * serves at /docs/. The page loads only its own files, so it runs under the signing host's CSP.
 *
 *   tsx infra/docs-site.ts [outDir]     (BASE_URL: the API address the document names; default the local one)
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { buildOpenApi } from './openapi.ts';
import { isMainModule } from './main-module.ts';

const require = createRequire(import.meta.url);
const SWAGGER = dirname(require.resolve('swagger-ui-dist/package.json'));

const page = (title: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title}</title>
  <link rel="stylesheet" href="swagger-ui.css">
  <link rel="icon" type="image/png" href="favicon-32x32.png">
</head>
<body>
  <div id="ui"></div>
  <script src="swagger-ui-bundle.js"></script>
  <script src="docs.js"></script>
</body>
</html>
`;

/** The initializer: an external file, since the signing host's CSP allows no inline script. */
const initializer = (documentUrl: string) => `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(documentUrl)},
  dom_id: '#ui',
  deepLinking: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  tryItOutEnabled: false,
});
`;

export interface DocsFile { type: string; body: Buffer }

/**
 * The reference loads only its own files and reads the API of its own origin; its styles are partly inline (Swagger
 * UI sets them from script). The signing host, which serves the deployed copy, sends its own stricter-or-equal policy.
 */
export const DOCS_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer',
};

/** The page's files by name; `documentUrl` is where it reads the OpenAPI document, relative to the page. */
export function docsFiles(documentUrl: string): Record<string, DocsFile> {
  const vendor = (name: string, type: string): DocsFile => ({ type, body: readFileSync(join(SWAGGER, name)) });
  return {
    'index.html': { type: 'text/html; charset=utf-8', body: Buffer.from(page('E-signature service API reference')) },
    'docs.js': { type: 'text/javascript; charset=utf-8', body: Buffer.from(initializer(documentUrl)) },
    'swagger-ui.css': vendor('swagger-ui.css', 'text/css; charset=utf-8'),
    'swagger-ui-bundle.js': vendor('swagger-ui-bundle.js', 'text/javascript; charset=utf-8'),
    'favicon-32x32.png': vendor('favicon-32x32.png', 'image/png'),
  };
}

/** Writes the deployable reference to `outDir/docs/`, the document beside the page. */
export function buildDocsSite(outDir: string, serverUrl: string): string {
  const dir = join(outDir, 'docs');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [name, file] of Object.entries(docsFiles('openapi.json'))) writeFileSync(join(dir, name), file.body);
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(buildOpenApi({ serverUrl })));
  return dir;
}

export const DOCS_DIST = resolve(import.meta.dirname, '../web/docs-dist');

if (isMainModule(import.meta.url)) {
  const serverUrl = (process.env.BASE_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
  console.log(`wrote ${buildDocsSite(resolve(process.argv[2] ?? DOCS_DIST), serverUrl)} (server ${serverUrl})`);
}
