import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '#shared/webhooks/webhook-signature.ts';
import { call, expectErrorShape, newApp } from '#test/support/api.ts';
import { readyDraft, sigField, signer, type EnvelopeBody } from '#test/support/envelopes.ts';
import { Receiver } from '#test/support/receiver.ts';
import { passGates, settle, signing, tokenOf, valuesFor, type ContextBody } from '#test/support/signing.ts';

let app: Awaited<ReturnType<typeof newApp>>;
const everything = new Receiver();
const onlyCompleted = new Receiver();
let everythingUrl: string;
const SECRET = 'whsec-0123456789abcdef';

beforeAll(async () => {
  app = await newApp('webhooks');
  everythingUrl = await everything.start();
  const all = ['envelope.created', 'envelope.sent', 'envelope.completed', 'envelope.declined', 'envelope.voided', 'envelope.expired', 'signer.viewed', 'signer.signed', 'signer.declined', 'signer.otp_failed'];
  expect((await call('POST', '/v1/webhooks', { token: app.token, json: { url: everythingUrl, events: all, secret: SECRET } })).status).toBe(201);
  expect((await call('POST', '/v1/webhooks', { token: app.token, json: { url: await onlyCompleted.start(), events: ['envelope.completed'] } })).status).toBe(201);
});
afterAll(async () => { await Promise.all([everything.stop(), onlyCompleted.stop()]); });

describe('webhook subscriptions', () => {
  it('creates, lists without secrets, and deletes (404 for unknown or another application\'s)', async () => {
    const other = await newApp('webhooks-other');
    const created = await call<{ id: string }>('POST', '/v1/webhooks', { token: other.token, json: { url: 'https://example.com/hook', events: ['envelope.sent'], secret: SECRET } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: 'https://example.com/hook', events: ['envelope.sent'], active: true, retrySchedule: 'B', signedWith: 'secret' });
    expect(JSON.stringify(created.body)).not.toContain(SECRET);
    const list = await call<unknown[]>('GET', '/v1/webhooks', { token: other.token });
    expect(list.body).toHaveLength(1);
    expect((await call('DELETE', `/v1/webhooks/${created.body.id}`, { token: app.token })).status).toBe(404);
    expect((await call('DELETE', `/v1/webhooks/whk_${created.body.id}`, { token: other.token })).status).toBe(204);
    expect((await call('DELETE', `/v1/webhooks/${created.body.id}`, { token: other.token })).status).toBe(404);
    expect((await call<unknown[]>('GET', '/v1/webhooks', { token: other.token })).body).toEqual([]);
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['plain http to a public host', { url: 'http://example.com/hook', events: ['envelope.sent'] }, 'url'],
    ['an ftp URL', { url: 'ftp://example.com/hook', events: ['envelope.sent'] }, 'url'],
    ['credentials in the URL', { url: 'https://user:pw@example.com/hook', events: ['envelope.sent'] }, 'url'],
    ['no events', { url: 'https://example.com/hook', events: [] }, 'events'],
    ['an unknown event', { url: 'https://example.com/hook', events: ['envelope.exploded'] }, 'events'],
    ['a short secret', { url: 'https://example.com/hook', events: ['envelope.sent'], secret: 'short' }, 'secret'],
    ['cloud metadata in the IPv4-translated form', { url: 'https://[::ffff:0:a9fe:a9fe]/hook', events: ['envelope.sent'] }, 'url'],
    ['cloud metadata behind 6to4', { url: 'https://[2002:a9fe:a9fe::1]/hook', events: ['envelope.sent'] }, 'url'],
    ['a private address behind Teredo', { url: 'https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/hook', events: ['envelope.sent'] }, 'url'],
    ['an unknown retry schedule', { url: 'https://example.com/hook', events: ['envelope.sent'], retrySchedule: 'C' }, 'retrySchedule'],
  ];
  for (const [what, body, path] of invalid) {
    it(`refuses ${what} with 400 naming ${path}`, async () => {
      const res = await call('POST', '/v1/webhooks', { token: app.token, json: body });
      expect(res.status).toBe(400);
      expectErrorShape(res.body, 'validation_error', 400);
      expect(Object.keys((res.body as { errors: object }).errors)).toContain(path);
    });
  }
});

describe('event deliveries', () => {
  it('delivers every event of an envelope\'s life, signed, to the subscribed webhooks only', async () => {
    const draft = await readyDraft(app.token, 'hooks', { signers: [signer('w1@example.com', 1, { authMethod: 'none' })], fields: [sigField(0)] });
    const sent = (await call<EnvelopeBody>('POST', `/v1/envelopes/${draft.id}/send`, { token: app.token })).body;
    const link = tokenOf(sent.signers[0]?.signingUrl);
    await passGates(link, null);
    const context = (await signing<ContextBody>('GET', link)).body;
    await signing('POST', link, '/sign', { fields: valuesFor(context) });
    await settle();
    const mine = everything.received.filter((r) => r.json.envelopeId === draft.id);
    expect(mine.map((r) => r.json.event)).toEqual(['envelope.created', 'envelope.sent', 'signer.viewed', 'signer.signed', 'envelope.completed']);
    for (const delivery of mine) {
      expect(verifySignature(delivery.body, SECRET, delivery.headers['x-service-signature'])).toBe(true);
      expect(delivery.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    }
    const completed = mine.at(-1)?.json;
    expect(completed).toMatchObject({
      event: 'envelope.completed', envelopeId: draft.id, completedAt: expect.any(String) as unknown, documentUrl: expect.stringContaining(`/v1/envelopes/${draft.id}/document`) as unknown,
      data: { envelopeId: draft.id, tenantId: 'hooks', subject: 'Service agreement', signers: [{ email: 'w1@example.com', signedAt: expect.any(String) as unknown }] },
    });
    expect(completed?.id).toMatch(/^[0-9a-f-]{36}$/);
    const justCompleted = onlyCompleted.received.filter((r) => r.json.envelopeId === draft.id);
    expect(justCompleted.map((r) => r.json.event)).toEqual(['envelope.completed']);
    expect(verifySignature(justCompleted[0]?.body ?? '', app.clientSecret, justCompleted[0]?.headers['x-service-signature'])).toBe(true);
  });

  it('delivers void, decline and OTP-failure events', async () => {
    const voided = await readyDraft(app.token, 'hooks');
    await call('POST', `/v1/envelopes/${voided.id}/void`, { token: app.token, json: { reason: 'x' } });
    const declined = await readyDraft(app.token, 'hooks', { signers: [signer('d1@example.com', 1)], fields: [sigField(0)] });
    const sent = (await call<EnvelopeBody>('POST', `/v1/envelopes/${declined.id}/send`, { token: app.token })).body;
    const link = tokenOf(sent.signers[0]?.signingUrl);
    await signing('POST', link, '/otp/request');
    for (let i = 0; i < 3; i++) await signing('POST', link, '/otp/verify', { code: '000000' });
    await signing('POST', link, '/otp/request');
    await settle();
    const codeMail = await call<{ subject: string }[]>('GET', '/_local/outbox?to=d1@example.com');
    const code = /\d{6}/.exec(codeMail.body.at(-1)?.subject ?? '')?.[0] ?? '';
    await signing('POST', link, '/otp/verify', { code });
    await signing('POST', link, '/decline', { reason: 'no' });
    await settle();
    expect(everything.received.filter((r) => r.json.envelopeId === voided.id).map((r) => r.json.event)).toEqual(['envelope.created', 'envelope.voided']);
    const events = everything.received.filter((r) => r.json.envelopeId === declined.id).map((r) => r.json.event);
    expect(events).toEqual(expect.arrayContaining(['signer.otp_failed', 'signer.declined', 'envelope.declined']));
    expect(events.filter((e) => e === 'signer.otp_failed')).toHaveLength(1);
  });

  it('lists deliveries and resends one with the same event id', async () => {
    const hooks = (await call<{ id: string; url: string }[]>('GET', '/v1/webhooks', { token: app.token })).body;
    const hook = hooks.find((h) => h.url === everythingUrl);
    const deliveries = await call<{ data: { id: string; eventId: string; status: string; attempts: number }[] }>('GET', `/v1/webhooks/${hook?.id ?? ''}/deliveries?status=delivered&limit=5`, { token: app.token });
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.data.length).toBeGreaterThan(0);
    const first = deliveries.body.data[0];
    const before = everything.received.length;
    const resent = await call<{ status: string; attempts: number }>('POST', `/v1/webhooks/${hook?.id ?? ''}/deliveries/${first?.id ?? ''}/resend`, { token: app.token });
    expect(resent.body).toMatchObject({ status: 'delivered', attempts: (first?.attempts ?? 0) + 1 });
    expect(everything.received.at(-1)?.json.id).toBe(first?.eventId);
    expect(everything.received.length).toBe(before + 1);
    expect((await call('GET', `/v1/webhooks/${hook?.id ?? ''}/deliveries?status=lost`, { token: app.token })).status).toBe(400);
    expect((await call('POST', `/v1/webhooks/${hook?.id ?? ''}/deliveries/0190f5d2-0000-7000-8000-000000000000/resend`, { token: app.token })).status).toBe(404);
  });
});
