import { describe, expect, it } from 'vitest';
import { call, newApp, outboxFor, tokenFor } from '#test/support/api.ts';
import { readyDraft, sigField, signer, type EnvelopeBody } from '#test/support/envelopes.ts';
import { passGates, settle, signing, tokenOf, valuesFor, type ContextBody } from '#test/support/signing.ts';

const DAY = 86_400;
const unique = (name: string) => `${name}.${String(Date.now())}@example.com`;
const reminders = async (address: string) => (await outboxFor(address)).filter((m) => m.subject?.startsWith('Download before it is deleted'));

describe('retention, deletion reminders and purge on the service clock', () => {
  it('reminds on days 10, 20 and 29 whoever has not downloaded, purges on day 30, and keeps the evidence', async () => {
    const app = await newApp('retention');
    const settings = await call('PUT', '/v1/console/tenants/keep30', { token: app.token, json: { retentionDays: 30 } });
    expect(settings.body).toMatchObject({ tenantId: 'keep30', retentionDays: 30, defaultExpiresInDays: 30, fieldOrigin: 'bottom-left' });
    expect((await call('PUT', '/v1/console/tenants/keep30', { token: app.token, json: { retentionDays: 31 } })).status).toBe(400);

    const [keeper, downloader] = [unique('keeper'), unique('downloader')];
    const draft = await readyDraft(app.token, 'keep30', {
      signers: [signer(keeper, 1, { authMethod: 'none' }), signer(downloader, 1, { authMethod: 'none' })], fields: [sigField(0), sigField(1)],
    });
    const sent = (await call<EnvelopeBody>('POST', `/v1/envelopes/${draft.id}/send`, { token: app.token })).body;
    for (const s of sent.signers) {
      const link = tokenOf(s.signingUrl);
      await passGates(link, null);
      await signing('POST', link, '/sign', { fields: valuesFor((await signing<ContextBody>('GET', link)).body) });
    }
    await settle();
    const completed = (await call<EnvelopeBody>('GET', `/v1/envelopes/${draft.id}`, { token: app.token })).body;
    expect(completed.status).toBe('completed');
    expect(completed.documents.map((d) => d.retentionUntil)).toEqual([completed.documents[0]?.retentionUntil, completed.documents[0]?.retentionUntil]);

    const portal = (address: string) => outboxFor(address).then((m) => /\/download\/(\S+)/.exec(m.find((x) => x.subject?.startsWith('Completed'))?.text ?? '')?.[1] ?? '');
    const [keeperLink, downloaderLink] = [await portal(keeper), await portal(downloader)];
    expect((await call('GET', `/v1/download/${downloaderLink}/document`)).status).toBe(200);

    for (const [days, expected] of [[10, 1], [10, 2], [9, 3]] as const) {
      await settle(days * DAY);
      expect((await reminders(keeper)).length, `after ${String(days)} more days`).toBe(expected);
    }
    expect((await reminders(keeper)).map((m) => (/deleted in (\d+ days?)/.exec(m.text))?.[1])).toEqual(['20 days', '10 days', '1 day']);
    expect(await reminders(downloader)).toEqual([]);
    await settle();
    expect(await reminders(keeper)).toHaveLength(3);
    expect((await call('GET', `/v1/download/${keeperLink}`)).status).toBe(200);

    await settle(DAY + 120);
    const gone = await call('GET', `/v1/download/${keeperLink}`);
    expect(gone.status).toBe(410);
    expect(gone.body).toMatchObject({ error: 'gone' });
    expect((await call('GET', `/v1/download/${keeperLink}/document`)).status).toBe(410);
    const token = await tokenFor(app.clientId, app.clientSecret);
    const purged = (await call<EnvelopeBody>('GET', `/v1/envelopes/${draft.id}`, { token })).body;
    expect(purged.documents.map((d) => [d.purgeStatus, d.purge_status])).toEqual([['purged', 'purged'], ['purged', 'purged']]);
    expect(purged.documentHashFinal).toMatch(/^[0-9a-f]{64}$/);
    const events = purged.auditLog?.map((e) => e.event) ?? [];
    expect(events.filter((e) => e === 'document.purge_reminder_sent')).toHaveLength(3);
    expect(events.filter((e) => e === 'document.purged')).toHaveLength(2);
    expect(events).toContain('document.downloaded');
    expect((await call('GET', `/v1/envelopes/${draft.id}/audit/verify`, { token })).body).toMatchObject({ valid: true });
    const sealed = await call('GET', `/v1/envelopes/${draft.id}/document?kind=sealed`, { token });
    expect(sealed.status).toBe(410);
    expect(sealed.body).toMatchObject({ error: 'gone' });
  }, 120_000);
});
