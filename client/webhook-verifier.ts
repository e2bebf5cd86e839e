/**
 * Checking that a webhook delivery came from the service, on the receiver's side.
 *
 * A delivery carries `X-Service-Timestamp: <unix seconds>` and `X-Service-Signature-V2: t=<seconds>,v1=<hex>`, where
 * the hex is HMAC-SHA256 of `<seconds>.<raw body>` keyed with the webhook's secret. While a secret is being rotated
 * the header carries one `v1=` per secret. Older deliveries carry only `X-Service-Signature: sha256=<hex HMAC-SHA256
 * of the raw body>`; that form has no timestamp, so a captured delivery can be replayed: pass `requireTimestamp: true`
 * to refuse it once every delivery you receive is timestamped.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Node's `req.headers`, a Fetch `Headers`, or a plain object (names in any case). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined | null>;

export interface VerifyWebhookOptions {
  /** How far the delivery's timestamp may be from now, either way (default 300 s). */
  toleranceSeconds?: number;
  /** Refuse deliveries that carry only the body signature, which has no timestamp (default false). */
  requireTimestamp?: boolean;
  /** The receiver's clock (default `Date.now()`); a Date or milliseconds since the epoch. */
  now?: Date | number;
}

export type WebhookVerdict =
  | { valid: true; scheme: 'v2'; timestamp: number }
  | { valid: true; scheme: 'body'; timestamp: null }
  | { valid: false; reason: 'missing_signature' | 'malformed_signature' | 'timestamp_mismatch' | 'timestamp_outside_tolerance' | 'signature_mismatch' | 'timestamp_required' };

export const TIMESTAMP_HEADER = 'x-service-timestamp';
export const SIGNATURE_V2_HEADER = 'x-service-signature-v2';
export const BODY_SIGNATURE_HEADER = 'x-service-signature';
const DEFAULT_TOLERANCE_SECONDS = 300;
const HEX_SHA256 = /^[0-9a-f]{64}$/;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function' && typeof (headers as Headers).has === 'function') {
    return (headers as Headers).get(name) ?? undefined;
  }
  const values = Object.entries(headers as Record<string, unknown>).filter(([key]) => key.toLowerCase() === name).map(([, value]) => value);
  const flat = values.flatMap((value) => (Array.isArray(value) ? (value as unknown[]) : [value])).filter((value): value is string => typeof value === 'string');
  // A repeated signature header is not a signature: one delivery sends each header once.
  return flat.length === 1 ? flat[0] : flat.length === 0 ? undefined : '\u0000repeated';
}

const hmacHex = (secret: string, ...parts: (string | Uint8Array)[]) => {
  const mac = createHmac('sha256', secret);
  for (const part of parts) mac.update(part);
  return mac.digest('hex');
};

/** Constant-time equality of two hex digests of the same (public) length. */
function sameDigest(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether any given digest equals any expected one; every pair is compared, so the time says nothing about which. */
function anyMatch(expected: string[], given: string[]): boolean {
  let found = false;
  for (const e of expected) for (const g of given) found = sameDigest(e, g) || found;
  return found;
}

function parseV2(value: string): { t: number; v1: string[] } | null {
  let t: number | null = null;
  const v1: string[] = [];
  for (const part of value.split(',')) {
    const at = part.indexOf('=');
    if (at < 0) return null;
    const key = part.slice(0, at).trim();
    const item = part.slice(at + 1).trim();
    if (key === 't') {
      if (t !== null || !/^\d{1,12}$/.test(item)) return null;
      t = Number(item);
    } else if (key === 'v1') {
      if (!HEX_SHA256.test(item)) return null;
      v1.push(item);
    } // other schemes may appear later: skipped, never trusted
  }
  return t === null || v1.length === 0 ? null : { t, v1 };
}

/** Why a delivery is or is not authentic: `{ valid: true, scheme, timestamp }` or `{ valid: false, reason }`. */
export function checkWebhook(rawBody: string | Uint8Array, headers: WebhookHeaders, secret: string | readonly string[], options: VerifyWebhookOptions = {}): WebhookVerdict {
  const secrets = (typeof secret === 'string' ? [secret] : [...secret]).filter((s) => s !== '');
  if (secrets.length === 0) throw new TypeError('verifyWebhook needs the webhook secret (or the secrets while one is being rotated)');
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) throw new TypeError('verifyWebhook needs the raw body as received (a string or bytes), not parsed JSON');
  const v2 = header(headers, SIGNATURE_V2_HEADER);
  if (v2 !== undefined) {
    const parsed = parseV2(v2);
    if (!parsed) return { valid: false, reason: 'malformed_signature' };
    const stamp = header(headers, TIMESTAMP_HEADER);
    if (stamp !== undefined && stamp.trim() !== String(parsed.t)) return { valid: false, reason: 'timestamp_mismatch' };
    const now = options.now === undefined ? Date.now() : typeof options.now === 'number' ? options.now : options.now.getTime();
    const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
    if (Math.abs(Math.floor(now / 1000) - parsed.t) > tolerance) return { valid: false, reason: 'timestamp_outside_tolerance' };
    const expected = secrets.map((key) => hmacHex(key, `${String(parsed.t)}.`, rawBody));
    return anyMatch(expected, parsed.v1) ? { valid: true, scheme: 'v2', timestamp: parsed.t } : { valid: false, reason: 'signature_mismatch' };
  }
  const body = header(headers, BODY_SIGNATURE_HEADER);
  if (body === undefined) return { valid: false, reason: 'missing_signature' };
  if (options.requireTimestamp) return { valid: false, reason: 'timestamp_required' };
  const match = /^sha256=([0-9a-f]{64})$/.exec(body.trim());
  if (!match?.[1]) return { valid: false, reason: 'malformed_signature' };
  const expected = secrets.map((key) => hmacHex(key, rawBody));
  return anyMatch(expected, [match[1]]) ? { valid: true, scheme: 'body', timestamp: null } : { valid: false, reason: 'signature_mismatch' };
}

/**
 * True when the delivery is authentic: a `v1=` signature over `<timestamp>.<raw body>` by one of the secrets, with a
 * timestamp within `toleranceSeconds` of now; or, from a sender without timestamps, the body signature (unless
 * `requireTimestamp`). Pass the body exactly as received, before any JSON parsing.
 */
export function verifyWebhook(rawBody: string | Uint8Array, headers: WebhookHeaders, secret: string | readonly string[], options: VerifyWebhookOptions = {}): boolean {
  return checkWebhook(rawBody, headers, secret, options).valid;
}
