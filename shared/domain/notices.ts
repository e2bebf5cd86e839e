/**
 * The texts of reminders and notices (ADDITIONS A7), in English; kept apart from the logic that sends them so that
 * they can be localised without touching it.
 */
import type { RenderedEmail } from './messages.ts';
import type { Envelope, Signer } from './model.ts';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const titleOf = (envelope: Envelope) => envelope.subject ?? 'a document';

/** A reminder to a signer who has not signed yet, with their signing link. */
export function signingReminderEmail(envelope: Envelope, signer: Signer, url: string, expiresAt: Date): RenderedEmail {
  const title = titleOf(envelope);
  const deadline = expiresAt.toUTCString();
  return {
    subject: `Reminder: please sign ${title}`,
    text: `Hello ${signer.name},\n\nThis is a reminder that ${title} is waiting for your signature.\n\nOpen this link to review and sign:\n${url}\n\nThe link is personal; do not forward it. It expires ${deadline}.\n`,
    html: [
      `<p>Hello ${escapeHtml(signer.name)},</p>`,
      `<p>This is a reminder that <strong>${escapeHtml(title)}</strong> is waiting for your signature.</p>`,
      `<p><a href="${escapeHtml(url)}">Review and sign</a></p>`,
      `<p>The link is personal; do not forward it. It expires ${escapeHtml(deadline)}.</p>`,
    ].join('\n'),
  };
}

export function signingReminderSms(envelope: Envelope, url: string): string {
  return `Reminder: ${titleOf(envelope)} is waiting for your signature: ${url}`;
}

function notice(name: string, subject: string, lines: string[]): RenderedEmail {
  return {
    subject,
    text: `Hello ${name},\n\n${lines.join('\n\n')}\n`,
    html: [`<p>Hello ${escapeHtml(name)},</p>`, ...lines.map((line) => `<p>${escapeHtml(line)}</p>`)].join('\n'),
  };
}

/** The sender voided the envelope: nobody can sign it any more. */
export function voidedNoticeEmail(envelope: Envelope, name: string, reason: string | null): RenderedEmail {
  const title = titleOf(envelope);
  return notice(name, `Voided: ${title}`, [
    `The sender has voided ${title}. It can no longer be signed, and no action is needed from you.`,
    ...(reason ? [`Reason given: ${reason}`] : []),
  ]);
}

/** A signer declined: the envelope ends unsigned. */
export function declinedNoticeEmail(envelope: Envelope, name: string, declinedBy: string, reason: string | null): RenderedEmail {
  const title = titleOf(envelope);
  return notice(name, `Declined: ${title}`, [
    `${declinedBy} has declined to sign ${title}. The envelope is closed and can no longer be signed.`,
    ...(reason ? [`Reason given: ${reason}`] : []),
  ]);
}

/** The deadline passed before everyone signed. */
export function expiredNoticeEmail(envelope: Envelope, name: string): RenderedEmail {
  const title = titleOf(envelope);
  return notice(name, `Expired: ${title}`, [
    `${title} expired on ${new Date(envelope.expiresAt).toUTCString()} before everyone had signed. It can no longer be signed; the sender may send it again.`,
  ]);
}
