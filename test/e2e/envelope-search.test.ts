/** GET /v1/envelopes?q=: part of the subject or of a signer's email, any case, with the status filter and paging. */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectErrorShape, newApp } from '#test/support/api.ts';
import { readyDraft, sigField, signer, type EnvelopeBody } from '#test/support/envelopes.ts';

let token: string;
beforeAll(async () => { token = (await newApp('search')).token; });

interface ListBody { data: EnvelopeBody[]; total: number; page: number; pageSize: number }

const list = (tenant: string, query: string) => call<ListBody>('GET', `/v1/envelopes?tenantId=${tenant}&${query}`, { token });

describe('GET /v1/envelopes?q=', () => {
  it('finds envelopes by subject or signer email, any case, newest first, with status and paging', async () => {
    const tenant = `search-${String(Date.now())}`;
    const made = async (subject: string, email: string) => (await readyDraft(token, tenant, { subject, signers: [signer(email, 1)], fields: [sigField(0)] })).id;
    const lease = await made('Office lease 2027', 'landlord@example.com');
    const nda = await made('Mutual NDA', 'Legal.Team@Partner.example');
    const renewal = await made('Lease renewal', 'tenant@example.com');
    await made('Unrelated', 'someone@example.com');
    expect((await call('POST', `/v1/envelopes/${renewal}/send`, { token })).status).toBe(200);

    const bySubject = await list(tenant, 'q=LEASE');
    expect(bySubject.status).toBe(200);
    expect(bySubject.body.data.map((e) => e.id)).toEqual([renewal, lease]);
    expect(bySubject.body.total).toBe(2);

    const byEmail = await list(tenant, `q=${encodeURIComponent('legal.team@partner')}`);
    expect(byEmail.body.data.map((e) => e.id)).toEqual([nda]);

    const sent = await list(tenant, 'q=lease&status=sent');
    expect(sent.body.data.map((e) => e.id)).toEqual([renewal]);
    expect(sent.body.total).toBe(1);

    const second = await list(tenant, 'q=lease&pageSize=1&page=2');
    expect(second.body).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(second.body.data.map((e) => e.id)).toEqual([lease]);

    const none = await list(tenant, 'q=nothing-like-this');
    expect(none.body).toMatchObject({ data: [], total: 0 });
    // An empty q is no filter
    expect((await list(tenant, 'q=%20')).body.total).toBe(4);
  });

  it('refuses a search longer than 200 characters', async () => {
    const res = await list('acme', `q=${'x'.repeat(201)}`);
    expect(res.status).toBe(400);
    expectErrorShape(res.body, 'validation_error', 400);
  });
});
