import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'aws-lambda';
import { PayloadTooLarge } from '#shared/kernel/errors.ts';
import { API_GATEWAY_MAX_BODY_BYTES } from '#shared/http/aws-limits.ts';
import { resultForError } from '#shared/http/http-errors.ts';
import type { HttpResult } from '#shared/http/responses.ts';
import { toApiEvent } from './api-event.ts';
import { invokeRoute, refusedByGateway, type Invocable, type LimitOptions } from './aws-limits.ts';
import { matchRoute, type BoundRoute } from './router.ts';

/** Beyond API Gateway's limit the body is only counted, so a huge upload costs no memory before its 413. */
const KEPT_BYTES = API_GATEWAY_MAX_BODY_BYTES + 1;

export type DevHandler = (req: IncomingMessage, url: URL, body: Buffer) => Promise<HttpResult>;

/** Reads the body and counts it; past what API Gateway takes the rest is drained and dropped, so the client gets the 413. */
function readBody(req: IncomingMessage): Promise<{ body: Buffer; size: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size + chunk.length <= KEPT_BYTES) chunks.push(chunk);
      size += chunk.length;
    });
    req.on('end', () => { resolve({ body: Buffer.concat(chunks), size }); });
    req.on('error', reject);
  });
}

function send(res: ServerResponse, result: HttpResult): void {
  const body = result.body === undefined ? Buffer.alloc(0) : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  res.writeHead(result.statusCode, { ...result.headers, 'content-length': String(body.length) });
  res.end(body);
}

const lambdaContext = (requestId: string) => ({ awsRequestId: requestId, functionName: 'local' }) as unknown as Context;

/**
 * Routes a request through the manifest to its function, as API Gateway would, with the limits API Gateway and Lambda
 * enforce (aws-limits.ts); `/_local/*` goes to the dev handlers, and anything no route takes to `fallback` (the
 * `$default` route's function: 404 or 405 with the rate-limit headers).
 */
export function apiListener(routes: () => readonly BoundRoute[], dev: Record<string, DevHandler>, fallback: () => Invocable, limits: LimitOptions = {}) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    try {
      const { body, size } = await readBody(req);
      const devHandler = dev[`${req.method ?? 'GET'} ${url.pathname}`];
      if (devHandler) {
        if (size > body.length) throw new PayloadTooLarge('The request body is larger than 10 MB');
        send(res, await devHandler(req, url, body));
        return;
      }
      const match = matchRoute(routes(), req.method ?? 'GET', url.pathname);
      const key = match.kind === 'found' ? `${match.route.def.method} ${match.route.def.path}` : '$default';
      const refused = refusedByGateway(size, key, limits);
      if (refused) {
        send(res, refused);
        return;
      }
      const event = toApiEvent(req, url, body, { key, params: match.kind === 'found' ? match.params : {} });
      const target = match.kind === 'found' ? match.route : fallback();
      send(res, await invokeRoute(target, event, lambdaContext(event.requestContext.requestId), limits));
    } catch (error) {
      send(res, resultForError(error, 'local'));
    }
  };
}
