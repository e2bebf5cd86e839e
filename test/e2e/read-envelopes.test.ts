import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectErrorShape, newApp } from '#test/support/api.ts';
import { createMultipart, readyDraft, sigField, signer, type EnvelopeBody } from '#test/support/envelopes.ts';
import { makePdf } from '#test/support/pdfs.ts';

let token: string;
beforeAll(async () => { token = (await newApp('read')).token; });

interface ListBody { data: EnvelopeBody[]; total: number; page: number; pageSize: number }

describe('GET /v1/envelopes/{id}', () => {
  it('returns signers, fields, documents with both retention spellings, and the audit log', async () => {
    const draft = await readyDraft(token);
    const res = await call<EnvelopeBody>('GET', `/v1/envelopes/${draft.id}`, { token, headers: { 'user-agent': 'read-test/1.0' } });
    expect(res.status).toBe(200);
    expect(res.body.signers).toHaveLength(3);
    expect(res.body.fields).toHaveLength(3);
    expect(res.body.documents[0]).toMatchObject({ retentionUntil: null, retention_until: null, purgeStatus: 'active', purge_status: 'active', envelopeId: draft.id });
    expect(res.body.auditLog).toMatchObject([{ event: 'envelope.created', actor: 'system', ip: '127.0.0.1' }]);
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('accepts the env_ prefix and answers 404 for a wrong prefix, an unknown id or another application', async () => {
    const draft = await readyDraft(token);
    expect((await call('GET', `/v1/envelopes/env_${draft.id}`, { token })).status).toBe(200);
    expect((await call('GET', `/v1/envelopes/${draft.id.toUpperCase()}`, { token })).status).toBe(200);
    expect((await call('GET', `/v1/envelopes/doc_${draft.id}`, { token })).status).toBe(404);
    const missing = await call('GET', '/v1/envelopes/0190f5d2-0000-7000-8000-000000000000', { token });
    expect(missing.status).toBe(404);
    expectErrorShape(missing.body, 'not_found', 404);
    expect((await call('GET', `/v1/envelopes/${draft.id}`, { token: (await newApp('other')).token })).status).toBe(404);
  });

  it('verifies its audit chain', async () => {
    const draft = await readyDraft(token);
    await call('POST', `/v1/envelopes/${draft.id}/send`, { token });
    await call('POST', `/v1/envelopes/${draft.id}/void`, { token, json: { reason: 'x' } });
    const res = await call('GET', `/v1/envelopes/${draft.id}/audit/verify`, { token });
    expect(res.body).toMatchObject({ valid: true, events: 5 }); // created, sent, 2 invited, voided
  });
});

describe('GET /v1/envelopes', () => {
  it('lists a tenant newest first with total, paging and a status filter, scoped to the caller', async () => {
    const tenant = `list-${String(Date.now())}`;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await readyDraft(token, tenant, { subject: `E${String(i)}` })).id);
    await call('POST', `/v1/envelopes/${ids[1] ?? ''}/send`, { token });
    await call('POST', `/v1/envelopes/${ids[3] ?? ''}/send`, { token });
    await readyDraft((await newApp('same-tenant-other-app')).token, tenant);

    const all = await call<ListBody>('GET', `/v1/envelopes?tenantId=${tenant}`, { token });
    expect(all.body).toMatchObject({ total: 5, page: 1, pageSize: 20 });
    expect(all.body.data.map((e) => e.id)).toEqual([...ids].reverse());
    expect(all.body.data[0]?.auditLog).toBeUndefined();

    const page2 = await call<ListBody>('GET', `/v1/envelopes?tenantId=${tenant}&page=2&pageSize=2`, { token });
    expect(page2.body).toMatchObject({ total: 5, page: 2, pageSize: 2 });
    expect(page2.body.data.map((e) => e.id)).toEqual([ids[2], ids[1]]);
    const page3 = await call<ListBody>('GET', `/v1/envelopes?tenantId=${tenant}&page=3&pageSize=2`, { token });
    expect(page3.body.data.map((e) => e.id)).toEqual([ids[0]]);
    const beyond = await call<ListBody>('GET', `/v1/envelopes?tenantId=${tenant}&page=9&pageSize=2`, { token });
    expect(beyond.body).toMatchObject({ data: [], total: 5 });

    const sent = await call<ListBody>('GET', `/v1/envelopes?tenantId=${tenant}&status=sent`, { token });
    expect(sent.body.total).toBe(2);
    expect(sent.body.data.map((e) => e.id)).toEqual([ids[3], ids[1]]);
    const drafts = await call<ListBody>('GET', `/v1/envelopes?tenantId=${tenant}&status=draft&pageSize=1&page=2`, { token });
    expect(drafts.body).toMatchObject({ total: 3, data: [{ id: ids[2] }] });
  });

  const bad: [string, string][] = [
    ['', 'tenantId'], ['tenantId=a&page=0', 'page'], ['tenantId=a&page=x', 'page'], ['tenantId=a&pageSize=0', 'pageSize'],
    ['tenantId=a&pageSize=101', 'pageSize'], ['tenantId=a&status=lost', 'status'],
  ];
  for (const [query, path] of bad) {
    it(`answers 400 naming ${path} for ?${query}`, async () => {
      const res = await call('GET', `/v1/envelopes?${query}`, { token });
      expect(res.status).toBe(400);
      expect(Object.keys((res.body as { errors: object }).errors)).toContain(path);
    });
  }
});

describe('GET /v1/envelopes/{id}/document', () => {
  it('returns the original PDF byte for byte, names it after the subject, and 409 for sealed before completion', async () => {
    const pdf = await makePdf({ pages: 2 });
    const created = await createMultipart(token, { tenantId: 'acme', subject: 'Lease 2027', signers: [signer('a@example.com')], fields: [sigField(0)] }, pdf);
    const res = await call('GET', `/v1/envelopes/${created.body.id}/document`, { token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain('Lease 2027');
    expect(createHash('sha256').update(res.bytes).digest('hex')).toBe(created.body.documentHashOriginal);
    expect((await call('GET', `/v1/envelopes/${created.body.id}/document?kind=original`, { token })).status).toBe(200);
    const sealed = await call('GET', `/v1/envelopes/${created.body.id}/document?kind=sealed`, { token });
    expect(sealed.status).toBe(409);
    expectErrorShape(sealed.body, 'conflict', 409);
    expect((await call('GET', `/v1/envelopes/${created.body.id}/document?kind=draft`, { token })).status).toBe(400);
  });

  it('answers 404 while a JSON-created envelope has no document', async () => {
    const res = await call<EnvelopeBody>('POST', '/v1/envelopes', { token, json: { tenantId: 'acme', signers: [signer('a@example.com')] } });
    expect((await call('GET', `/v1/envelopes/${res.body.id}/document`, { token })).status).toBe(404);
  });
});

describe('routing and errors', () => {
  it('answers unknown routes with 404 and wrong methods with 405, in the error shape', async () => {
    const missing = await call('GET', '/v1/nothing-here', { token });
    expect(missing.status).toBe(404);
    expectErrorShape(missing.body, 'not_found', 404);
    const method = await call('DELETE', '/v1/envelopes', { token });
    expect(method.status).toBe(405);
    expectErrorShape(method.body, 'method_not_allowed', 405);
    expect(method.headers.get('allow')).toBe('GET, POST');
  });

  it('carries the rate-limit headers on 404 and 405 too, counted against the caller (decision 31)', async () => {
    const first = await call('GET', '/v1/nothing-here', { token });
    const second = await call('PATCH', '/v1/envelopes', { token });
    for (const res of [first, second]) {
      expect(res.headers.get('x-ratelimit-limit')).toBe('600');
      expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    }
    expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(Number(first.headers.get('x-ratelimit-remaining')) - 1);
    const anonymous = await call('GET', '/nowhere');
    expect(anonymous.status).toBe(404);
    expect(anonymous.headers.get('x-ratelimit-limit')).not.toBeNull();
  });
});
