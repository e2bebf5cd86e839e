/**
 * What AWS refuses, in one place: the deployed functions stay under it (the largest PDF a response carries), the CDK
 * stacks configure by it (the API's integration timeout, each function's timeout), and the local runtime refuses what
 * exceeds it exactly as API Gateway and Lambda do (local/aws-limits.ts), so a test meets the limit before AWS does.
 */

/** API Gateway (HTTP API): the largest request body it takes, in bytes ("HTTP content length exceeded 10485760 bytes"). */
export const API_GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Lambda, synchronous invocation: the largest event, as the JSON it is sent as (a binary body base64 inside). */
export const LAMBDA_MAX_REQUEST_BYTES = 6 * 1024 * 1024;

/** Lambda, synchronous invocation: the largest response, as the JSON the handler answers (100 bytes above the request's). */
export const LAMBDA_MAX_RESPONSE_BYTES = 6 * 1024 * 1024 + 100;

/** How long API Gateway waits for a route's function; the API's integrations are configured with it. */
export const API_INTEGRATION_TIMEOUT_SECONDS = 29;

/** A function's timeout when its access declares none: ServiceFunction's default (the CDK tests hold them equal). */
export const DEFAULT_FUNCTION_TIMEOUT_SECONDS = 15;

/**
 * What a response needs besides its body, with room to spare: the status, the headers (a Content-Disposition with a
 * UTF-8 filename, the security headers, the rate-limit headers) and the JSON around them. Well under 64 KB.
 */
const RESPONSE_ENVELOPE_MARGIN_BYTES = 64 * 1024;

/** The base64 length of `bytes` bytes. */
export const base64Length = (bytes: number): number => 4 * Math.ceil(bytes / 3);

/**
 * The largest body a response may carry (4,669,440 bytes, about 4.45 MiB): base64 makes it 4/3 larger, and with the
 * response's headers and JSON it must stay within Lambda's 6 MB. A larger PDF is answered with a presigned URL.
 */
export const MAX_INLINE_BODY_BYTES = Math.floor((LAMBDA_MAX_REQUEST_BYTES - RESPONSE_ENVELOPE_MARGIN_BYTES) / 4) * 3;

/** Which limit an invocation broke, how large it was and what the limit is: the log names it. */
export interface LimitBreach {
  limit: 'API Gateway request payload' | 'Lambda request payload' | 'Lambda response payload';
  bytes: number;
  maxBytes: number;
}

/** The size Lambda counts for a payload: the JSON it travels as, in UTF-8. */
export const payloadBytes = (payload: object): number => Buffer.byteLength(JSON.stringify(payload), 'utf8');

/** API Gateway's check on a request body of `bodyBytes` bytes (as received, before any base64). */
export function gatewayRequestBreach(bodyBytes: number): LimitBreach | null {
  return bodyBytes > API_GATEWAY_MAX_BODY_BYTES ? { limit: 'API Gateway request payload', bytes: bodyBytes, maxBytes: API_GATEWAY_MAX_BODY_BYTES } : null;
}

/** Lambda's check on the event a route's function would be invoked with. */
export function invocationRequestBreach(event: object): LimitBreach | null {
  const bytes = payloadBytes(event);
  return bytes > LAMBDA_MAX_REQUEST_BYTES ? { limit: 'Lambda request payload', bytes, maxBytes: LAMBDA_MAX_REQUEST_BYTES } : null;
}

/** Lambda's check on what a function answered. */
export function invocationResponseBreach(response: object): LimitBreach | null {
  const bytes = payloadBytes(response);
  return bytes > LAMBDA_MAX_RESPONSE_BYTES ? { limit: 'Lambda response payload', bytes, maxBytes: LAMBDA_MAX_RESPONSE_BYTES } : null;
}
