import type { Field, PageGeometry } from '../../shared/domain/model.ts';
/** Calls to the signer-facing API on the same origin (the signing host proxies /v1/signing and /v1/download). */

export class ApiError extends Error {
  constructor(
    readonly status: number, // 0 when the request did not get an answer
    readonly code: string,
    message: string,
    readonly errors: Record<string, string[]> = {},
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

interface ErrorBody { error?: unknown; message?: unknown; errors?: unknown }

/**
 * Keys for one kind of POST (DECISIONS 24): the same request sent again, after an answer was lost, reuses its key
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

export async function api<T>(method: 'GET' | 'POST', path: string, json?: unknown, idempotencyKey?: string): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: {
        accept: 'application/json',
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      },
      body: json === undefined ? null : JSON.stringify(json),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, 'network', 'The signing service could not be reached. Check your connection and try again.');
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (response.ok) return body as T;
  const b = (body ?? {}) as ErrorBody;
  const retry = Number(response.headers.get('retry-after'));
  throw new ApiError(
    response.status,
    typeof b.error === 'string' ? b.error : `http_${String(response.status)}`,
    typeof b.message === 'string' ? b.message : `The service answered ${String(response.status)}.`,
    b.errors && typeof b.errors === 'object' ? (b.errors as Record<string, string[]>) : {},
    Number.isFinite(retry) && retry > 0 ? Math.ceil(retry) : null,
  );
}

/** Fetches a binary resource (the PDF); errors are ApiErrors like the JSON calls. */
export async function fetchBytes(path: string): Promise<ArrayBuffer> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: 'omit', cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'network', 'The document could not be downloaded. Check your connection and try again.');
  }
  if (!response.ok) {
    const b = (await response.json().catch(() => ({}))) as ErrorBody;
    throw new ApiError(response.status, typeof b.error === 'string' ? b.error : 'error', typeof b.message === 'string' ? b.message : 'The document could not be loaded.');
  }
  return response.arrayBuffer();
}

/** Why a link cannot be used; each has its own screen. */
export type LinkProblem =
  | 'expired' | 'voided' | 'signed' | 'declined' | 'replaced' | 'not_yet' | 'closed' | 'invalid' | 'network' | 'unavailable';

/**
 * Tells the link problems apart. The status says the kind (401 invalid, expired or voided; 410 used; 409 already
 * done); the API's message says which one (DECISIONS 12), and is shown on the screen as well.
 */
export function linkProblem(error: ApiError): LinkProblem {
  const message = error.message.toLowerCase();
  if (error.status === 0) return 'network';
  if (error.status === 410 || (error.status === 409 && message.includes('already'))) return message.includes('declined') ? 'declined' : 'signed';
  if (error.status === 401) {
    if (message.includes('voided')) return 'voided';
    if (message.includes('expired')) return 'expired';
    if (message.includes('replaced')) return 'replaced';
    if (message.includes('not valid yet')) return 'not_yet';
    if (/envelope is (declined|completed)/.test(message)) return 'closed';
    return 'invalid';
  }
  return 'unavailable';
}

/** The signing context (spec 2.7 and the additions of signingContextView): a field as placed, without whose it is. */
export type SigningField = Omit<Field, 'documentId' | 'signerId'>;

export type { PageGeometry };

export interface SigningContext {
  envelopeId: string;
  signerId: string;
  signerName: string;
  signerEmail: string;
  fields: SigningField[];
  requiresOtpVerification: boolean;
  otpVerified: boolean;
  otpChannel: 'email' | 'sms' | null;
  consentGiven: boolean;
  consentDisclosure: { version: string; text: string };
  subject: string | null;
  message: string | null;
  expiresAt: string | null;
  signerStatus: string;
  document: { id: string; pageCount: number; pages: PageGeometry[] } | null;
}

export interface OtpRequestAnswer {
  maskedEmail: string;
  channel: 'email' | 'sms';
  maskedPhone: string | null;
  expiresInSeconds: number;
}

export interface SignAnswer { signed: boolean; signedAt: string | null; envelopeStatus: string }

export interface FieldSubmission { fieldId: string; signatureImageBase64?: string; textValue?: string }

export interface DownloadStatus {
  envelopeId: string;
  available: boolean;
  subject?: string | null;
  completedAt?: string | null;
  sha256?: string;
  pageCount?: number;
  sizeBytes?: number;
  retentionUntil?: string | null;
}

export const signingPath = (token: string, rest = '') => `/v1/signing/${encodeURIComponent(token)}${rest}`;
export const downloadPath = (token: string, rest = '') => `/v1/download/${encodeURIComponent(token)}${rest}`;
