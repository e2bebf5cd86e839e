import type { Envelope, Signer } from './model.ts';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

/** The invitation a signer receives when their routing group is reached. */
export function invitationEmail(envelope: Envelope, signer: Signer, url: string, expiresAt: Date): RenderedEmail {
  const title = envelope.subject ?? 'a document';
  const deadline = expiresAt.toUTCString();
  const note = envelope.message ? `\n\nMessage from the sender:\n${envelope.message}\n` : '';
  const text = `Hello ${signer.name},\n\nYou have been asked to sign ${title}.${note}\n\nOpen this link to review and sign:\n${url}\n\nThe link is personal; do not forward it. It expires ${deadline}.\n`;
  const html = [
    `<p>Hello ${escapeHtml(signer.name)},</p>`,
    `<p>You have been asked to sign <strong>${escapeHtml(title)}</strong>.</p>`,
    envelope.message ? `<blockquote>${escapeHtml(envelope.message)}</blockquote>` : '',
    `<p><a href="${escapeHtml(url)}">Review and sign</a></p>`,
    `<p>The link is personal; do not forward it. It expires ${escapeHtml(deadline)}.</p>`,
  ].join('\n');
  return { subject: `Please sign: ${title}`, text, html };
}

export function invitationSms(envelope: Envelope, url: string): string {
  return `You have been asked to sign ${envelope.subject ?? 'a document'}: ${url}`;
}

export function otpEmail(envelope: Envelope, signer: Signer, code: string, minutes: number): RenderedEmail {
  const title = envelope.subject ?? 'a document';
  return {
    subject: `Your signing code: ${code}`,
    text: `Hello ${signer.name},\n\nYour one-time code to sign ${title} is ${code}. It is valid for ${String(minutes)} minutes.\nIf you did not ask for it, ignore this email.\n`,
    html: `<p>Hello ${escapeHtml(signer.name)},</p><p>Your one-time code to sign <strong>${escapeHtml(title)}</strong> is</p><p style="font-size:24px;letter-spacing:4px"><strong>${code}</strong></p><p>It is valid for ${String(minutes)} minutes. If you did not ask for it, ignore this email.</p>`,
  };
}

export const otpSms = (code: string) => `Your signing code is ${code}. It expires in 10 minutes.`;

/** The completion email: the sealed copies attached, or a download link when they are too large to attach. */
export function completionEmail(
  envelope: Envelope, name: string, downloadLink: string, documents: readonly { name: string; sha256: string }[], attached: boolean, retentionUntil: string | null,
): RenderedEmail {
  const title = envelope.subject ?? 'your document';
  const until = retentionUntil ? ` until ${retentionUntil}` : '';
  const several = documents.length > 1;
  const what = several ? 'The sealed documents are' : 'The sealed document is';
  const how = attached
    ? `${what} attached. You can also download ${several ? 'them' : 'it'}${until}:\n${downloadLink}\n`
    : `${what} too large to attach. Download ${several ? 'them' : 'it'}${until}:\n${downloadLink}\n`;
  const prints = several
    ? `SHA-256 fingerprints:\n${documents.map((d) => `  ${d.name}: ${d.sha256}`).join('\n')}\nThe last pages of each are the audit certificate.`
    : `Its SHA-256 fingerprint is ${documents[0]?.sha256 ?? ''}; the last pages are the audit certificate.`;
  const text = `Hello ${name},\n\nEveryone has signed ${title}. ${how}\n${prints}\n`;
  const html = [
    `<p>Hello ${escapeHtml(name)},</p>`,
    `<p>Everyone has signed <strong>${escapeHtml(title)}</strong>.</p>`,
    attached
      ? `<p>${what} attached. You can also <a href="${escapeHtml(downloadLink)}">download ${several ? 'them' : 'it'}</a>${escapeHtml(until)}.</p>`
      : `<p>${what} too large to attach: <a href="${escapeHtml(downloadLink)}">download ${several ? 'them' : 'it'}</a>${escapeHtml(until)}.</p>`,
    `<ul>${documents.map((d) => `<li>${escapeHtml(d.name)}: SHA-256 <code>${d.sha256}</code></li>`).join('')}</ul>`,
    '<p>The last pages of each document are the audit certificate.</p>',
  ].join('\n');
  return { subject: `Completed: ${title}`, text, html };
}

export function reminderEmail(envelope: Envelope, name: string, url: string, daysBefore: number, deletionAt: string): RenderedEmail {
  const title = envelope.subject ?? 'your signed document';
  const when = new Date(deletionAt).toUTCString();
  const days = daysBefore === 1 ? '1 day' : `${String(daysBefore)} days`;
  return {
    subject: `Download before it is deleted: ${title}`,
    text: `Hello ${name},\n\nThe signed copy of ${title} will be deleted in ${days} (${when}).\nDownload it here before then:\n${url}\n`,
    html: `<p>Hello ${escapeHtml(name)},</p><p>The signed copy of <strong>${escapeHtml(title)}</strong> will be deleted in ${days} (${escapeHtml(when)}).</p><p><a href="${escapeHtml(url)}">Download it</a> before then.</p>`,
  };
}
