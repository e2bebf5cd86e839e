/**
 * Reminders and notices in the recipient's locale (decision 37, decision 38, decision 39): signing reminders (email and SMS), the notices of a
 * voided, declined or expired envelope or a locked signing link, and the carbon-copy completion email. Each takes the recipient's locale last
 * (`recipientLocale(envelope, signer)`); the words live in shared/i18n/<locale>.json.
 */
import type { Locale } from '../i18n/locales.ts';
import { formatDateTime, formatDay, html, text, type MessageKey, type Values } from '../i18n/messages.ts';
import { completionEmail, linkHtml, titleOf, type RenderedEmail } from './email-messages.ts';
import type { Envelope } from '../kernel/model.ts';
import { whoAsks } from './email-branding.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A reminder to a signer who has not signed yet, with the days left before their link expires. */
export function signingReminderEmail(envelope: Envelope, recipientName: string, url: string, expiresAt: Date, now: Date, locale: Locale): RenderedEmail {
  const values = {
    name: recipientName, title: titleOf(envelope, locale), deadline: formatDateTime(locale, expiresAt),
    days: Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / DAY_MS)), who: whoAsks(envelope, locale) ?? '',
  };
  const lead = values.who ? 'reminder.askedBy' : 'reminder.lead';
  return {
    subject: text(locale, 'reminder.subject', values),
    text: `${text(locale, 'greeting', values)}\n\n${text(locale, lead, values)}\n\n${text(locale, 'invitation.openLink')}\n${url}\n\n${text(locale, 'reminder.deadline', values)}\n`,
    html: [
      `<p>${html(locale, 'greeting', values)}</p>`,
      `<p>${html(locale, lead, values)}</p>`,
      linkHtml(url, text(locale, 'invitation.linkText')),
      `<p>${html(locale, 'reminder.deadline', values)}</p>`,
    ].join('\n'),
  };
}

export function signingReminderSms(envelope: Envelope, url: string, locale: Locale): string {
  return text(locale, 'reminder.sms', { title: titleOf(envelope, locale), url });
}

/** A notice: greeting, what happened, an optional quoted reason line, and that nothing more is needed (or what to do). */
function notice(
  locale: Locale, subject: MessageKey, lead: MessageKey, values: Values, reason: { key: MessageKey; value: string | null } | null,
  closing: MessageKey = 'notice.nothingToDo',
): RenderedEmail {
  const why = reason ? [reason.key, { ...values, reason: reason.value ?? '' }] as const : null;
  return {
    subject: text(locale, subject, values),
    text: [
      text(locale, 'greeting', values), '', text(locale, lead, values),
      ...(why ? [text(locale, ...why)] : []), '', text(locale, closing, values), '',
    ].join('\n'),
    html: [
      `<p>${html(locale, 'greeting', values)}</p>`,
      `<p>${html(locale, lead, values)}</p>`,
      why ? `<p>${html(locale, ...why)}</p>` : '',
      `<p>${html(locale, closing, values)}</p>`,
    ].join('\n'),
  };
}

/** The envelope was voided: with the sender's reason (`envelope.voidReason`). */
export function voidedNoticeEmail(envelope: Envelope, recipientName: string, reason: string | null, locale: Locale): RenderedEmail {
  const values = { name: recipientName, title: titleOf(envelope, locale) };
  return notice(locale, 'notice.voided.subject', 'notice.voided.lead', values, reason ? { key: 'notice.voided.reason', value: reason } : null);
}

/** A signer declined: who, and their reason (or that they gave none). */
export function declinedNoticeEmail(envelope: Envelope, recipientName: string, declinerName: string, reason: string | null, locale: Locale): RenderedEmail {
  const values = { name: recipientName, title: titleOf(envelope, locale), decliner: declinerName };
  return notice(locale, 'notice.declined.subject', 'notice.declined.lead', values,
    reason ? { key: 'notice.declined.reason', value: reason } : { key: 'notice.declined.noReason', value: null });
}

/** The signing deadline passed before everyone signed. */
export function expiredNoticeEmail(envelope: Envelope, recipientName: string, locale: Locale): RenderedEmail {
  const values = { name: recipientName, title: titleOf(envelope, locale), date: formatDay(locale, envelope.expiresAt) };
  return notice(locale, 'notice.expired.subject', 'notice.expired.lead', values, null);
}

/** To the sender: a signer's link was locked after too many one-time codes, and a resend unlocks it. */
export function otpLockedNoticeEmail(envelope: Envelope, recipientName: string, signer: { name: string; email: string }, locale: Locale): RenderedEmail {
  const values = { name: recipientName, title: titleOf(envelope, locale), signer: signer.name, email: signer.email };
  return notice(locale, 'notice.otpLocked.subject', 'notice.otpLocked.lead', values, null, 'notice.otpLocked.action');
}

/** To the person whose place was handed to someone else: they need not sign any more (with the reason, if given). */
export function reassignedNoticeEmail(envelope: Envelope, recipientName: string, reason: string | null, locale: Locale): RenderedEmail {
  const values = { name: recipientName, title: titleOf(envelope, locale) };
  return notice(locale, 'notice.reassigned.subject', 'notice.reassigned.lead', values, reason ? { key: 'notice.reassigned.reason', value: reason } : null);
}

/** The completion email to a carbon-copy recipient: the same copies and link, saying why they receive it. */
export function ccCompletionEmail(
  envelope: Envelope, recipientName: string, downloadLink: string, documents: readonly { name: string; sha256: string }[], attached: boolean, retentionUntil: string | null, locale: Locale,
): RenderedEmail {
  return completionEmail(envelope, recipientName, downloadLink, documents, attached, retentionUntil, locale, 'completion.ccLead');
}

