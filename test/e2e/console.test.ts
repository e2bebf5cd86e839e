import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectErrorShape, newApp } from '#test/support/api.ts';
import { readyDraft, type EnvelopeBody } from '#test/support/envelopes.ts';

interface ContactBody { id: string; appId: string; name: string; email: string; phone: string | null; createdAt: string }
interface UsageBody { plan: string; periodStart: string; periodEnd: string; envelopesUsed: number; envelopesLimit: number | null; overageAllowed: boolean }

const saveContact = (token: string, json: unknown) => call<ContactBody>('POST', '/v1/console/contacts', { token, json });
const contacts = (token: string, search?: string) =>
  call<ContactBody[]>('GET', `/v1/console/contacts${search === undefined ? '' : `?search=${encodeURIComponent(search)}`}`, { token });
const usage = (token: string) => call<UsageBody>('GET', '/v1/console/usage', { token });
const send = (token: string, id: string) => call<EnvelopeBody>('POST', `/v1/envelopes/${id}/send`, { token });

describe('console contacts (decision 40)', () => {
  let app: Awaited<ReturnType<typeof newApp>>;
  beforeAll(async () => { app = await newApp('contacts'); });

  it('creates a contact, then updates it when the same email comes back in another case', async () => {
    const created = await saveContact(app.token, { name: 'Ana Lima', email: 'Ana.Lima@Example.com', phone: '+14155550100' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ appId: app.appId, name: 'Ana Lima', email: 'Ana.Lima@Example.com', phone: '+14155550100' });

    const updated = await saveContact(app.token, { name: 'Ana L. Lima', email: 'ana.lima@example.com' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: created.body.id, name: 'Ana L. Lima', email: 'ana.lima@example.com', phone: null, createdAt: created.body.createdAt });
    const all = (await contacts(app.token)).body.filter((c) => c.email.toLowerCase() === 'ana.lima@example.com');
    expect(all).toHaveLength(1);
  });

  it('searches name and email case-insensitively', async () => {
    await saveContact(app.token, { name: 'Bruno Costa', email: 'bruno@acme.test' });
    await saveContact(app.token, { name: 'Carla Dias', email: 'carla@globex.test' });
    const names = async (search: string) => (await contacts(app.token, search)).body.map((c) => c.name).sort();
    expect(await names('BRUNO')).toEqual(['Bruno Costa']);
    expect(await names('GLOBEX')).toEqual(['Carla Dias']);
    expect(await names('.test')).toEqual(['Bruno Costa', 'Carla Dias']);
    expect(await names('nobody')).toEqual([]);
    expect((await contacts(app.token)).body.length).toBeGreaterThanOrEqual(3);
  });

  it('keeps applications apart: another application sees none and cannot delete them (404)', async () => {
    const other = await newApp('contacts other');
    const mine = await saveContact(app.token, { name: 'Dora Eck', email: 'dora@example.com' });
    expect((await contacts(other.token)).body).toEqual([]);
    const foreign = await call('DELETE', `/v1/console/contacts/${mine.body.id}`, { token: other.token });
    expect(foreign.status).toBe(404);
    expectErrorShape(foreign.body, 'not_found', 404);
    expect((await contacts(app.token, 'dora')).body).toHaveLength(1);
  });

  it('deletes with 204 (plain or prefixed id), then 404 for the same or an unknown id', async () => {
    const a = await saveContact(app.token, { name: 'Eve Fox', email: 'eve@example.com' });
    const b = await saveContact(app.token, { name: 'Finn Gray', email: 'finn@example.com' });
    expect((await call('DELETE', `/v1/console/contacts/${a.body.id}`, { token: app.token })).status).toBe(204);
    expect((await call('DELETE', `/v1/console/contacts/con_${b.body.id}`, { token: app.token })).status).toBe(204);
    expect((await call('DELETE', `/v1/console/contacts/${a.body.id}`, { token: app.token })).status).toBe(404);
    expect((await call('DELETE', '/v1/console/contacts/0190f5d2-0000-7000-8000-000000000009', { token: app.token })).status).toBe(404);
    expect((await call('DELETE', '/v1/console/contacts/not-an-id', { token: app.token })).status).toBe(404);
    expect((await contacts(app.token, 'eve@')).body).toEqual([]);
    // the email is free again: saving it creates a new contact
    const again = await saveContact(app.token, { name: 'Eve Fox', email: 'EVE@example.com' });
    expect(again.body.id).not.toBe(a.body.id);
  });

  it('validates the body and needs a bearer token', async () => {
    const missing = await saveContact(app.token, { email: 'no-name@example.com' });
    expect(missing.status).toBe(400);
    expectErrorShape(missing.body, 'validation_error', 400);
    expect(missing.body).toMatchObject({ errors: { name: expect.any(Array) as unknown } });
    expect((await saveContact(app.token, { name: 'X', email: 'not-an-email' })).status).toBe(400);
    expect((await call('GET', '/v1/console/contacts')).status).toBe(401);
    expect((await call('GET', '/v1/console/usage')).status).toBe(401);
  });
});

describe('console usage (decision 30)', () => {
  it('reports the plan and the UTC calendar month; counts sent envelopes, not created ones', async () => {
    const app = await newApp('usage');
    const first = await usage(app.token);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ plan: 'standard', envelopesUsed: 0, envelopesLimit: null, overageAllowed: true });
    expect(first.body.periodStart).toMatch(/^\d{4}-\d{2}-01$/);
    expect(first.body.periodEnd.slice(0, 7)).toBe(first.body.periodStart.slice(0, 7));
    const lastDay = new Date(`${first.body.periodEnd}T00:00:00Z`);
    expect(new Date(lastDay.getTime() + 86_400_000).getUTCDate()).toBe(1);

    const a = await readyDraft(app.token, 'usage');
    const b = await readyDraft(app.token, 'usage');
    expect((await usage(app.token)).body.envelopesUsed).toBe(0);
    expect((await send(app.token, a.id)).status).toBe(200);
    expect((await send(app.token, b.id)).status).toBe(200);
    expect((await send(app.token, b.id)).status).toBe(400); // not a draft any more: not counted again
    expect((await usage(app.token)).body.envelopesUsed).toBe(2);
  });

  it('refuses a send beyond the limit with 403 quota_exceeded when overage is not allowed; nothing changes', async () => {
    const app = await newApp('quota', { envelopesLimit: 2, overageAllowed: false });
    const drafts = await Promise.all([1, 2, 3].map(() => readyDraft(app.token, 'quota')));
    const [a, b, c] = drafts.map((d) => d.id) as [string, string, string];
    expect((await send(app.token, a)).status).toBe(200);
    expect((await send(app.token, b)).status).toBe(200);
    const refused = await send(app.token, c);
    expect(refused.status).toBe(403);
    expectErrorShape(refused.body, 'quota_exceeded', 403);
    expect((await call<EnvelopeBody>('GET', `/v1/envelopes/${c}`, { token: app.token })).body.status).toBe('draft');
    expect((await usage(app.token)).body).toMatchObject({ envelopesUsed: 2, envelopesLimit: 2, overageAllowed: false });
  });

  it('lets exactly one of three concurrent sends take the one unit of quota left', async () => {
    const app = await newApp('quota race', { envelopesLimit: 1, overageAllowed: false });
    const drafts = await Promise.all([1, 2, 3].map(() => readyDraft(app.token, 'race')));
    const results = await Promise.all(drafts.map((d) => send(app.token, d.id)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 403, 403]);
    expect((await usage(app.token)).body.envelopesUsed).toBe(1);
  });

  it('keeps counting past the limit when overage is allowed', async () => {
    const app = await newApp('overage', { envelopesLimit: 1, overageAllowed: true });
    const drafts = await Promise.all([1, 2].map(() => readyDraft(app.token, 'overage')));
    for (const draft of drafts) expect((await send(app.token, draft.id)).status).toBe(200);
    expect((await usage(app.token)).body).toMatchObject({ envelopesUsed: 2, envelopesLimit: 1, overageAllowed: true });
  });
});
