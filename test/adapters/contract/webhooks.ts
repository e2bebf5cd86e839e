import { randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import type { Delivery, Webhook } from '#shared/webhooks/webhooks.ts';
import type { WebhookRepository } from '#shared/ports/repositories.ts';
import { useBuilt, type Builder } from './fixtures.ts';

const webhook = (appId: string, over: Partial<Webhook> = {}): Webhook => ({
  id: uuidv7(), appId, url: 'https://hooks.example.com/esign', events: ['envelope.sent'], active: true, retrySchedule: 'B', secretSealed: null,
  createdAt: '2026-01-01T00:00:00.000Z', ...over,
});

const delivery = (hook: Webhook, over: Partial<Delivery> = {}): Delivery => ({
  id: uuidv7(), appId: hook.appId, webhookId: hook.id, eventId: randomUUID(), event: 'envelope.sent', envelopeId: randomUUID(), body: '{"id":"e"}',
  status: 'pending', attempts: 0, lastStatusCode: null, lastError: null, lastResponse: null, createdAt: '2026-01-01T00:00:00.000Z',
  lastAttemptAt: null, nextAttemptAt: null, deliveredAt: null, ...over,
});

/** WebhookRepository: subscriptions per application; deliveries created once, newest first, filtered by status. */
export function describeWebhookRepository(name: string, builder: Builder<WebhookRepository>): void {
  describe(`WebhookRepository contract: ${name}`, () => {
    const hooks = useBuilt(builder);

    it("stores, replaces, lists and deletes an application's webhooks, never another's", async () => {
      const appId = randomUUID();
      const [a, b] = [webhook(appId), webhook(appId, { secretSealed: 'sealed', retrySchedule: 'A' })];
      await hooks().put(a);
      await hooks().put(b);
      await hooks().put(webhook(randomUUID()));
      expect(await hooks().list(appId)).toEqual([a, b].sort((x, y) => (x.id < y.id ? -1 : 1)));
      expect(await hooks().get(appId, a.id)).toEqual(a);
      expect(await hooks().get(randomUUID(), a.id)).toBeUndefined();
      const paused = { ...a, active: false, events: ['envelope.completed' as const, 'signer.signed' as const] };
      await hooks().put(paused);
      expect(await hooks().get(appId, a.id)).toEqual(paused);
      expect(await hooks().delete(randomUUID(), a.id)).toBe(false);
      expect(await hooks().delete(appId, a.id)).toBe(true);
      expect(await hooks().delete(appId, a.id)).toBe(false);
      expect(await hooks().list(appId)).toEqual([b]);
    });

    it('sums up the events its active webhooks subscribe to, advancing the version with every put and delete', async () => {
      const appId = randomUUID();
      expect(await hooks().subscriptions(appId)).toEqual({ version: 0, events: [] });
      const a = webhook(appId, { events: ['envelope.sent', 'signer.signed'] });
      await hooks().put(a);
      const first = await hooks().subscriptions(appId);
      expect(first.events).toEqual(['envelope.sent', 'signer.signed']);
      await hooks().put(webhook(appId, { events: ['envelope.completed'], active: false }));
      const second = await hooks().subscriptions(appId);
      expect(second.events).toEqual(['envelope.sent', 'signer.signed']);
      expect(second.version).toBeGreaterThan(first.version);
      await hooks().delete(appId, a.id);
      const third = await hooks().subscriptions(appId);
      expect(third).toEqual({ version: third.version, events: [] });
      expect(third.version).toBeGreaterThan(second.version);
      expect((await hooks().subscriptions(randomUUID())).events).toEqual([]);
    });

    it('keeps every subscription of webhooks created at once', async () => {
      const appId = randomUUID();
      const events = ['envelope.created', 'envelope.sent', 'envelope.completed', 'signer.signed', 'signer.viewed'] as const;
      await Promise.all(events.map((event) => hooks().put(webhook(appId, { events: [event] }))));
      expect((await hooks().subscriptions(appId)).events).toEqual([...events].sort());
    });

    it('replaces a secret only while the stored one is the one the rotation read (null included), and never a deleted webhook', async () => {
      const bare = webhook(randomUUID());
      await hooks().put(bare);
      const first = { ...bare, secretSealed: 'sealed-1', rotatedFrom: { sealed: null, until: '2026-01-02T00:00:00.000Z' } };
      expect(await hooks().replaceSecret(first, 'sealed-0')).toBe(false);
      expect(await hooks().replaceSecret(first, null)).toBe(true);
      expect(await hooks().get(bare.appId, bare.id)).toEqual(first);
      const second = { ...first, secretSealed: 'sealed-2', rotatedFrom: { sealed: 'sealed-1', until: '2026-01-03T00:00:00.000Z' } };
      const lost = { ...first, secretSealed: 'sealed-3', rotatedFrom: null };
      expect(await hooks().replaceSecret(second, 'sealed-1')).toBe(true);
      expect(await hooks().replaceSecret(lost, 'sealed-1')).toBe(false);
      expect(await hooks().replaceSecret(lost, null)).toBe(false);
      expect(await hooks().get(bare.appId, bare.id)).toEqual(second);
      const gone = webhook(randomUUID());
      expect(await hooks().replaceSecret({ ...gone, secretSealed: 'sealed-1' }, null)).toBe(false);
      expect(await hooks().get(gone.appId, gone.id)).toBeUndefined();
    });

    it('creates a delivery once (a redelivered event finds it), then saves its attempts', async () => {
      const hook = webhook(randomUUID());
      const first = delivery(hook);
      expect(await hooks().createDelivery(first)).toBe(true);
      expect(await hooks().createDelivery({ ...first, body: '{"other":true}' })).toBe(false);
      expect(await hooks().getDelivery(hook.appId, hook.id, first.id)).toEqual(first);
      const failed = { ...first, attempts: 1, lastStatusCode: 500, lastError: 'HTTP 500', nextAttemptAt: '2026-01-01T00:01:00.000Z' };
      await hooks().saveDelivery(failed);
      expect(await hooks().getDelivery(hook.appId, hook.id, first.id)).toEqual(failed);
      expect(await hooks().getDelivery(randomUUID(), hook.id, first.id)).toBeUndefined();
      expect(await hooks().getDelivery(hook.appId, randomUUID(), first.id)).toBeUndefined();
    });

    it("lists a webhook's deliveries newest first, by status, up to a limit", async () => {
      const hook = webhook(randomUUID());
      const statuses = ['delivered', 'failed', 'pending', 'delivered', 'delivered'] as const;
      const made: Delivery[] = [];
      for (const status of statuses) {
        const d = delivery(hook, { status });
        made.push(d);
        await hooks().createDelivery(d);
        await new Promise((resolve) => setTimeout(resolve, 2)); // distinct milliseconds: distinct, ordered v7 ids
      }
      await hooks().createDelivery(delivery(webhook(hook.appId)));
      const newestFirst = [...made].reverse();
      expect(await hooks().deliveries(hook.appId, hook.id, null, 10)).toEqual(newestFirst);
      expect(await hooks().deliveries(hook.appId, hook.id, null, 2)).toEqual(newestFirst.slice(0, 2));
      expect(await hooks().deliveries(hook.appId, hook.id, 'delivered', 2)).toEqual(newestFirst.filter((d) => d.status === 'delivered').slice(0, 2));
      expect(await hooks().deliveries(hook.appId, hook.id, 'failed', 10)).toEqual([made[1]]);
      expect(await hooks().deliveries(randomUUID(), hook.id, null, 10)).toEqual([]);
    });
  });
}
