import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

export type HttpResult = APIGatewayProxyStructuredResultV2 & { statusCode: number; headers: Record<string, string> };

/**
 * What every API answer carries, JSON and PDF alike: nothing it returns is a page to run or to frame, and no browser
 * may guess another type for it. A route that sets its own Content-Security-Policy (the embedded signing page, framed
 * by the application's origins) keeps it and decides its framing itself.
 */
const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; sandbox", 'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer',
};

export function withSecurityHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const own = headers ?? {};
  return 'content-security-policy' in own ? { 'x-content-type-options': 'nosniff', ...own } : { ...API_SECURITY_HEADERS, ...own };
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

export function ok(body: unknown, statusCode = 200, headers: Record<string, string> = {}): HttpResult {
  return { statusCode, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

export const created = (body: unknown) => ok(body, 201);

export function noContent(): HttpResult {
  return { statusCode: 204, headers: { 'cache-control': 'no-store' }, body: '' };
}

/** A binary body: API Gateway sends it on base64-decoded. */
export function binary(bytes: Uint8Array, contentType: string, headers: Record<string, string> = {}): HttpResult {
  return {
    statusCode: 200,
    headers: { 'content-type': contentType, 'content-length': String(bytes.byteLength), 'cache-control': 'no-store', ...headers },
    body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
    isBase64Encoded: true,
  };
}
