/**
 * The emails and SMS the service sends, in the recipient's locale (decision 39): the signer's, else the envelope's
 * (the tenant's default when it was created), else English. The words live in shared/i18n/<locale>.json.
 */
import { localeOf, type Locale } from '../i18n/locales.ts';
import { escapeHtml, formatDateTime, formatDay, html, text } from '../i18n/messages.ts';
import type { Envelope, Signer } from '../kernel/model.ts';
import { whoAsks } from './email-branding.ts';

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

/** The locale of a message to this signer (or to a recipient who is not one: the envelope's). */
export const recipientLocale = (envelope: Pick<Envelope, 'locale'>, signer?: Pick<Signer, 'locale'> | null): Locale =>
  localeOf(signer?.locale, envelope.locale);

/** The subject, or the locale's words for a document without one. */
export const titleOf = (envelope: Pick<Envelope, 'subject'>, locale: Locale, fallback: 'fallback.document' | 'fallback.yourDocument' | 'fallback.signedDocument' = 'fallback.document') =>
  envelope.subject ?? text(locale, fallback);

/** A link on its own paragraph. */
export const linkHtml = (url: string, label: string) => `<p><a href="${escapeHtml(url)}">${escapeHtml(label)}</a></p>`;

/** The invitation a signer receives when their routing group is reached. */
export function invitationEmail(envelope: Envelope, signer: Signer, url: string, expiresAt: Date, locale = recipientLocale(envelope, signer)): RenderedEmail {
  const title = titleOf(envelope, locale);
  const who = whoAsks(envelope, locale);
  const values = { name: signer.name, title, deadline: formatDateTime(locale, expiresAt), who: who ?? '' };
  const lead = who ? 'invitation.askedBy' : 'invitation.lead';
  const note = envelope.message ? `\n\n${text(locale, 'invitation.senderMessage')}\n${envelope.message}\n` : '';
  return {
    subject: text(locale, 'invitation.subject', values),
    text: `${text(locale, 'greeting', values)}\n\n${text(locale, lead, values)}${note}\n\n${text(locale, 'invitation.openLink')}\n${url}\n\n${text(locale, 'invitation.personal', values)}\n`,
    html: [
      `<p>${html(locale, 'greeting', values)}</p>`,
      `<p>${html(locale, lead, values)}</p>`,
      envelope.message ? `<blockquote>${escapeHtml(envelope.message)}</blockquote>` : '',
      linkHtml(url, text(locale, 'invitation.linkText')),
      `<p>${html(locale, 'invitation.personal', values)}</p>`,
    ].join('\n'),
  };
}

export function invitationSms(envelope: Envelope, url: string, locale = recipientLocale(envelope)): string {
  return text(locale, 'invitation.sms', { title: titleOf(envelope, locale), url });
}

export function otpEmail(envelope: Envelope, signer: Signer, code: string, minutes: number, locale = recipientLocale(envelope, signer)): RenderedEmail {
  const values = { name: signer.name, title: titleOf(envelope, locale), code, minutes };
  return {
    subject: text(locale, 'otp.subject', values),
    text: `${text(locale, 'greeting', values)}\n\n${text(locale, 'otp.lead', values)}\n${code}\n\n${text(locale, 'otp.validity', values)}\n`,
    html: `<p>${html(locale, 'greeting', values)}</p><p>${html(locale, 'otp.lead', values)}</p><p style="font-size:24px;letter-spacing:4px"><strong>${code}</strong></p><p>${html(locale, 'otp.validity', values)}</p>`,
  };
}

export const otpSms = (code: string, locale: Locale = 'en', minutes = 10) => text(locale, 'otp.sms', { code, minutes });

/** The completion email: the sealed copies attached, or a download link when they are too large to attach. */
export function completionEmail(
  envelope: Envelope, name: string, downloadLink: string, documents: readonly { name: string; sha256: string }[], attached: boolean, retentionUntil: string | null,
  locale = recipientLocale(envelope), lead: 'completion.lead' | 'completion.ccLead' = 'completion.lead',
): RenderedEmail {
  const values = { name, title: titleOf(envelope, locale, 'fallback.yourDocument'), count: documents.length, date: retentionUntil ? formatDay(locale, retentionUntil) : '' };
  const how = attached ? 'completion.attached' : 'completion.tooLarge';
  const until = retentionUntil ? `${text(locale, 'completion.availableUntil', values)}\n` : '';
  const prints = documents.map((d) => `  ${d.name}: ${d.sha256}`).join('\n');
  return {
    subject: text(locale, 'completion.subject', values),
    text: `${text(locale, 'greeting', values)}\n\n${text(locale, lead, values)} ${text(locale, how, values)} ${text(locale, 'completion.download', values)}\n${downloadLink}\n${until}\n${text(locale, 'completion.fingerprints', values)}\n${prints}\n${text(locale, 'completion.certificate')}\n`,
    html: [
      `<p>${html(locale, 'greeting', values)}</p>`,
      `<p>${html(locale, lead, values)} ${html(locale, how, values)}</p>`,
      linkHtml(downloadLink, text(locale, 'completion.linkText', values)),
      retentionUntil ? `<p>${html(locale, 'completion.availableUntil', values)}</p>` : '',
      `<p>${html(locale, 'completion.fingerprints', values)}</p>`,
      `<ul>${documents.map((d) => `<li>${escapeHtml(d.name)}: <code>${d.sha256}</code></li>`).join('')}</ul>`,
      `<p>${html(locale, 'completion.certificate')}</p>`,
    ].join('\n'),
  };
}

/** Before the retention period ends: download the signed copy while it is there. */
export function reminderEmail(envelope: Envelope, name: string, url: string, daysBefore: number, deletionAt: string, locale = recipientLocale(envelope)): RenderedEmail {
  const values = { name, title: titleOf(envelope, locale, 'fallback.signedDocument'), days: daysBefore, date: formatDateTime(locale, new Date(deletionAt)) };
  return {
    subject: text(locale, 'deletion.subject', values),
    text: `${text(locale, 'greeting', values)}\n\n${text(locale, 'deletion.lead', values)}\n${text(locale, 'deletion.download')}\n${url}\n`,
    html: `<p>${html(locale, 'greeting', values)}</p><p>${html(locale, 'deletion.lead', values)}</p><p>${html(locale, 'deletion.download')} <a href="${escapeHtml(url)}">${escapeHtml(text(locale, 'deletion.linkText'))}</a></p>`,
  };
}
