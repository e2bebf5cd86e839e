import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'aws-lambda';
import { PayloadTooLarge } from '#domain/errors.ts';
import { resultForError } from '#http/errors.ts';
import type { ApiHandler } from '#http/pipeline.ts';
import type { HttpResult } from '#http/responses.ts';
import { MAX_TOTAL_DOCUMENT_BYTES } from '#domain/model.ts';
import { toApiEvent } from './api-event.ts';
import { matchRoute, type BoundRoute } from './router.ts';

/** What API Gateway would accept at most; beyond it the local server answers 413 itself. */
const MAX_REQUEST_BYTES = MAX_TOTAL_DOCUMENT_BYTES + 2 * 1024 * 1024;

export type DevHandler = (req: IncomingMessage, url: URL, body: Buffer) => Promise<HttpResult>;

/** Reads the body; past the limit the rest is drained and dropped so the client still gets the 413. */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REQUEST_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_REQUEST_BYTES) reject(new PayloadTooLarge('The request body is larger than the documents of an envelope may be (100 MB together, 25 MB each)'));
      else resolve(Buffer.concat(chunks));
    });
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
 * Routes a request through the manifest to its function, as API Gateway would; `/_local/*` goes to the dev handlers,
 * and anything no route takes to `fallback` (the `$default` route's function: 404 or 405 with the rate-limit headers).
 */
export function apiListener(routes: () => readonly BoundRoute[], dev: Record<string, DevHandler>, fallback: () => ApiHandler) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    try {
      const body = await readBody(req);
      const devHandler = dev[`${req.method ?? 'GET'} ${url.pathname}`];
      if (devHandler) {
        send(res, await devHandler(req, url, body));
        return;
      }
      const match = matchRoute(routes(), req.method ?? 'GET', url.pathname);
      const event = match.kind === 'found'
        ? toApiEvent(req, url, body, { key: `${match.route.def.method} ${match.route.def.path}`, params: match.params })
        : toApiEvent(req, url, body, { key: '$default', params: {} });
      const handler = match.kind === 'found' ? match.route.handler : fallback();
      send(res, await handler(event, lambdaContext(event.requestContext.requestId)));
    } catch (error) {
      send(res, resultForError(error, 'local'));
    }
  };
}
