import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectErrorShape, newApp, outboxFor, type ApiResponse } from '#test/support/api.ts';
import { readyDraft, sigField, signer, type EnvelopeBody, type Json } from '#test/support/envelopes.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { tokenOf } from '#test/support/signing.ts';

const key = () => `key-${randomUUID()}`;
const replayed = (res: ApiResponse) => res.headers.get('idempotent-replayed');

/** A multipart create with an Idempotency-Key: every call builds a new form, so the multipart boundary differs each time. */
function createWithKey(token: string, idempotencyKey: string, data: Json, pdf: Uint8Array) {
  const form = new FormData();
  form.append('data', JSON.stringify(data));
  form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'contract.pdf');
  return call<EnvelopeBody>('POST', '/v1/envelopes', { token, form, headers: { 'idempotency-key': idempotencyKey } });
}

const total = async (token: string, tenantId: string) =>
  (await call<{ total: number }>('GET', `/v1/envelopes?tenantId=${tenantId}`, { token })).body.total;

describe('Idempotency-Key on bearer POSTs (decision 32)', () => {
  let app: Awaited<ReturnType<typeof newApp>>;
  let pdf: Uint8Array;
  const request = (tenantId: string): Json => ({ tenantId, subject: 'Once only', signers: [signer('idem@example.com')], fields: [sigField(0)] });
  beforeAll(async () => {
    app = await newApp('idempotency');
    pdf = await makePdf({ pages: 1 });
  });

  it('replays a multipart create sent again with the same key: same answer, one envelope', async () => {
    const k = key();
    const first = await createWithKey(app.token, k, request('seq'), pdf);
    expect(first.status).toBe(201);
    expect(replayed(first)).toBeNull();
    const again = await createWithKey(app.token, k, request('seq'), pdf);
    expect(again.status).toBe(201);
    expect(replayed(again)).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(await total(app.token, 'seq')).toBe(1);
  });

  it('treats JSON bodies that differ only in key order and spacing as the same request', async () => {
    const k = key();
    const signers = [{ name: 'Jo', email: 'jo@example.com' }];
    const raw = (value: unknown, spaces?: number) => ({ bytes: Buffer.from(JSON.stringify(value, null, spaces)), contentType: 'application/json' });
    const first = await call('POST', '/v1/envelopes', { token: app.token, raw: raw({ tenantId: 'json', signers }), headers: { 'idempotency-key': k } });
    const second = await call('POST', '/v1/envelopes', { token: app.token, raw: raw({ signers, tenantId: 'json' }, 2), headers: { 'idempotency-key': k } });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(replayed(second)).toBe('true');
    expect(await total(app.token, 'json')).toBe(1);
  });

  it('runs ten concurrent first requests with one key exactly once', async () => {
    const k = key();
    const results = await Promise.all(Array.from({ length: 10 }, () => createWithKey(app.token, k, request('burst'), pdf)));
    const created = results.filter((r) => r.status === 201);
    const busy = results.filter((r) => r.status === 409);
    expect(created.length + busy.length).toBe(10);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(created.filter((r) => replayed(r) === null)).toHaveLength(1); // one ran; any other 201 is a replay
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    for (const r of busy) expectErrorShape(r.body, 'request_in_progress', 409);
    const retry = await createWithKey(app.token, k, request('burst'), pdf);
    expect(retry.status).toBe(201);
    expect(retry.body.id).toBe(created[0]?.body.id);
    expect(await total(app.token, 'burst')).toBe(1);
  });

  it('answers 409 idempotency_key_reused for another body or another path with the same key', async () => {
    const k = key();
    expect((await createWithKey(app.token, k, request('reuse'), pdf)).status).toBe(201);
    const otherBody = await createWithKey(app.token, k, { ...request('reuse'), subject: 'Something else' }, pdf);
    expect(otherBody.status).toBe(409);
    expectErrorShape(otherBody.body, 'idempotency_key_reused', 409);
    const otherPath = await call('POST', '/v1/webhooks', { token: app.token, json: { url: 'https://example.com/hook', events: ['envelope.sent'] }, headers: { 'idempotency-key': k } });
    expect(otherPath.status).toBe(409);
    expectErrorShape(otherPath.body, 'idempotency_key_reused', 409);
    expect(await total(app.token, 'reuse')).toBe(1);
  });

  it('replays a 4xx answer too, and scopes keys to the application', async () => {
    const k = key();
    const invalid = await call('POST', '/v1/webhooks', { token: app.token, json: { url: 'ftp://example.com', events: ['envelope.sent'] }, headers: { 'idempotency-key': k } });
    expect(invalid.status).toBe(400);
    const again = await call('POST', '/v1/webhooks', { token: app.token, json: { url: 'ftp://example.com', events: ['envelope.sent'] }, headers: { 'idempotency-key': k } });
    expect(again.status).toBe(400);
    expect(replayed(again)).toBe('true');

    const other = await newApp('idempotency other');
    const k2 = key();
    const mine = await createWithKey(app.token, k2, request('scope'), pdf);
    const theirs = await createWithKey(other.token, k2, request('scope'), pdf);
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(replayed(theirs)).toBeNull();
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('sends the same send twice with one key: the second is the replay, not a 400 for a non-draft', async () => {
    const draft = await readyDraft(app.token, 'send-twice');
    const k = key();
    const first = await call<EnvelopeBody>('POST', `/v1/envelopes/${draft.id}/send`, { token: app.token, headers: { 'idempotency-key': k } });
    const second = await call<EnvelopeBody>('POST', `/v1/envelopes/${draft.id}/send`, { token: app.token, headers: { 'idempotency-key': k } });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(replayed(second)).toBe('true');
    expect(second.body.signers.map((s) => s.signingUrl)).toEqual(first.body.signers.map((s) => s.signingUrl));
    expect((await call<EnvelopeBody>('POST', `/v1/envelopes/${draft.id}/send`, { token: app.token })).status).toBe(400);
  });

  it('rejects a malformed key and ignores keys on GET', async () => {
    const tooLong = await call('POST', '/v1/webhooks', { token: app.token, json: {}, headers: { 'idempotency-key': 'k'.repeat(256) } });
    expect(tooLong.status).toBe(400);
    expectErrorShape(tooLong.body, 'validation_error', 400);
    const k = key();
    const a = await call('GET', '/v1/webhooks', { token: app.token, headers: { 'idempotency-key': k } });
    const b = await call('GET', '/v1/webhooks', { token: app.token, headers: { 'idempotency-key': k } });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(replayed(b)).toBeNull();
  });
});

describe('Idempotency-Key on signer POSTs: scoped to the link token', () => {
  it('sends one code for two OTP requests with the same key; a new key sends another', async () => {
    const app = await newApp('idempotency signer');
    const email = `otp-${randomUUID().slice(0, 8)}@example.com`;
    const draft = await readyDraft(app.token, 'signer', { signers: [signer(email)], fields: [sigField(0)] });
    const sent = await call<EnvelopeBody>('POST', `/v1/envelopes/${draft.id}/send`, { token: app.token });
    const link = tokenOf(sent.body.signers[0]?.signingUrl);
    const codes = async () => (await outboxFor(email)).filter((m) => /\b\d{6}\b/.test(m.subject ?? '')).length;
    const request = (k: string) => call('POST', `/v1/signing/${link}/otp/request`, { headers: { 'idempotency-key': k } });

    const k = key();
    const first = await request(k);
    const second = await request(k);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(replayed(second)).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await codes()).toBe(1);
    expect((await request(key())).status).toBe(200);
    expect(await codes()).toBe(2);
  });
});
