import { CONSOLE_API_PREFIX, CONSOLE_PAGE_PREFIX, consoleCsp, servedBySigningHost, signingHostCsp } from '#shared/http/signing-host-policy.ts';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize } from 'node:path';
import type { BoundRoute } from './router.ts';
import type { DocsFile } from '../infra/docs-site.ts';
import type { Invocable } from './aws-limits.ts';
import { apiListener } from './server.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.wasm': 'application/wasm', '.ttf': 'font/ttf', '.woff': 'font/woff', '.png': 'image/png', '.woff2': 'font/woff2', '.json': 'application/json', '.mjs': 'text/javascript; charset=utf-8',
};

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/** Static files of the built signing pages; unknown paths get the SPA's index.html, as CloudFront does. */
async function serveStatic(root: string, pathname: string, res: ServerResponse, headers: Record<string, string>): Promise<void> {
  const safe = normalize(pathname).replace(/^(\.\.[/\\])+/, '');
  const candidates = [join(root, safe), join(root, 'index.html')];
  for (const file of candidates) {
    try {
      const bytes = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', ...headers });
      res.end(bytes);
      return;
    } catch {
      // try the next candidate
    }
  }
  res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  res.end('The signing pages are not built (web/dist is missing).');
}

/**
 * The signing host (decision 44): the signer-facing API paths go to the API, `/docs/` is the API reference as deployed
 * beside the pages (`docs`: its files by name), `/app/` is the sender console (its own page and policy, the rest of
 * `/v1/` for its calls), everything else is the web app. `identityOrigins`: where the console signs its users in.
 */
export function signingHostListener(routes: () => readonly BoundRoute[], webRoot: string, fallback: () => Invocable, documentsOrigin: string, docs: Record<string, DocsFile> = {}, identityOrigins: readonly string[] = []) {
  const headers = { ...SECURITY_HEADERS, 'content-security-policy': signingHostCsp(documentsOrigin) };
  const consoleHeaders = { ...SECURITY_HEADERS, 'content-security-policy': consoleCsp(documentsOrigin, identityOrigins), 'cache-control': 'no-cache' };
  const api = apiListener(() => routes().filter((r) => r.def.auth === 'link' || servedBySigningHost(r.def.path) || r.def.path.startsWith(CONSOLE_API_PREFIX)), {}, fallback);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (servedBySigningHost(url.pathname) || url.pathname.startsWith(CONSOLE_API_PREFIX)) return api(req, res);
    if (url.pathname === CONSOLE_PAGE_PREFIX.slice(0, -1)) {
      res.writeHead(302, { location: CONSOLE_PAGE_PREFIX, ...headers });
      res.end();
      return;
    }
    if (url.pathname.startsWith(CONSOLE_PAGE_PREFIX)) return serveStatic(webRoot, '/app/index.html', res, consoleHeaders);
    if (url.pathname === '/docs') {
      res.writeHead(302, { location: '/docs/', ...headers });
      res.end();
      return;
    }
    const doc = url.pathname.startsWith('/docs/') ? docs[url.pathname.slice('/docs/'.length) || 'index.html'] : undefined;
    if (doc) {
      res.writeHead(200, { 'content-type': doc.type, ...headers });
      res.end(doc.body);
      return;
    }
    return serveStatic(webRoot, url.pathname === '/' ? '/index.html' : url.pathname, res, headers);
  };
}
