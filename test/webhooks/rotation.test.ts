import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Conflict } from '#shared/kernel/errors.ts';
import { resendDelivery, rotateWebhookSecret } from '#shared/webhooks/webhook-actions.ts';
import { verifySignature, verifySignatureV2 } from '#shared/webhooks/webhook-signature.ts';
import type { Delivery, Webhook } from '#shared/webhooks/webhooks.ts';
import { memoryDeps } from '#test/support/memory-deps.ts';
import { Receiver } from '#test/support/receiver.ts';

const receiver = new Receiver();
let url: string;
beforeAll(async () => { url = await receiver.start(); });
afterAll(async () => { await receiver.stop(); });

/** A webhook with its own secret and one delivery to resend, on a clock the test sets. */
async function setup(secret: string | null) {
  let now = new Date('2026-03-01T12:00:00.000Z');
  const deps = await memoryDeps({ clock: { now: () => now } });
  const appId = deps.ids.next();
  const webhook: Webhook = {
    id: deps.ids.next(), appId, url, events: ['envelope.sent'], active: true, retrySchedule: 'B',
    secretSealed: secret ? await deps.secrets.seal(secret) : null, createdAt: now.toISOString(),
  };
  await deps.webhooks.put(webhook);
  await deps.applications.create({
    appId, name: 'rotation', clientId: `rot-${appId}`, secretHash: 'scrypt$x$y', secretSealed: await deps.secrets.seal('client-secret-0123456789'),
    plan: 'free', envelopesLimit: null, overageAllowed: true, suspended: false, createdAt: now.toISOString(),
  });
  const delivery: Delivery = {
    id: deps.ids.next(), appId, webhookId: webhook.id, eventId: deps.ids.next(), event: 'envelope.sent', envelopeId: deps.ids.next(), body: '{"id":"e"}',
    status: 'pending', attempts: 0, lastStatusCode: null, lastError: null, lastResponse: null, createdAt: now.toISOString(), lastAttemptAt: null, nextAttemptAt: null, deliveredAt: null,
  };
  await deps.webhooks.createDelivery(delivery);
  /** Resends the delivery and says which keys verify what the receiver got. */
  const deliver = async (keys: Record<string, string>) => {
    await resendDelivery(deps, appId, webhook.id, delivery.id);
    const got = receiver.received.at(-1);
    const nowSeconds = Math.floor(now.getTime() / 1000);
    return Object.fromEntries(Object.entries(keys).map(([name, key]) => [name, {
      v2: verifySignatureV2(got?.body ?? '', key, got?.headers['x-service-signature-v2'], { nowSeconds }).ok,
      v1: verifySignature(got?.body ?? '', key, got?.headers['x-service-signature']),
    }]));
  };
  return { deps, appId, webhook, deliver, advanceHours: (hours: number) => { now = new Date(now.getTime() + hours * 3_600_000); } };
}

describe('secret rotation', () => {
  it('both secrets sign during the overlap, the old one no longer after it; the body-only header carries the new one', async () => {
    const { deps, appId, webhook, deliver, advanceHours } = await setup('whsec-old-0123456789');
    const rotation = await rotateWebhookSecret(deps, appId, webhook.id, { secret: null, expireCurrentInHours: 2 });
    expect(rotation.secret).toMatch(/^whsec_[\w-]{43}$/);
    expect(rotation.previousSecretExpiresAt).toBe('2026-03-01T14:00:00.000Z');
    const keys = { old: 'whsec-old-0123456789', fresh: rotation.secret };
    expect(await deliver(keys)).toEqual({ old: { v2: true, v1: false }, fresh: { v2: true, v1: true } });
    expect(receiver.received.at(-1)?.headers['x-service-signature-v2']).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    advanceHours(1.99);
    expect((await deliver(keys)).old?.v2).toBe(true);
    advanceHours(0.01);
    expect(await deliver(keys)).toEqual({ old: { v2: false, v1: false }, fresh: { v2: true, v1: true } });
    expect(receiver.received.at(-1)?.headers['x-service-signature-v2']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  });

  it('a webhook signed with the client secret rotates to its own secret, the client secret overlapping; 0 hours ends it at once', async () => {
    const { deps, appId, webhook, deliver } = await setup(null);
    const given = 'whsec-given-0123456789';
    await rotateWebhookSecret(deps, appId, `whk_${webhook.id}`, { secret: given, expireCurrentInHours: 24 });
    expect(await deliver({ client: 'client-secret-0123456789', given })).toEqual({ client: { v2: true, v1: false }, given: { v2: true, v1: true } });
    const next = await rotateWebhookSecret(deps, appId, webhook.id, { secret: null, expireCurrentInHours: 0 });
    expect(next.previousSecretExpiresAt).toBeNull();
    expect(await deliver({ client: 'client-secret-0123456789', given, next: next.secret }))
      .toEqual({ client: { v2: false, v1: false }, given: { v2: false, v1: false }, next: { v2: true, v1: true } });
    const stored = JSON.stringify(await deps.webhooks.get(appId, webhook.id));
    expect(stored).not.toContain(next.secret);
    expect(stored).not.toContain(given);
  });

  it('of two rotations at once, one is refused: every secret handed out verifies', async () => {
    const { deps, appId, webhook, deliver } = await setup('whsec-old-0123456789');
    const both = await Promise.allSettled([1, 2].map(() => rotateWebhookSecret(deps, appId, webhook.id, { secret: null, expireCurrentInHours: 1 })));
    const won = both.flatMap((r) => (r.status === 'fulfilled' ? [r.value.secret] : []));
    expect(won).toHaveLength(1);
    expect(both.find((r) => r.status === 'rejected')?.reason).toBeInstanceOf(Conflict);
    expect((await deliver({ won: won[0] ?? '' })).won?.v2).toBe(true);
    await expect(rotateWebhookSecret(deps, deps.ids.next(), webhook.id, { secret: null, expireCurrentInHours: 1 })).rejects.toMatchObject({ code: 'not_found' });
  });
});
