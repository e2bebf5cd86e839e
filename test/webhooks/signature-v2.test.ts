import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resendDelivery } from '#shared/webhooks/webhook-actions.ts';
import { signatureV2Header, verifySignature, verifySignatureV2 } from '#shared/webhooks/webhook-signature.ts';
import type { Delivery, Webhook } from '#shared/webhooks/webhooks.ts';
import { memoryDeps } from '#test/support/memory-deps.ts';
import { Receiver } from '#test/support/receiver.ts';

const body = '{"id":"evt-1","event":"envelope.completed","data":{"subject":"Lease – été"}}';
const hmac = (key: string, text: string) => createHmac('sha256', key).update(Buffer.from(text, 'utf8')).digest('hex');

describe('the timestamped signature', () => {
  it('is t=<seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">, one v1 per key', () => {
    expect(signatureV2Header(body, 1_800_000_000, ['whsec-a'])).toBe(`t=1800000000,v1=${hmac('whsec-a', `1800000000.${body}`)}`);
    expect(signatureV2Header(body, 1_800_000_000, ['whsec-a', 'whsec-b']))
      .toBe(`t=1800000000,v1=${hmac('whsec-a', `1800000000.${body}`)},v1=${hmac('whsec-b', `1800000000.${body}`)}`);
  });

  it('verifies within the tolerance, with either of two keys, and refuses the rest', () => {
    const header = signatureV2Header(body, 1_800_000_000, ['whsec-old', 'whsec-new']);
    const at = (nowSeconds: number) => ({ nowSeconds, toleranceSeconds: 300 });
    expect(verifySignatureV2(body, 'whsec-new', header, at(1_800_000_100))).toEqual({ ok: true, timestamp: 1_800_000_000 });
    expect(verifySignatureV2(body, 'whsec-old', header, at(1_800_000_000)).ok).toBe(true);
    expect(verifySignatureV2(body, 'whsec-other', header, at(1_800_000_000))).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifySignatureV2(`${body} `, 'whsec-new', header, at(1_800_000_000))).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifySignatureV2(body, 'whsec-new', header, at(1_800_000_301))).toEqual({ ok: false, reason: 'too_old' });
    expect(verifySignatureV2(body, 'whsec-new', header.replace('t=1800000000', 't=1800000001'), at(1_800_000_000))).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifySignatureV2(body, 'whsec-new', `t=1,${header}`, at(1_800_000_000))).toEqual({ ok: false, reason: 'malformed' });
    expect(verifySignatureV2(body, 'whsec-new', 't=1800000000', at(1_800_000_000))).toEqual({ ok: false, reason: 'malformed' });
    expect(verifySignatureV2(body, 'whsec-new', undefined, at(1_800_000_000))).toEqual({ ok: false, reason: 'missing' });
    expect(verifySignatureV2(body, 'whsec-new', [header, header], at(1_800_000_000))).toEqual({ ok: false, reason: 'missing' });
  });
});

describe('a delivery carries both signatures', () => {
  const receiver = new Receiver();
  let url: string;
  beforeAll(async () => { url = await receiver.start(); });
  afterAll(async () => { await receiver.stop(); });

  it('the spec header over the body and the timestamped one on the service clock; a replay past the tolerance is refused', async () => {
    const now = new Date('2026-03-01T12:00:00.000Z');
    const deps = await memoryDeps({ clock: { now: () => now } });
    const secret = 'whsec-0123456789abcdef';
    const webhook: Webhook = {
      id: deps.ids.next(), appId: deps.ids.next(), url, events: ['envelope.sent'], active: true, retrySchedule: 'B',
      secretSealed: await deps.secrets.seal(secret), createdAt: now.toISOString(),
    };
    await deps.webhooks.put(webhook);
    const delivery: Delivery = {
      id: deps.ids.next(), appId: webhook.appId, webhookId: webhook.id, eventId: deps.ids.next(), event: 'envelope.sent', envelopeId: deps.ids.next(), body,
      status: 'pending', attempts: 0, lastStatusCode: null, lastError: null, lastResponse: null, createdAt: now.toISOString(), lastAttemptAt: null, nextAttemptAt: null, deliveredAt: null,
    };
    await deps.webhooks.createDelivery(delivery);
    expect((await resendDelivery(deps, webhook.appId, webhook.id, delivery.id)).status).toBe('delivered');
    const got = receiver.received.at(-1);
    const seconds = now.getTime() / 1000;
    expect(got?.body).toBe(body);
    expect(verifySignature(got?.body ?? '', secret, got?.headers['x-service-signature'])).toBe(true);
    expect(got?.headers['x-service-timestamp']).toBe(String(seconds));
    expect(got?.headers['x-service-signature-v2']).toMatch(new RegExp(`^t=${String(seconds)},v1=[0-9a-f]{64}$`));
    const check = (nowSeconds: number) => verifySignatureV2(got?.body ?? '', secret, got?.headers['x-service-signature-v2'], { nowSeconds, toleranceSeconds: 300 });
    expect(check(seconds + 299).ok).toBe(true);
    expect(check(seconds + 301)).toEqual({ ok: false, reason: 'too_old' });
  });
});
