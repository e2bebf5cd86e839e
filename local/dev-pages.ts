/**
 * The local API's pages for people: `GET /` points to the reference, `/docs/` renders it (infra/docs-site.ts), and
 * `GET /healthz` says the service is ready (the API port opens only once every route is bound and the signing host
 * listens, so any answer from it means ready).
 */
import { ok, type HttpResult } from '#shared/http/responses.ts';
import { DOCS_HEADERS, docsFiles } from '../infra/docs-site.ts';
import type { DevHandler } from './server.ts';

const redirect = (location: string): HttpResult => ({ statusCode: 302, headers: { location, 'content-type': 'text/plain; charset=utf-8' }, body: `See ${location}` });

export function pageHandlers(ready: { routes: number; signingUrl: string }): Record<string, DevHandler> {
  const files = docsFiles('/v1/openapi.json');
  const handlers: Record<string, DevHandler> = {
    'GET /': () => Promise.resolve(redirect('/docs/')),
    'GET /docs': () => Promise.resolve(redirect('/docs/')),
    'GET /healthz': () => Promise.resolve(ok({ status: 'ready', routes: ready.routes, signingUrl: ready.signingUrl }, 200, { 'cache-control': 'no-store' })),
  };
  for (const [name, file] of Object.entries(files)) {
    const result = (): Promise<HttpResult> => Promise.resolve({
      statusCode: 200, isBase64Encoded: true, body: file.body.toString('base64'),
      headers: { 'content-type': file.type, 'cache-control': 'no-cache', ...DOCS_HEADERS },
    });
    handlers[`GET /docs/${name}`] = result;
    if (name === 'index.html') handlers['GET /docs/'] = result;
  }
  return handlers;
}
