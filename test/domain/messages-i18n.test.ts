/**
 * The emails' and SMS catalogues (decision 39): every locale has English's keys with the same placeholders and tags,
 * no markup of its own; messages render in the signer's locale with its plurals and dates.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { createEnvelope, addSigner } from '#shared/envelopes/envelope.ts';
import { declinedNoticeEmail, expiredNoticeEmail, signingReminderEmail, signingReminderSms, voidedNoticeEmail, ccCompletionEmail } from '#shared/notices/localized-notices.ts';
import { completionEmail, invitationEmail, invitationSms, otpEmail, otpSms, recipientLocale, reminderEmail } from '#shared/notices/email-messages.ts';
import type { Envelope } from '#shared/kernel/model.ts';
import { CATALOGUES } from '#shared/i18n/messages.ts';
import { userInvitationEmail } from '#shared/console/user-invitation-email.ts';
import { LOCALES, localeOf } from '#shared/i18n/locales.ts';
import { literalsOf, placeholdersOf } from '#test/support/icu.ts';
import { letterDocument, withPages, signerInput, testCtx } from '#test/support/domain.ts';

const DIR = join(process.cwd(), 'shared', 'i18n');
const files = readdirSync(DIR).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, ''));
const english = CATALOGUES.en as Record<string, string>;

describe('server message catalogues', () => {
  it('exist for every supported locale, and only for those', () => {
    expect(files.sort()).toEqual([...LOCALES].sort());
    expect(Object.keys(CATALOGUES).sort()).toEqual([...LOCALES].sort());
  });

  for (const locale of LOCALES) {
    it(`${locale}: every English key, with the same placeholders and tags, and no markup of its own`, () => {
      const messages = JSON.parse(readFileSync(join(DIR, `${locale}.json`), 'utf8')) as Record<string, string>;
      expect(Object.keys(messages).sort()).toEqual(Object.keys(english).sort());
      for (const [key, message] of Object.entries(messages)) {
        expect(placeholdersOf(message), `${locale} ${key}`).toEqual(placeholdersOf(english[key] ?? ''));
        const literals = literalsOf(parse(message)).join('');
        expect(literals, `${locale} ${key}`).not.toMatch(/[<>&"]/);
        if (locale !== 'en') expect(message, `${locale} ${key} is translated`).not.toBe(english[key]);
      }
    });
  }
});

const T0 = new Date('2026-03-01T09:30:00.000Z');

function envelopeIn(locale: 'de' | 'ja' | 'fr', tenantDefault?: 'pl'): Envelope {
  const created = createEnvelope({
    id: '0190f5d2-0000-7000-8000-0000000000cc', appId: 'app', tenantId: 't', subject: 'Kaufvertrag', createdBy: null, expiresInDays: 7,
    fieldOrigin: 'bottom-left', locale: tenantDefault, signers: [signerInput('a@example.com', 1, { locale }), signerInput('b@example.com', 1)],
    fields: [], ...withPages(letterDocument()),
  }, testCtx(T0));
  return { ...created.after, message: 'Bitte bis Freitag' };
}

describe('messages in the signer’s locale', () => {
  it('a signer takes their own locale; one without takes the tenant default (else English); an added one too', () => {
    const envelope = envelopeIn('de', 'pl');
    expect(envelope.signers.map((s) => s.locale)).toEqual(['de', 'pl']);
    expect(envelopeIn('ja').signers.map((s) => s.locale)).toEqual(['ja', 'en']);
    const added = addSigner({ ...envelope, status: 'draft' }, signerInput('c@example.com'), testCtx(T0)).signer;
    expect(added.locale).toBe('pl');
    expect(localeOf(undefined, 'xx', null)).toBe('en');
    expect(recipientLocale({ locale: 'fr' })).toBe('fr');
  });

  it('German invitation: words, date format and the sender’s message', () => {
    const envelope = envelopeIn('de');
    const signer = envelope.signers[0]!;
    const mail = invitationEmail(envelope, signer, 'https://sign.example/sign/t0k', new Date('2026-03-08T14:05:00Z'));
    expect(mail.subject).toBe('Bitte unterschreiben: Kaufvertrag');
    expect(mail.text).toContain('Hallo a,');
    expect(mail.text).toContain('Sie wurden gebeten, Kaufvertrag zu unterschreiben.');
    expect(mail.text).toContain('Er läuft am 8. März 2026 um 14:05 UTC ab.');
    expect(mail.html).toContain('<strong>Kaufvertrag</strong>');
    expect(mail.html).toContain('<blockquote>Bitte bis Freitag</blockquote>');
    expect(invitationSms(envelope, 'https://x/s', signer.locale)).toBe('Sie wurden gebeten, Kaufvertrag zu unterschreiben: https://x/s');
    expect(otpEmail(envelope, signer, '123456', 1).text).toContain('Er ist 1 Minute gültig.');
    expect(otpEmail(envelope, signer, '123456', 10).text).toContain('Er ist 10 Minuten gültig.');
  });

  it('Japanese invitation: words, date format, plurals without plural forms', () => {
    const envelope = { ...envelopeIn('ja'), subject: '秘密保持契約', message: null };
    const signer = envelope.signers[0]!;
    const mail = invitationEmail(envelope, signer, 'https://sign.example/sign/t0k', new Date('2026-03-08T14:05:00Z'));
    expect(mail.subject).toBe('署名のお願い：秘密保持契約');
    expect(mail.text).toContain('a 様');
    expect(mail.text).toContain('有効期限は 2026年3月8日 14:05 UTC です。');
    expect(mail.html).not.toContain('blockquote');
    expect(otpSms('654321', 'ja', 10)).toBe('署名用コードは 654321 です。10分で有効期限が切れます。');
    const reminder = reminderEmail(envelope, 'Sato', 'https://x/d', 1, '2026-04-01T00:00:00Z', 'ja');
    expect(reminder.text).toContain('1日後（2026年4月1日 0:00 UTC）に削除されます');
  });

  it('plurals follow the locale’s rules (Polish few/many, English one/other)', () => {
    const envelope = envelopeIn('fr');
    expect(reminderEmail(envelope, 'A', 'https://x/d', 1, '2026-04-01T00:00:00Z', 'en').text).toContain('deleted in 1 day (');
    expect(reminderEmail(envelope, 'A', 'https://x/d', 10, '2026-04-01T00:00:00Z', 'en').text).toContain('deleted in 10 days (');
    expect(reminderEmail(envelope, 'A', 'https://x/d', 2, '2026-04-01T00:00:00Z', 'pl').text).toContain('za 2 dni (');
    expect(otpSms('1', 'pl', 2)).toContain('za 2 minuty.');
    expect(otpSms('1', 'pl', 5)).toContain('za 5 minut.');
    expect(otpSms('1', 'pl', 1)).toContain('za 1 minutę.');
    const docs = [{ name: 'a.pdf', sha256: 'aa' }, { name: 'b.pdf', sha256: 'bb' }];
    expect(completionEmail(envelope, 'A', 'https://x/d', docs, true, '2026-05-01', 'fr').text).toContain('Les documents scellés sont joints. Téléchargez-les ici :');
    expect(completionEmail(envelope, 'A', 'https://x/d', docs.slice(0, 1), false, null, 'fr').text).toContain('Le document scellé est trop volumineux pour être joint. Téléchargez-le ici :');
  });

  it('the reminders and notices render in every locale, values escaped in HTML', () => {
    const envelope = { ...envelopeIn('de'), subject: 'A <b> & C', voidReason: 'Falsche Fassung' };
    for (const locale of LOCALES) {
      const mails = [
        signingReminderEmail(envelope, 'Ana', 'https://x/s', new Date('2026-03-08T00:00:00Z'), T0, locale),
        voidedNoticeEmail(envelope, 'Ana', 'Falsche <Fassung>', locale),
        declinedNoticeEmail(envelope, 'Ana', 'Ben Okafor', null, locale),
        expiredNoticeEmail(envelope, 'Ana', locale),
        ccCompletionEmail(envelope, 'Ana', 'https://x/d', [{ name: 'a.pdf', sha256: 'aa' }], true, null, locale),
      ];
      for (const mail of mails) {
        expect(mail.subject, locale).toContain('A <b> & C');
        expect(mail.html, locale).toContain('A &lt;b&gt; &amp; C');
        expect(mail.html).not.toContain('<Fassung>');
      }
      expect(signingReminderSms(envelope, 'https://x/s', locale)).toContain('https://x/s');
    }
    const de = signingReminderEmail(envelope, 'Ana', 'https://x/s', new Date('2026-03-08T12:00:00Z'), T0, 'de');
    expect(de.text).toContain('Der Link läuft in 7 Tagen ab (8. März 2026 um 12:00 UTC).');
    expect(declinedNoticeEmail(envelope, 'Ana', 'Ben Okafor', 'Zu teuer', 'de').text).toContain('Ben Okafor hat die Unterschrift von A <b> & C abgelehnt');
    expect(declinedNoticeEmail(envelope, 'Ana', 'Ben Okafor', 'Zu teuer', 'de').text).toContain('Begründung: Zu teuer');
    expect(voidedNoticeEmail(envelope, 'Ana', 'Falsche Fassung', 'fr').text).toContain('Motif indiqué : Falsche Fassung');
  });
});

describe('the console invitation', () => {
  const invite = { applicationName: 'Müller & Söhne', consoleUrl: 'https://sign.example.com/app/', email: 'erika@example.com', temporaryPassword: 'Xy7-<pw>' };
  it('is in German when asked for, the values escaped in HTML', () => {
    const mail = userInvitationEmail({ ...invite, name: 'Erika', locale: 'de' });
    expect(mail.subject).toBe('Ihre Einladung zu Müller & Söhne');
    expect(mail.text).toBe('Hallo Erika,\n\nSie wurden zur Versandkonsole von Müller & Söhne eingeladen.\n\nMelden Sie sich hier an: https://sign.example.com/app/\n'
      + 'E-Mail: erika@example.com\nVorläufiges Passwort: Xy7-<pw>\n\nWählen Sie bei der ersten Anmeldung Ihr eigenes Passwort.\n');
    expect(mail.html).toContain('<p>Sie wurden zur Versandkonsole von <strong>Müller &amp; Söhne</strong> eingeladen.</p>');
    expect(mail.html).toContain('<a href="https://sign.example.com/app/">Anmelden</a>');
    expect(mail.html).toContain('Vorläufiges Passwort: Xy7-&lt;pw&gt;');
  });

  it('greets without a name, in every language', () => {
    for (const locale of LOCALES) {
      const mail = userInvitationEmail({ ...invite, name: null, locale });
      expect(mail.text.split('\n')[0], locale).toBe(CATALOGUES[locale]['consoleInvite.hello']);
      expect(mail.text, locale).toContain('Xy7-<pw>');
    }
  });
});
