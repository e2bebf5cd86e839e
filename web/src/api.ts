/** Calls to the signer-facing API on the same origin (the signing host proxies /v1/signing and /v1/download). */
import { ApiError } from './api-error.ts';
import type { ErrorReason } from './api-types.ts';

export { ApiError, asApiError } from './api-error.ts';

interface ErrorBody { error?: unknown; reason?: unknown; message?: unknown; errors?: unknown; downloadUrl?: unknown }

/** The error body as the API documents it (ErrorResponse); the reason is a code from ERROR_REASONS or null. */
function errorOf(response: Response, body: unknown): ApiError {
  const b = (typeof body === 'object' && body !== null ? body : {}) as ErrorBody;
  const retry = Number(response.headers.get('retry-after'));
  return new ApiError({
    status: response.status,
    code: typeof b.error === 'string' ? b.error : `http_${String(response.status)}`,
    reason: typeof b.reason === 'string' ? (b.reason as ErrorReason) : null,
    message: typeof b.message === 'string' ? b.message : `HTTP ${String(response.status)}`,
    errors: b.errors && typeof b.errors === 'object' ? (b.errors as Record<string, string[]>) : {},
    retryAfterSeconds: Number.isFinite(retry) && retry > 0 ? Math.ceil(retry) : null,
    downloadUrl: typeof b.downloadUrl === 'string' && b.downloadUrl.startsWith(`${window.location.origin}/download/`) ? b.downloadUrl : null,
  });
}

/**
 * Keys for one kind of POST (decision 32): the same request sent again, after an answer was lost, reuses its key
 * and is answered from the service's record instead of running twice; a changed request gets a new key.
 * Built from getRandomValues, which, unlike randomUUID, also works on a plain-HTTP local host opened from a phone.
 */
export function idempotencyKeys(): (json: unknown) => string {
  let last: { body: string; key: string } | null = null;
  return (json) => {
    const body = JSON.stringify(json ?? null);
    if (last?.body !== body) {
      const bytes = crypto.getRandomValues(new Uint8Array(16));
      last = { body, key: Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('') };
    }
    return last.key;
  };
}

const noAnswer = () => new ApiError({ status: 0, code: 'network', message: 'No answer from the service' });

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface CallOptions {
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as it is, a PDF (the editor's document upload). */
  pdf?: Blob | undefined;
  /** A bearer token (the editor's authoring session); the signing page's token is in the path instead. */
  bearer?: string | undefined;
  idempotencyKey?: string | undefined;
}

/** One call to the API on this origin: the answer's JSON, or an ApiError (status 0 when there was no answer). */
export async function request<T>(method: Method, path: string, options: CallOptions = {}): Promise<T> {
  const { json, pdf, bearer, idempotencyKey } = options;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: {
        accept: 'application/json',
        ...(pdf ? { 'content-type': 'application/pdf' } : json === undefined ? {} : { 'content-type': 'application/json' }),
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      },
      body: pdf ?? (json === undefined ? null : JSON.stringify(json)),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    throw noAnswer();
  }
  const text = await response.text().catch(() => '');
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (response.ok) return body as T;
  throw errorOf(response, body);
}

export const api = <T>(method: 'GET' | 'POST' | 'DELETE', path: string, json?: unknown, idempotencyKey?: string): Promise<T> =>
  request<T>(method, path, { json, idempotencyKey });

/** Fetches a binary resource (the PDF; the route may redirect to a presigned URL, which fetch follows); errors are ApiErrors like the JSON calls. */
export async function fetchBytes(path: string, bearer?: string): Promise<ArrayBuffer> {
  let response: Response;
  try {
    response = await fetch(path, { ...(bearer ? { headers: { authorization: `Bearer ${bearer}` } } : {}), credentials: 'omit', cache: 'no-store' });
  } catch {
    throw noAnswer();
  }
  if (!response.ok) throw errorOf(response, await response.json().catch(() => null));
  return response.arrayBuffer();
}

export const signingPath = (token: string, rest = '') => `/v1/signing/${encodeURIComponent(token)}${rest}`;
export const downloadPath = (token: string, rest = '') => `/v1/download/${encodeURIComponent(token)}${rest}`;
