import { DomainError, MethodNotAllowed, RateLimited, SignedAndComplete, type ErrorCode, type ErrorReason, type FieldErrors } from '#shared/kernel/errors.ts';
import { ok, type HttpResult } from './responses.ts';

/** Each code's status; which refusal gets which code is decision 5 and decision 6 (no 422: a terminal envelope's void is 400). */
export const STATUS: Record<ErrorCode, number> = {
  validation_error: 400,
  invalid_state: 400,
  unauthorized: 401,
  forbidden: 403,
  quota_exceeded: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  idempotency_key_reused: 409,
  request_in_progress: 409,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
};

const TITLE: Record<ErrorCode, string> = {
  validation_error: 'Validation error',
  invalid_state: 'Invalid state',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  quota_exceeded: 'Quota exceeded',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  conflict: 'Conflict',
  idempotency_key_reused: 'Idempotency key reused',
  request_in_progress: 'Request in progress',
  gone: 'Gone',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  rate_limited: 'Too many requests',
  internal_error: 'Internal error',
};

/** The one error body that is both published shapes (decision 5), plus a `reason` where one code has several causes. */
export function errorResult(code: ErrorCode, message: string, errors: FieldErrors, requestId: string, reason: ErrorReason | null = null, extra: Record<string, string> = {}): HttpResult {
  const status = STATUS[code];
  const hasDetails = Object.keys(errors).length > 0;
  const body = { error: code, reason, message, details: hasDetails ? errors : null, type: code, title: TITLE[code], status, errors, requestId, ...extra };
  const headers: Record<string, string> = code === 'unauthorized' ? { 'www-authenticate': 'Bearer' } : {};
  return ok(body, status, headers);
}

/** Maps any thrown value to a response; anything that is not a DomainError is a 500 with no internals (the pipeline logs it). */
export function resultForError(error: unknown, requestId: string): HttpResult {
  if (error instanceof RateLimited) {
    const result = errorResult(error.code, error.message, error.errors, requestId, error.reason);
    return { ...result, headers: { ...result.headers, 'retry-after': String(Math.max(1, Math.ceil(error.retryAfterSeconds))) } };
  }
  if (error instanceof MethodNotAllowed) {
    const result = errorResult(error.code, error.message, error.errors, requestId, error.reason);
    return { ...result, headers: { ...result.headers, allow: error.allowed.join(', ') } };
  }
  if (error instanceof SignedAndComplete) return errorResult(error.code, error.message, error.errors, requestId, error.reason, { downloadUrl: error.downloadUrl });
  if (error instanceof DomainError) return errorResult(error.code, error.message, error.errors, requestId, error.reason);
  return errorResult('internal_error', 'An internal error occurred; retry later or quote the request id', {}, requestId);
}
