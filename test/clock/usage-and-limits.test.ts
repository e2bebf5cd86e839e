import { describe, expect, it } from 'vitest';
import { call, newApp, tokenFor } from '#test/support/api.ts';
import { readyDraft } from '#test/support/envelopes.ts';

interface UsageBody { periodStart: string; periodEnd: string; envelopesUsed: number }

/** Moves the service clock (running whatever became due, so no backlog is left to later files); answers the new time. */
async function advance(seconds: number): Promise<Date> {
  const res = await call<{ now: string }>('POST', '/_local/clock', { json: { advanceSeconds: seconds } });
  expect(res.status).toBe(200);
  return new Date(res.body.now);
}

const usage = async (token: string) => (await call<UsageBody>('GET', '/v1/console/usage', { token })).body;
const send = (token: string, id: string) => call('POST', `/v1/envelopes/${id}/send`, { token });

describe('usage periods on the service clock (decision 30)', () => {
  it('starts a fresh count, and a fresh quota, in the next UTC calendar month', async () => {
    const app = await newApp('monthly', { envelopesLimit: 1, overageAllowed: false });
    const drafts = await Promise.all([1, 2, 3].map(() => readyDraft(app.token, 'monthly')));
    const [a, b, c] = drafts.map((d) => d.id) as [string, string, string];
    expect((await send(app.token, a)).status).toBe(200);
    expect((await send(app.token, b)).status).toBe(403);
    const before = await usage(app.token);
    expect(before.envelopesUsed).toBe(1);

    // to just past midnight UTC on the first day of the next month
    const now = await advance(0);
    const nextMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 0, 0, 5);
    const moved = await advance(Math.ceil((nextMonth - now.getTime()) / 1000));
    expect(moved.getUTCDate()).toBe(1);
    const token = await tokenFor(app.clientId, app.clientSecret); // the old one expired on the way

    const after = await usage(token);
    expect(after.periodStart > before.periodStart).toBe(true);
    expect(after).toMatchObject({ periodStart: moved.toISOString().slice(0, 10), envelopesUsed: 0 });
    expect((await send(token, b)).status).toBe(200);
    expect((await send(token, c)).status).toBe(403);
    expect((await usage(token)).envelopesUsed).toBe(1);
  });
});

describe('rate-limit windows on the service clock (decision 31)', () => {
  it('lets a limited application through again once its window has passed', async () => {
    const app = await newApp('recovery', { plan: 'test' });
    for (let i = 0; i < 5; i++) expect((await call('GET', '/v1/webhooks', { token: app.token })).status).toBe(200);
    const limited = await call('GET', '/v1/webhooks', { token: app.token });
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));

    await advance(retryAfter - 5);
    expect((await call('GET', '/v1/webhooks', { token: app.token })).status).toBe(429);
    await advance(6);
    const recovered = await call('GET', '/v1/webhooks', { token: app.token });
    expect(recovered.status).toBe(200);
    expect(recovered.headers.get('x-ratelimit-remaining')).toBe('4');
  });
});
