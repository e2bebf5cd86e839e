import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header every delivery carries (decision 24). */
export const SIGNATURE_HEADER = 'X-Service-Signature';

/** `sha256=<hex HMAC-SHA256 of the raw body>`: sign the exact bytes sent, never a re-serialised copy. */
export function signatureHeader(rawBody: string | Uint8Array, key: string): string {
  return `sha256=${createHmac('sha256', key).update(rawBody).digest('hex')}`;
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
