import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header every delivery carries (decision 24). */
export const SIGNATURE_HEADER = 'X-Service-Signature';
/** When the delivery was signed, in unix seconds; the same value as the `t=` of the timestamped signature. */
export const TIMESTAMP_HEADER = 'X-Service-Timestamp';
/** `t=<unix seconds>,v1=<hex>[,v1=<hex>]`: signs the timestamp with the body, so an old delivery cannot be replayed. */
export const SIGNATURE_V2_HEADER = 'X-Service-Signature-V2';
/** How old a timestamped delivery a receiver accepts by default. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** `sha256=<hex HMAC-SHA256 of the raw body>`: sign the exact bytes sent, never a re-serialised copy. */
export function signatureHeader(rawBody: string | Uint8Array, key: string): string {
  return `sha256=${createHmac('sha256', key).update(rawBody).digest('hex')}`;
}

/** The hex HMAC-SHA256 of `<timestamp>.<raw body>`. */
export function timestampedDigest(rawBody: string | Uint8Array, timestamp: number, key: string): string {
  return createHmac('sha256', key).update(`${String(timestamp)}.`).update(rawBody).digest('hex');
}

/** `t=<timestamp>,v1=<hex>` with one `v1=` per key: while a rotated secret overlaps the new one, both sign. */
export function signatureV2Header(rawBody: string | Uint8Array, timestamp: number, keys: readonly string[]): string {
  return [`t=${String(timestamp)}`, ...keys.map((key) => `v1=${timestampedDigest(rawBody, timestamp, key)}`)].join(',');
}

/**
 * The receiver's check, in constant time. A missing or repeated header is a mismatch.
 * Only the length can differ in time, and the format's length is public.
 */
export function verifySignature(rawBody: string | Uint8Array, key: string, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(signatureHeader(rawBody, key), 'utf8');
  const given = Buffer.from(header.trim(), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface TimestampedCheck {
  /** The receiver's time in unix seconds. */
  nowSeconds: number;
  toleranceSeconds?: number;
}

export type TimestampedVerdict = { ok: true; timestamp: number } | { ok: false; reason: 'missing' | 'malformed' | 'too_old' | 'mismatch' };

/**
 * The receiver's check of the timestamped header: one `t=`, at least one `v1=` equal (in constant time) to the digest
 * under `key`, and a timestamp within the tolerance either side of now (a clock a little ahead is not an attack).
 */
export function verifySignatureV2(
  rawBody: string | Uint8Array, key: string, header: string | string[] | undefined, check: TimestampedCheck,
): TimestampedVerdict {
  if (typeof header !== 'string') return { ok: false, reason: 'missing' };
  const pairs = header.split(',').map((part) => part.trim().split('='));
  const stamps = pairs.filter(([name]) => name === 't').map(([, value]) => value ?? '');
  const signatures = pairs.filter(([name]) => name === 'v1').map(([, value]) => value ?? '');
  if (stamps.length !== 1 || !/^\d{1,12}$/.test(stamps[0] ?? '') || signatures.length === 0) return { ok: false, reason: 'malformed' };
  const timestamp = Number(stamps[0]);
  const expected = Buffer.from(timestampedDigest(rawBody, timestamp, key), 'utf8');
  const matches = signatures.some((value) => {
    const given = Buffer.from(value, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) return { ok: false, reason: 'mismatch' };
  const tolerance = check.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(check.nowSeconds - timestamp) > tolerance) return { ok: false, reason: 'too_old' };
  return { ok: true, timestamp };
}
