import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_LOG_DAYS } from '#shared/webhooks/event-log.ts';
import { listEvents, replayEvents } from '#shared/webhooks/catch-up-actions.ts';
import { retryAttempt } from '#shared/webhooks/webhook-actions.ts';
import { verifySignatureV2 } from '#shared/webhooks/webhook-signature.ts';
import type { Webhook } from '#shared/webhooks/webhooks.ts';
import { memoryDeps } from '#test/support/memory-deps.ts';
import { Receiver } from '#test/support/receiver.ts';
import { changeWithEvents, eventItem } from '#test/adapters/contract/event-log.ts';
import { rewrite } from '#test/adapters/contract/fixtures.ts';

const receiver = new Receiver();
let url: string;
beforeAll(async () => { url = await receiver.start(); });
afterAll(async () => { await receiver.stop(); });

const SECRET = 'whsec-catch-up-0123456789';

async function setup() {
  let now = new Date('2026-01-02T00:00:00.000Z');
  const deps = await memoryDeps({ clock: { now: () => now } });
  const appId = deps.ids.next();
  const webhook: Webhook = {
    id: deps.ids.next(), appId, url, events: ['envelope.created', 'envelope.voided'], active: true, retrySchedule: 'B',
    secretSealed: await deps.secrets.seal(SECRET), createdAt: now.toISOString(),
  };
  await deps.webhooks.put(webhook);
  const created = changeWithEvents(appId, 3); // envelope.created and two signer.viewed, at 00:00 and 00:00:01
  await deps.envelopes.commit(created);
  const voided = rewrite(created.after, { status: 'voided' }, [eventItem(created.after.id, 'envelope.voided', '2026-01-01T12:00:00.000Z')]);
  await deps.envelopes.commit(voided);
  await deps.envelopes.commit(changeWithEvents(deps.ids.next(), 2)); // another application's
  return { deps, appId, webhook, created, voided, advanceDays: (days: number) => { now = new Date(now.getTime() + days * 86_400_000); } };
}

/** Runs the retry workflow's attempts the port was asked to start (each one attempt: the receiver answers 200). */
async function runRetries(deps: Awaited<ReturnType<typeof setup>>['deps']) {
  const started = deps.sent.retries.splice(0);
  for (const start of started) expect(await retryAttempt(deps, start)).toMatchObject({ done: true });
  return started;
}

describe('catching up: the event list and replays', () => {
  it('lists the application\'s events oldest first, filtered, and nothing once past the 30-day window', async () => {
    const { deps, appId, created, voided, advanceDays } = await setup();
    const base = { type: null, envelopeId: null, since: null, until: null, after: null, limit: 100 };
    const all = await listEvents(deps, appId, base);
    expect(all.data.map((e) => e.event)).toEqual(['envelope.created', 'signer.viewed', 'signer.viewed', 'envelope.voided']);
    expect(all.data.map((e) => e.id)).toEqual([...created.outbox, ...voided.outbox].flatMap((o) => (o.kind === 'event' ? [o.id] : [])));
    expect(all.data.at(-1)?.envelope.status).toBe('voided');
    expect((await listEvents(deps, appId, { ...base, type: 'envelope.voided' })).data).toHaveLength(1);
    advanceDays(EVENT_LOG_DAYS - 0.5); // the window starts at the void's instant
    expect((await listEvents(deps, appId, base)).data.map((e) => e.event)).toEqual(['envelope.voided']);
    advanceDays(0.01);
    expect((await listEvents(deps, appId, base)).data).toEqual([]);
  });

  it('a replay delivers the same event ids and bodies again, the subscribed ones of the range, through the retry workflow', async () => {
    const { deps, appId, webhook, created, voided } = await setup();
    const replay = await replayEvents(deps, appId, `whk_${webhook.id}`, { since: '2026-01-01T00:00:00.000Z', until: null });
    expect(replay).toMatchObject({ webhookId: webhook.id, queued: 2, more: false });
    const before = receiver.received.length;
    const first = await runRetries(deps);
    const got = receiver.received.slice(before);
    const expected = [created.outbox.find((o) => o.kind === 'event')?.id, voided.outbox[0]?.id];
    expect(got.map((r) => r.json.id)).toEqual(expected);
    expect(got.map((r) => r.json.event)).toEqual(['envelope.created', 'envelope.voided']);
    for (const r of got) {
      expect(verifySignatureV2(r.body, SECRET, r.headers['x-service-signature-v2'], { nowSeconds: Date.parse('2026-01-02T00:00:00.000Z') / 1000 }).ok).toBe(true);
    }
    expect((await deps.webhooks.deliveries(appId, webhook.id, 'delivered', 10)).map((d) => d.eventId).sort()).toEqual([...expected].sort());

    const again = await replayEvents(deps, appId, webhook.id, { since: '2026-01-01T06:00:00.000Z', until: '2026-01-01T18:00:00.000Z' });
    expect(again.queued).toBe(1);
    const second = await runRetries(deps);
    expect(receiver.received.at(-1)?.json.id).toBe(voided.outbox[0]?.id);
    expect(receiver.received.at(-1)?.body).toBe(got[1]?.body);
    expect(second[0]?.deliveryId).not.toBe(first[1]?.deliveryId);
    await expect(replayEvents(deps, deps.ids.next(), webhook.id, { since: '2026-01-01T00:00:00.000Z', until: null })).rejects.toMatchObject({ code: 'not_found' });
    await expect(replayEvents(deps, appId, webhook.id, { since: '2026-01-01T00:00:00.000Z', until: '2026-01-01T00:00:00.000Z' })).rejects.toMatchObject({ code: 'validation_error' });
  });
});
