import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature, verifySignatureV2 } from '#shared/webhooks/webhook-signature.ts';
import { call, expectErrorShape, newApp } from '#test/support/api.ts';
import { readyDraft } from '#test/support/envelopes.ts';
import { Receiver } from '#test/support/receiver.ts';
import { settle } from '#test/support/signing.ts';

interface EventBody { id: string; event: string; envelopeId: string; createdAt: string; data: { tenantId: string; status: string } }
interface EventPage { data: EventBody[]; nextCursor: string; hasMore: boolean }

let app: Awaited<ReturnType<typeof newApp>>;
const receiver = new Receiver();
let hookId: string;
const SECRET = 'whsec-catch-up-e2e-0123456789';

beforeAll(async () => {
  app = await newApp('catch-up');
  const hook = await call<{ id: string }>('POST', '/v1/webhooks', { token: app.token, json: { url: await receiver.start(), events: ['envelope.created', 'envelope.voided'], secret: SECRET } });
  hookId = hook.body.id;
});
afterAll(async () => { await receiver.stop(); });

/** Follows the cursor chain from `query` until `count` events came back (an event is listed a few seconds after its change). */
async function eventsUntil(query: string, count: number, limit = 100): Promise<{ events: EventBody[]; pages: number }> {
  const events: EventBody[] = [];
  let after = '';
  let pages = 0;
  const deadline = Date.now() + 30_000;
  while (events.length < count && Date.now() < deadline) {
    const res = await call<EventPage>('GET', `/v1/events?limit=${String(limit)}${query}${after ? `&after=${after}` : ''}`, { token: app.token });
    expect(res.status).toBe(200);
    events.push(...res.body.data);
    after = res.body.nextCursor;
    pages++;
    if (!res.body.hasMore && events.length < count) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { events, pages };
}

describe('webhooks you can trust and catch up on, over HTTP', () => {
  it('signs each delivery twice: the body-only header and the timestamped one', async () => {
    const draft = await readyDraft(app.token, 'catch-up');
    await settle();
    const got = receiver.received.find((r) => r.json.envelopeId === draft.id);
    expect(verifySignature(got?.body ?? '', SECRET, got?.headers['x-service-signature'])).toBe(true);
    const stamp = Number(got?.headers['x-service-timestamp']);
    expect(got?.headers['x-service-signature-v2']).toBe(`t=${String(stamp)},${String(got?.headers['x-service-signature-v2']).split(',')[1] ?? ''}`);
    expect(verifySignatureV2(got?.body ?? '', SECRET, got?.headers['x-service-signature-v2'], { nowSeconds: stamp + 10 }).ok).toBe(true);
    expect(verifySignatureV2(got?.body ?? '', SECRET, got?.headers['x-service-signature-v2'], { nowSeconds: stamp + 301 })).toEqual({ ok: false, reason: 'too_old' });
  });

  it('lists the application\'s events oldest first, filtered and paged by cursor; another application sees none of them', async () => {
    const drafts = [await readyDraft(app.token, 'catch-up'), await readyDraft(app.token, 'catch-up-2')];
    await call('POST', `/v1/envelopes/${drafts[0]?.id ?? ''}/void`, { token: app.token, json: { reason: 'x' } });
    await settle();
    const { events } = await eventsUntil(`&envelopeId=env_${drafts[0]?.id ?? ''}`, 2);
    expect(events.map((e) => e.event)).toEqual(['envelope.created', 'envelope.voided']);
    expect(events[1]?.data).toMatchObject({ tenantId: 'catch-up', status: 'voided' });
    const voided = await call<EventPage>('GET', '/v1/events?type=envelope.voided', { token: app.token });
    expect(voided.body.data.map((e) => e.envelopeId)).toEqual([drafts[0]?.id]);
    const paged = await eventsUntil('', 4, 1);
    expect(paged.pages).toBeGreaterThanOrEqual(4);
    expect(new Set(paged.events.map((e) => e.id)).size).toBe(paged.events.length);
    expect(paged.events.map((e) => e.createdAt)).toEqual(paged.events.map((e) => e.createdAt).sort());
    const other = await newApp('catch-up-other');
    expect((await call<EventPage>('GET', '/v1/events', { token: other.token })).body).toMatchObject({ data: [], hasMore: false });
    expect((await call<EventPage>('GET', `/v1/events?envelopeId=${drafts[0]?.id ?? ''}`, { token: other.token })).body.data).toEqual([]);
    for (const bad of ['after=not-a-cursor', 'type=envelope.exploded', 'since=yesterday', 'limit=101', 'envelopeId=42']) {
      const res = await call('GET', `/v1/events?${bad}`, { token: app.token });
      expect(res.status, bad).toBe(400);
      expectErrorShape(res.body, 'validation_error', 400);
    }
    expect((await call('GET', '/v1/events')).status).toBe(401);
  });

  it('replays a time range to one webhook: the same event ids again, 202', async () => {
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const { events } = await eventsUntil('', 4); // the drafts of the tests above and one void
    const before = receiver.received.length;
    const replay = await call<{ queued: number; more: boolean }>('POST', `/v1/webhooks/${hookId}/replay`, { token: app.token, json: { since } });
    expect(replay.status).toBe(202);
    expect(replay.body.more).toBe(false);
    await settle();
    const again = receiver.received.slice(before).map((r) => r.json.id);
    const subscribed = events.filter((e) => e.event === 'envelope.created' || e.event === 'envelope.voided').map((e) => e.id);
    expect(replay.body.queued).toBe(subscribed.length);
    expect(again.sort()).toEqual([...subscribed].sort());
    const other = await newApp('catch-up-replay-other');
    expect((await call('POST', `/v1/webhooks/${hookId}/replay`, { token: other.token, json: { since } })).status).toBe(404);
    expect((await call('POST', `/v1/webhooks/${hookId}/replay`, { token: app.token, json: { since, until: since } })).status).toBe(400);
    expect((await call('POST', `/v1/webhooks/${hookId}/replay`, { token: app.token, json: {} })).status).toBe(400);
  });

  it('rotates the secret: the new one returned once, both signing meanwhile; refuses a bad overlap and another application', async () => {
    const rotated = await call<{ id: string; secret: string; previousSecretExpiresAt: string | null; signedWith: string }>('POST', `/v1/webhooks/${hookId}/rotate-secret`, { token: app.token, json: {} });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ id: hookId, signedWith: 'secret', secret: expect.stringMatching(/^whsec_/) as unknown });
    expect(Date.parse(rotated.body.previousSecretExpiresAt ?? '') - Date.now()).toBeGreaterThan(23 * 3_600_000);
    const list = await call<unknown[]>('GET', '/v1/webhooks', { token: app.token });
    expect(JSON.stringify(list.body)).not.toContain(rotated.body.secret);
    const draft = await readyDraft(app.token, 'catch-up');
    await settle();
    const got = receiver.received.find((r) => r.json.envelopeId === draft.id);
    const nowSeconds = Number(got?.headers['x-service-timestamp']);
    for (const key of [SECRET, rotated.body.secret]) expect(verifySignatureV2(got?.body ?? '', key, got?.headers['x-service-signature-v2'], { nowSeconds }).ok).toBe(true);
    expect(verifySignature(got?.body ?? '', rotated.body.secret, got?.headers['x-service-signature'])).toBe(true);
    expect((await call('POST', `/v1/webhooks/${hookId}/rotate-secret`, { token: app.token, json: { expireCurrentInHours: 73 } })).status).toBe(400);
    expect((await call('POST', `/v1/webhooks/${hookId}/rotate-secret`, { token: app.token, json: { secret: 'short' } })).status).toBe(400);
    const other = await newApp('catch-up-rotate-other');
    expect((await call('POST', `/v1/webhooks/${hookId}/rotate-secret`, { token: other.token, json: {} })).status).toBe(404);
  });
});
