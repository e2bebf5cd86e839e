import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, expectErrorShape, newApp, outboxFor, tokenFor } from '#test/support/api.ts';
import { createMultipart, sigField, signer, type EnvelopeBody } from '#test/support/envelopes.ts';
import { passGates, settle, signing, tokenOf, valuesFor, type ContextBody } from '#test/support/signing.ts';

const DAY = 86_400;
const unique = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;
const subjects = async (address: string) => (await outboxFor(address)).map((m) => m.subject);

async function sentEnvelope(token: string, data: Record<string, unknown>) {
  const created = await createMultipart(token, { tenantId: 'reminders', subject: 'Lease', ...data });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const sent = await call<EnvelopeBody>('POST', `/v1/envelopes/${created.body.id}/send`, { token });
  expect(sent.status).toBe(200);
  await settle();
  return sent.body;
}

describe('reminders on the service clock (decision 37)', () => {
  it('reminds unsigned signers first after firstAfterDays, then every everyDays, never after signing or expiry', async () => {
    const app = await newApp('reminders');
    const ana = unique('ana');
    const ben = unique('ben');
    const cc = unique('cc');
    const envelope = await sentEnvelope(app.token, {
      expiresInDays: 10, reminders: { firstAfterDays: 2, everyDays: 3 }, cc: [{ name: 'Carla Copy', email: cc }],
      signers: [signer(ana, 1, { authMethod: 'none' }), signer(ben, 1, { authMethod: 'none' })], fields: [sigField(0), sigField(1)],
    });
    expect(envelope).toMatchObject({ reminders: { firstAfterDays: 2, everyDays: 3 }, cc: [{ name: 'Carla Copy', email: cc }] });
    expect(await subjects(ana)).toEqual(['Please sign: Lease']);

    await settle(2 * DAY - 600);
    expect(await subjects(ana)).toEqual(['Please sign: Lease']);
    await settle(1200);
    expect(await subjects(ana)).toEqual(['Please sign: Lease', 'Reminder: please sign Lease']);
    expect(await subjects(ben)).toEqual(['Please sign: Lease', 'Reminder: please sign Lease']);
    // The reminder carries the signer's own link, which still works
    const reminder = (await outboxFor(ben)).at(-1)?.text ?? '';
    const benLink = /\/sign\/(\S+)/.exec(reminder)?.[1] ?? '';
    expect(benLink).toBe(tokenOf(envelope.signers[1]?.signingUrl));
    await passGates(benLink, null);
    const context = await signing<ContextBody>('GET', benLink);
    expect((await signing('POST', benLink, '/sign', { fields: valuesFor(context.body) })).status).toBe(200);

    await settle(3 * DAY + 600); // day 5: Ana again, Ben signed
    expect((await subjects(ana)).filter((s) => s?.startsWith('Reminder'))).toHaveLength(2);
    expect((await subjects(ben)).filter((s) => s?.startsWith('Reminder'))).toHaveLength(1);
    await settle(3 * DAY); // day 8
    await settle(4 * DAY); // day 12: expired at day 10, no reminder at day 11
    expect((await subjects(ana)).filter((s) => s?.startsWith('Reminder'))).toHaveLength(3);

    const token = await tokenFor(app.clientId, app.clientSecret);
    const read = (await call<EnvelopeBody>('GET', `/v1/envelopes/${envelope.id}`, { token })).body;
    expect(read.status).toBe('expired');
    const reminded = read.auditLog?.filter((e) => e.event === 'signer.reminded').map((e) => e.detail?.email);
    expect(reminded?.filter((e) => e === ana)).toHaveLength(3);
    expect(reminded?.filter((e) => e === ben)).toHaveLength(1);
    // Expiry notices: every invited signer and the carbon copy
    for (const address of [ana, ben, cc]) expect(await subjects(address)).toContain('Expired: Lease');
  });

  it('the tenant default applies to envelopes created without reminders; null turns them off', async () => {
    const app = await newApp('default reminders');
    const put = await call('PUT', '/v1/console/tenants/reminders', { token: app.token, json: { defaultReminders: { firstAfterDays: 1, everyDays: null } } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ defaultReminders: { firstAfterDays: 1, everyDays: null } });
    expect((await call('PUT', '/v1/console/tenants/reminders', { token: app.token, json: { defaultReminders: { firstAfterDays: 61 } } })).status).toBe(400);
    const dee = unique('dee');
    const off = unique('off');
    const withDefault = await sentEnvelope(app.token, { signers: [signer(dee, 1, { authMethod: 'none' })], fields: [sigField(0)] });
    expect(withDefault).toMatchObject({ reminders: { firstAfterDays: 1, everyDays: null } });
    await sentEnvelope(app.token, { reminders: null, signers: [signer(off, 1, { authMethod: 'none' })], fields: [sigField(0)] });
    await settle(DAY + 600);
    await settle(5 * DAY);
    expect((await subjects(dee)).filter((s) => s?.startsWith('Reminder'))).toHaveLength(1);
    expect((await subjects(off)).filter((s) => s?.startsWith('Reminder'))).toHaveLength(0);
  });

  it('POST /remind reminds the current group now, at most once an hour per envelope (429)', async () => {
    const app = await newApp('manual remind');
    const eve = unique('eve');
    const later = unique('later');
    const envelope = await sentEnvelope(app.token, {
      signers: [signer(eve, 1, { authMethod: 'none' }), signer(later, 2, { authMethod: 'none' })], fields: [sigField(0), sigField(1)],
    });
    const first = await call<{ signers: { email: string }[] }>('POST', `/v1/envelopes/${envelope.id}/remind`, { token: app.token });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.signers.map((s) => s.email)).toEqual([eve]);
    await settle();
    expect(await subjects(eve)).toEqual(['Please sign: Lease', 'Reminder: please sign Lease']);
    expect(await subjects(later)).toEqual([]);
    const again = await call('POST', `/v1/envelopes/${envelope.id}/remind`, { token: app.token });
    expect(again.status).toBe(429);
    expectErrorShape(again.body, 'rate_limited', 429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    await settle(3600);
    const token = await tokenFor(app.clientId, app.clientSecret);
    expect((await call('POST', `/v1/envelopes/${envelope.id}/remind`, { token })).status).toBe(200);
    const audit = (await call<EnvelopeBody>('GET', `/v1/envelopes/${envelope.id}`, { token })).body.auditLog ?? [];
    expect(audit.filter((e) => e.event === 'signer.reminded').map((e) => e.detail?.manual)).toEqual([true, true]);
    const draft = await createMultipart(token, { tenantId: 'reminders', signers: [signer(unique('d'), 1)], fields: [sigField(0)] });
    expect((await call('POST', `/v1/envelopes/${draft.body.id}/remind`, { token })).status).toBe(400);
  });
});
