import { createHash } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { canonicalJson } from '#shared/kernel/canonical-json.ts';
import { mediaType } from './body.ts';

/** The body in a form that does not change between two sends of the same request by one client. */
function normalisedBody(raw: Buffer, contentType: string | undefined): Buffer {
  const type = mediaType(contentType);
  if (type === 'application/json' || type.endsWith('+json')) {
    try {
      return Buffer.from(canonicalJson(JSON.parse(raw.toString('utf8'))), 'utf8');
    } catch {
      return raw; // not JSON: the route answers 400; the bytes still tell requests apart
    }
  }
  if (type === 'application/x-www-form-urlencoded') {
    const pairs = [...new URLSearchParams(raw.toString('utf8'))].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Buffer.from(JSON.stringify(pairs), 'utf8');
  }
  if (type === 'multipart/form-data') {
    // Clients draw a fresh random boundary for every send: the parts are what identifies the request.
    const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
    const delimiter = boundary?.[1] ?? boundary?.[2];
    if (delimiter) return Buffer.from(raw.toString('latin1').split(`--${delimiter}`).join('--'), 'latin1');
  }
  return raw;
}

/** Identifies a request for Idempotency-Key reuse checks (decision 32): method, path and body. */
export function requestFingerprint(event: APIGatewayProxyEventV2): string {
  const raw = event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  const body = normalisedBody(raw, event.headers['content-type']);
  return createHash('sha256')
    .update(`${event.requestContext.http.method} ${event.rawPath}\n`)
    .update(body)
    .digest('hex');
}
