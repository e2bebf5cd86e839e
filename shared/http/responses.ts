import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

export type HttpResult = APIGatewayProxyStructuredResultV2 & { statusCode: number; headers: Record<string, string> };

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
