import { afterAll, describe, expect, it } from 'vitest';
import { call, newApp, tokenFor } from '#test/support/api.ts';
import { readyDraft } from '#test/support/envelopes.ts';
import { Receiver } from '#test/support/receiver.ts';
import { settle } from '#test/support/signing.ts';

interface DeliveryBody { id: string; eventId: string; status: string; attempts: number; lastStatusCode: number | null; lastError: string | null; nextAttemptAt: string | null }

const receivers: Receiver[] = [];
afterAll(async () => { await Promise.all(receivers.map((r) => r.stop())); });

/** An application with one webhook on envelope.created pointing at a receiver that answers as told. */
async function setup(answers: (n: number) => number | 'hang', schedule: 'A' | 'B' = 'B') {
  const app = await newApp(`retries-${schedule}`);
  const receiver = new Receiver(answers);
  receivers.push(receiver);
  const hook = await call<{ id: string }>('POST', '/v1/webhooks', { token: app.token, json: { url: await receiver.start(), events: ['envelope.created'], retrySchedule: schedule } });
  await readyDraft(app.token, 'retries');
  await settle();
  const deliveries = async () => {
    const token = await tokenFor(app.clientId, app.clientSecret);
    return (await call<{ data: DeliveryBody[] }>('GET', `/v1/webhooks/${hook.body.id}/deliveries`, { token })).body.data;
  };
  return { app, receiver, hookId: hook.body.id, deliveries };
}

describe('webhook retries on the service clock', () => {
  it('schedule B: a receiver failing 4 times gets the 5th attempt after 1 min, 10 min, 1 h and 6 h', async () => {
    const { receiver, deliveries } = await setup((n) => (n < 4 ? 503 : 200));
    expect(receiver.received).toHaveLength(1);
    expect((await deliveries())[0]).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 503 });
    await settle(45); // not yet due (a margin for real time passing on a loaded machine)
    expect(receiver.received).toHaveLength(1);
    for (const [wait, expected] of [[15, 2], [600, 3], [3600, 4], [21_600, 5]] as const) {
      await settle(wait);
      expect(receiver.received, `after waiting ${String(wait)} s`).toHaveLength(expected);
    }
    const [delivery] = await deliveries();
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 5, lastStatusCode: 200, nextAttemptAt: null });
    expect(new Set(receiver.received.map((r) => r.json.id)).size).toBe(1);
  });

  it('a receiver that always fails ends failed after exactly 5 attempts, and a resend delivers it', async () => {
    const { app, receiver, hookId, deliveries } = await setup(() => 500, 'A');
    for (const wait of [30, 120, 600, 3600, 21_600]) await settle(wait);
    expect(receiver.received).toHaveLength(5);
    const token = await tokenFor(app.clientId, app.clientSecret);
    const failed = (await call<{ data: DeliveryBody[] }>('GET', `/v1/webhooks/${hookId}/deliveries?status=failed`, { token })).body.data;
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ status: 'failed', attempts: 5, lastStatusCode: 500 });
    receiver.answer(() => 200);
    const resent = await call<DeliveryBody>('POST', `/v1/webhooks/${hookId}/deliveries/dlv_${failed[0]?.id ?? ''}/resend`, { token });
    expect(resent.body).toMatchObject({ status: 'delivered', attempts: 6 });
    expect(receiver.received.at(-1)?.json.id).toBe(failed[0]?.eventId);
    expect((await deliveries())[0]?.status).toBe('delivered');
  });

  it('cuts a receiver that never answers at the configured timeout and retries it', async () => {
    const { receiver, deliveries } = await setup((n) => (n === 0 ? 'hang' : 200));
    const [first] = await deliveries();
    expect(first).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: null, lastError: expect.stringMatching(/timed out/) as unknown });
    await settle(60);
    expect(receiver.received).toHaveLength(2);
    expect((await deliveries())[0]?.status).toBe('delivered');
  });
});
