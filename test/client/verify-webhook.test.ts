import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkWebhook, verifyWebhook } from '../../client/index.ts';
import { signatureHeader } from '#shared/webhooks/webhook-signature.ts';

const SECRET = 'whsec-current-0123456789';
const OLD = 'whsec-previous-9876543210';
const BODY = '{"id":"evt_1","event":"envelope.completed","data":{"name":"Zoë"}}';
const NOW = 1_790_000_000; // seconds
const at = (seconds: number) => seconds * 1000;
const v1 = (secret: string, t: number, body: string | Uint8Array = BODY) => createHmac('sha256', secret).update(`${String(t)}.`).update(body).digest('hex');
const signed = (t: number, ...secrets: string[]) => ({
  'X-Service-Timestamp': String(t),
  'X-Service-Signature-V2': [`t=${String(t)}`, ...secrets.map((s) => `v1=${v1(s, t)}`)].join(','),
  'X-Service-Signature': signatureHeader(BODY, secrets[0] ?? SECRET),
});

describe('verifyWebhook: the timestamped signature', () => {
  it('accepts a delivery signed over "<t>.<raw body>" within the tolerance, as a string, a Buffer or a Uint8Array', () => {
    expect(checkWebhook(BODY, signed(NOW, SECRET), SECRET, { now: at(NOW) })).toEqual({ valid: true, scheme: 'v2', timestamp: NOW });
    expect(verifyWebhook(Buffer.from(BODY), signed(NOW - 299, SECRET), SECRET, { now: at(NOW) })).toBe(true);
    expect(verifyWebhook(new TextEncoder().encode(BODY), signed(NOW + 299, SECRET), SECRET, { now: at(NOW) })).toBe(true);
  });

  it('refuses a changed body, another secret, or a signature over the body alone in the v1 slot', () => {
    expect(checkWebhook(`${BODY} `, signed(NOW, SECRET), SECRET, { now: at(NOW) })).toEqual({ valid: false, reason: 'signature_mismatch' });
    expect(verifyWebhook(BODY, signed(NOW, SECRET), 'whsec-someone-else-000', { now: at(NOW) })).toBe(false);
    const bodyOnly = createHmac('sha256', SECRET).update(BODY).digest('hex');
    expect(verifyWebhook(BODY, { 'x-service-signature-v2': `t=${String(NOW)},v1=${bodyOnly}` }, SECRET, { now: at(NOW) })).toBe(false);
  });

  it('refuses a timestamp outside the tolerance either way, and honours a custom tolerance', () => {
    expect(checkWebhook(BODY, signed(NOW - 301, SECRET), SECRET, { now: at(NOW) })).toEqual({ valid: false, reason: 'timestamp_outside_tolerance' });
    expect(verifyWebhook(BODY, signed(NOW + 301, SECRET), SECRET, { now: at(NOW) })).toBe(false);
    expect(verifyWebhook(BODY, signed(NOW - 60, SECRET), SECRET, { now: at(NOW), toleranceSeconds: 30 })).toBe(false);
    expect(verifyWebhook(BODY, signed(NOW - 3600, SECRET), SECRET, { now: new Date(at(NOW)), toleranceSeconds: 7200 })).toBe(true);
  });

  it('refuses a signature whose t disagrees with X-Service-Timestamp (a replay with a fresh header)', () => {
    const headers = { ...signed(NOW - 1000, SECRET), 'X-Service-Timestamp': String(NOW) };
    expect(checkWebhook(BODY, headers, SECRET, { now: at(NOW) })).toEqual({ valid: false, reason: 'timestamp_mismatch' });
  });

  it('during a rotation accepts either secret among several v1 values, and takes several secrets of its own', () => {
    const both = signed(NOW, SECRET, OLD);
    expect(verifyWebhook(BODY, both, SECRET, { now: at(NOW) })).toBe(true);
    expect(verifyWebhook(BODY, both, OLD, { now: at(NOW) })).toBe(true);
    expect(verifyWebhook(BODY, signed(NOW, OLD), [SECRET, OLD], { now: at(NOW) })).toBe(true);
    expect(verifyWebhook(BODY, signed(NOW, OLD), [SECRET, 'whsec-unrelated-11111'], { now: at(NOW) })).toBe(false);
  });

  it('refuses malformed, repeated or missing headers', () => {
    const t = String(NOW);
    for (const value of [`v1=${v1(SECRET, NOW)}`, `t=${t}`, `t=${t},v1=nothex`, `t=soon,v1=${v1(SECRET, NOW)}`, `t=${t},t=${t},v1=${v1(SECRET, NOW)}`, 'garbage']) {
      expect(checkWebhook(BODY, { 'x-service-signature-v2': value }, SECRET, { now: at(NOW) }), value).toEqual({ valid: false, reason: 'malformed_signature' });
    }
    const good = signed(NOW, SECRET)['X-Service-Signature-V2'];
    expect(verifyWebhook(BODY, { 'x-service-signature-v2': [good, good] }, SECRET, { now: at(NOW) })).toBe(false);
    expect(checkWebhook(BODY, {}, SECRET)).toEqual({ valid: false, reason: 'missing_signature' });
  });

  it('reads a Fetch Headers object and header names in any case; ignores schemes it does not know', () => {
    const headers = new Headers(signed(NOW, SECRET));
    expect(verifyWebhook(BODY, headers, SECRET, { now: at(NOW) })).toBe(true);
    const withV0 = `t=${String(NOW)},v0=${'0'.repeat(64)},v1=${v1(SECRET, NOW)}`;
    expect(verifyWebhook(BODY, { 'X-SERVICE-SIGNATURE-V2': withV0 }, SECRET, { now: at(NOW) })).toBe(true);
  });

  it('refuses to run without a secret or with a parsed body', () => {
    expect(() => verifyWebhook(BODY, signed(NOW, SECRET), '')).toThrow(/secret/);
    expect(() => verifyWebhook(JSON.parse(BODY) as string, signed(NOW, SECRET), SECRET)).toThrow(/raw body/);
  });
});

describe('verifyWebhook: the body-only signature', () => {
  const headers = { 'x-service-signature': signatureHeader(BODY, SECRET) };
  it('accepts the service\'s body signature when no timestamped one is present', () => {
    expect(checkWebhook(BODY, headers, SECRET)).toEqual({ valid: true, scheme: 'body', timestamp: null });
    expect(verifyWebhook(BODY, headers, [OLD, SECRET])).toBe(true);
    expect(verifyWebhook(BODY, { 'x-service-signature': signatureHeader(BODY, OLD) }, SECRET)).toBe(false);
    expect(verifyWebhook(BODY, { 'x-service-signature': signatureHeader(BODY, SECRET).replace('sha256=', '') }, SECRET)).toBe(false);
  });

  it('is refused with requireTimestamp, and never used when a timestamped header fails', () => {
    expect(checkWebhook(BODY, headers, SECRET, { requireTimestamp: true })).toEqual({ valid: false, reason: 'timestamp_required' });
    const stale = signed(NOW - 10_000, SECRET); // carries a valid body signature too
    expect(checkWebhook(BODY, stale, SECRET, { now: at(NOW) })).toEqual({ valid: false, reason: 'timestamp_outside_tolerance' });
  });
});
