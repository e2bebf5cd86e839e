/**
 * Localisation over HTTP (decision 39): a signer's `locale`, the tenant's `defaultLocale`, unknown locales refused,
 * and the invitations in `/_local/outbox` written in each signer's language.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectErrorShape, newApp, outboxFor } from '#test/support/api.ts';
import { createMultipart, sigField, signer, type EnvelopeBody } from '#test/support/envelopes.ts';
import { passGates, settle, signing, tokenOf, valuesFor, type ContextBody } from '#test/support/signing.ts';

let token: string;
beforeAll(async () => { token = (await newApp('localisation')).token; });

const unique = (name: string) => `${name}.${String(Date.now())}.${String(Math.random()).slice(2, 8)}@example.com`;
type Signers = { locale: string; email: string }[];

describe('signer locale and tenant defaultLocale', () => {
  it('a French signer’s invitation is in French; one without a locale takes the tenant default (Japanese)', async () => {
    const tenantId = `loc-${randomUUID()}`;
    const put = await call('PUT', `/v1/console/tenants/${tenantId}`, { token, json: { defaultLocale: 'ja' } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ tenantId, defaultLocale: 'ja', retentionDays: 30 });
    expect((await call('GET', `/v1/console/tenants/${tenantId}`, { token })).body).toMatchObject({ defaultLocale: 'ja' });

    const [fr, ja] = [unique('amelie'), unique('haruto')];
    const created = await createMultipart(token, {
      tenantId, subject: 'Contrat de bail',
      signers: [signer(fr, 1, { name: 'Amélie Dubois', locale: 'fr' }), signer(ja, 1, { name: '佐藤 陽翔' })],
      fields: [sigField(0), sigField(1)],
    });
    expect(created.status).toBe(201);
    expect((created.body.signers as unknown as Signers).map((s) => s.locale)).toEqual(['fr', 'ja']);
    const sent = await call<EnvelopeBody>('POST', `/v1/envelopes/${created.body.id}/send`, { token, json: { message: 'Merci de signer avant vendredi' } });
    expect(sent.status).toBe(200);

    const [french] = await outboxFor(fr);
    expect(french?.subject).toBe('À signer : Contrat de bail');
    expect(french?.text).toContain('Bonjour Amélie Dubois,');
    expect(french?.text).toContain('Vous êtes invité(e) à signer Contrat de bail.');
    expect(french?.text).toMatch(/Il expire le \d{1,2} \S+ \d{4} à \d{2}:\d{2} UTC\./);
    expect(french?.html).toContain('Consulter et signer');
    const [japanese] = await outboxFor(ja);
    expect(japanese?.subject).toBe('署名のお願い：Contrat de bail');
    expect(japanese?.text).toMatch(/有効期限は \d{4}年\d{1,2}月\d{1,2}日 \d{1,2}:\d{2} UTC です。/);

    // The signing context gives the page the signer's locale
    const link = /\/sign\/(\S+)/.exec(french?.text ?? '')?.[1] ?? '';
    const context = await call<{ locale: string }>('GET', `/v1/signing/${link}`);
    expect(context.body.locale).toBe('fr');
  });

  it('a signer added later takes the tenant default at the envelope’s creation, or their own', async () => {
    const created = await createMultipart(token, { tenantId: 'acme-default', subject: 'Plain', signers: [signer(unique('en'))] });
    expect((created.body.signers as unknown as Signers)[0]?.locale).toBe('en');
    const added = await call<{ locale: string }>('POST', `/v1/envelopes/${created.body.id}/signers`, { token, json: { name: 'Kasia', email: unique('pl'), locale: 'pl' } });
    expect(added.status).toBe(201);
    expect(added.body.locale).toBe('pl');
  });

  it('refuses an unknown locale with a 400 and changes nothing', async () => {
    const tenantId = `loc-${randomUUID()}`;
    const bad = await call('PUT', `/v1/console/tenants/${tenantId}`, { token, json: { defaultLocale: 'tlh', retentionDays: 90 } });
    expect(bad.status).toBe(400);
    expectErrorShape(bad.body, 'validation_error', 400);
    expect((await call('GET', `/v1/console/tenants/${tenantId}`, { token })).body).toMatchObject({ defaultLocale: 'en', retentionDays: 30 });
    for (const locale of ['xx', 'fr-FR', 'DE', 7, null]) {
      const res = await createMultipart(token, { tenantId, signers: [signer(unique('x'), 1, { locale })] });
      expect(res.status, String(locale)).toBe(400);
      expectErrorShape(res.body, 'validation_error', 400);
      expect(JSON.stringify(res.body)).toContain('signers[0].locale');
    }
    const list = await call<{ total: number }>('GET', `/v1/envelopes?tenantId=${tenantId}`, { token });
    expect(list.body.total).toBe(0);
  });

  it('a German and a Japanese signer get their code, completion email and download page in their language', async () => {
    const [de, ja] = [unique('jana'), unique('sato')];
    const created = await createMultipart(token, {
      tenantId: 'loc-complete', subject: 'Liefervertrag',
      signers: [signer(de, 1, { name: 'Jana Müller', locale: 'de' }), signer(ja, 1, { name: '佐藤', locale: 'ja', authMethod: 'none' })],
      fields: [sigField(0), sigField(1)],
    });
    const sent = (await call<EnvelopeBody>('POST', `/v1/envelopes/${created.body.id}/send`, { token })).body;
    for (const [i, s] of sent.signers.entries()) {
      const link = tokenOf(s.signingUrl);
      await passGates(link, i === 0 ? de : null);
      expect((await signing('POST', link, '/sign', { fields: valuesFor((await signing<ContextBody>('GET', link)).body) })).status).toBe(200);
    }
    const code = (await outboxFor(de)).find((m) => m.subject?.startsWith('Ihr Code zum Unterschreiben: '));
    expect(code?.text).toContain('Er ist 10 Minuten gültig.');
    await settle();
    const german = (await outboxFor(de)).find((m) => m.subject === 'Abgeschlossen: Liefervertrag');
    expect(german?.text).toContain('Alle haben Liefervertrag unterschrieben. Das versiegelte Dokument ist angehängt.');
    const japanese = (await outboxFor(ja)).find((m) => m.subject === '完了：Liefervertrag');
    expect(japanese?.text).toMatch(/ダウンロードリンクは \d{4}年\d{1,2}月\d{1,2}日 まで有効です。/);
    for (const [mail, locale] of [[german, 'de'], [japanese, 'ja']] as const) {
      const portal = /\/download\/(\S+)/.exec(mail?.text ?? '')?.[1] ?? '';
      expect((await call<{ locale: string }>('GET', `/v1/download/${portal}`)).body.locale).toBe(locale);
    }
  });
});
