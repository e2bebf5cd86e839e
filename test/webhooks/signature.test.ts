import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SIGNATURE_HEADER, signatureHeader, verifySignature } from '#shared/webhooks/webhook-signature.ts';

const body = '{"id":"evt-1","event":"envelope.completed","data":{"subject":"Lease – été"}}';

describe('webhook signature', () => {
  it('is sha256= plus the hex HMAC-SHA256 of the raw body, keyed by the secret', () => {
    const expected = createHmac('sha256', 'whsec-1').update(Buffer.from(body, 'utf8')).digest('hex');
    expect(signatureHeader(body, 'whsec-1')).toBe(`sha256=${expected}`);
    expect(signatureHeader(Buffer.from(body, 'utf8'), 'whsec-1')).toBe(`sha256=${expected}`);
    expect(SIGNATURE_HEADER).toBe('X-Service-Signature');
  });

  it('verifies its own header and refuses another key, another body, a bare digest, or a missing or repeated header', () => {
    const header = signatureHeader(body, 'whsec-1');
    expect(verifySignature(body, 'whsec-1', header)).toBe(true);
    expect(verifySignature(new TextEncoder().encode(body), 'whsec-1', header)).toBe(true);
    expect(verifySignature(body, 'whsec-2', header)).toBe(false);
    expect(verifySignature(`${body} `, 'whsec-1', header)).toBe(false);
    expect(verifySignature(body, 'whsec-1', header.slice('sha256='.length))).toBe(false);
    expect(verifySignature(body, 'whsec-1', `${header}00`)).toBe(false);
    expect(verifySignature(body, 'whsec-1', undefined)).toBe(false);
    expect(verifySignature(body, 'whsec-1', [header, header])).toBe(false);
  });
});
