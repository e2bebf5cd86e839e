import { describe, expect, it } from 'vitest';
import { call, expectErrorShape, newApp, type ApiResponse } from '#test/support/api.ts';
import { readyDraft, sigField, signer, type EnvelopeBody } from '#test/support/envelopes.ts';
import { signing, tokenOf } from '#test/support/signing.ts';

/** The test stack's plan `test` allows 5 requests per 60 s (test/support/global-setup.ts). */
const TEST_PLAN_LIMIT = 5;

function budget(res: ApiResponse) {
  const header = (name: string) => {
    const value = res.headers.get(name);
    if (value === null || !/^\d+$/.test(value)) throw new Error(`${name} missing or not an integer on a ${String(res.status)}: ${String(value)}`);
    return Number(value);
  };
  return { limit: header('x-ratelimit-limit'), remaining: header('x-ratelimit-remaining'), reset: header('x-ratelimit-reset') };
}

describe('rate-limit headers on every response (decision 31)', () => {
  it('carries them on 2xx, 4xx and replays of an application, counting down one per request', async () => {
    const app = await newApp('headers');
    const ok = await call('GET', '/v1/webhooks', { token: app.token });
    const notFound = await call('GET', '/v1/envelopes/0190f5d2-0000-7000-8000-000000000001', { token: app.token });
    const invalid = await call('POST', '/v1/webhooks', { token: app.token, json: { url: 'nope', events: [] } });
    expect([ok.status, notFound.status, invalid.status]).toEqual([200, 404, 400]);
    const [a, b, c] = [budget(ok), budget(notFound), budget(invalid)];
    expect(a.limit).toBe(600); // the default plan (decision 31)
    expect([b.remaining, c.remaining]).toEqual([a.remaining - 1, a.remaining - 2]);
    expect(a.reset).toBeGreaterThan(Date.now() / 1000 - 5);
    expect(a.reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 61);

    const headers = { 'idempotency-key': `rl-${String(Date.now())}` };
    await call('POST', '/v1/webhooks', { token: app.token, json: { url: 'https://example.com/h', events: ['envelope.sent'] }, headers });
    const replay = await call('POST', '/v1/webhooks', { token: app.token, json: { url: 'https://example.com/h', events: ['envelope.sent'] }, headers });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(budget(replay).remaining).toBe(a.remaining - 4);
  });

  it('carries them on unauthenticated calls, 401s and the token endpoint (counted per address)', async () => {
    for (const res of [
      await call('GET', '/v1/envelopes?tenantId=x'),
      await call('GET', '/v1/envelopes?tenantId=x', { token: 'not-a-jwt' }),
      await call('POST', '/oauth/token', { form: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'x', client_secret: 'y' }) }),
      await call('GET', '/v1/openapi.json'),
    ]) {
      expect(budget(res).limit, String(res.status)).toBeGreaterThan(0);
    }
  });

  it('carries them on signer endpoints, the tighter of the token and address budgets', async () => {
    const app = await newApp('signer headers');
    const draft = await readyDraft(app.token, 'rl', { signers: [signer('rl@example.com', 1, { authMethod: 'none' })], fields: [sigField(0)] });
    const sent = await call<EnvelopeBody>('POST', `/v1/envelopes/${draft.id}/send`, { token: app.token });
    const link = tokenOf(sent.body.signers[0]?.signingUrl);
    const context = await signing('GET', link);
    const refused = await signing('POST', link, '/sign', { fields: [] });
    expect([context.status, refused.status]).toEqual([200, 401]); // consent not given yet
    expect(budget(context).limit).toBe(120); // per link token
    expect(budget(refused).remaining).toBe(budget(context).remaining - 1);
  });
});

describe('the limit (decision 31)', () => {
  it('answers 429 with Retry-After once a plan-`test` application spends its 5 requests', async () => {
    const app = await newApp('limited', { plan: 'test' });
    const spent: ApiResponse[] = [];
    for (let i = 0; i < TEST_PLAN_LIMIT; i++) spent.push(await call('GET', '/v1/webhooks', { token: app.token }));
    expect(spent.map((r) => r.status)).toEqual(Array(TEST_PLAN_LIMIT).fill(200));
    expect(spent.map((r) => budget(r).remaining)).toEqual([4, 3, 2, 1, 0]);

    const limited = await call('GET', '/v1/webhooks', { token: app.token });
    expect(limited.status).toBe(429);
    expectErrorShape(limited.body, 'rate_limited', 429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(budget(limited)).toMatchObject({ limit: TEST_PLAN_LIMIT, remaining: 0, reset: budget(spent[0]!).reset });

    // POSTs are refused before they run, and an Idempotency-Key does not store the 429
    const post = await call('POST', '/v1/webhooks', { token: app.token, json: { url: 'https://example.com/h', events: ['envelope.sent'] }, headers: { 'idempotency-key': 'after-limit' } });
    expect(post.status).toBe(429);
    expect(post.headers.get('idempotent-replayed')).toBeNull();
    // another application is not affected
    const other = await newApp('not limited');
    expect((await call('GET', '/v1/webhooks', { token: other.token })).status).toBe(200);
  });

  it('limits a signer link per token: 429 once its budget is spent, other links unaffected', async () => {
    const app = await newApp('link limit');
    const draft = await readyDraft(app.token, 'rl2', {
      signers: [signer('rl-a@example.com', 1, { authMethod: 'none' }), signer('rl-b@example.com', 1, { authMethod: 'none' })], fields: [sigField(0), sigField(1)],
    });
    const sent = await call<EnvelopeBody>('POST', `/v1/envelopes/${draft.id}/send`, { token: app.token });
    const [a, b] = sent.body.signers.map((s) => tokenOf(s.signingUrl));
    const first = await signing('GET', a ?? '');
    const { limit } = budget(first);
    for (let i = 1; i < limit; i++) expect((await signing('GET', a ?? '')).status).toBe(200);
    const limited = await signing('GET', a ?? '');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await signing('GET', b ?? '')).status).toBe(200);
  });
});
