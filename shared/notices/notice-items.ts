/**
 * Notices when an envelope ends early (decision 38): every signer who was invited (not embedded) and every carbon
 * copy is told it was voided (with the reason), declined (by whom, why) or expired. Queued in the outbox of the
 * change that ended it, so they go out exactly when it stands. The sender hears of a signer's locked link likewise.
 */
import type { Ctx } from '../kernel/change.ts';
import type { Envelope, Signer } from '../kernel/model.ts';
import type { NoticeKind, NoticeOutboxItem } from './outbox.ts';

/** Who hears of it: invited signers (not the one who declined) and carbon copies, once per address. */
export function noticeRecipients(envelope: Envelope, except: string | null = null): { name: string; email: string }[] {
  if (!envelope.sentAt) return [];
  const signers = envelope.signers.filter((s) => s.status !== 'pending' && !s.embedded && s.id !== except);
  const seen = new Set<string>();
  return [...signers, ...(envelope.cc ?? [])].flatMap(({ name, email }) => {
    const key = email.toLowerCase();
    if (seen.has(key)) return [];
    seen.add(key);
    return [{ name, email }];
  });
}

/** The notice item, or none when nobody was told of the envelope yet (a draft's void). */
export function noticeItems(
  envelope: Envelope, notice: NoticeKind, ctx: Ctx, detail: { reason?: string | null; declinedBy?: { id: string; name: string } } = {},
): NoticeOutboxItem[] {
  const recipients = noticeRecipients(envelope, detail.declinedBy?.id ?? null);
  if (recipients.length === 0) return [];
  return [{
    kind: 'notify', template: 'notice', id: ctx.nextId(), envelopeId: envelope.id, createdAt: ctx.now.toISOString(),
    notice, reason: detail.reason ?? null, declinedBy: detail.declinedBy?.name ?? null, recipients,
  }];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The envelope's sender, where it has one to write to: its `sender` with an email, else `createdBy`, the caller's
 * user identifier, when it is an email address.
 */
export function senderOf(envelope: Envelope): { name: string; email: string } | null {
  if (envelope.sender?.email) return { name: envelope.sender.name, email: envelope.sender.email };
  const createdBy = envelope.createdBy?.trim() ?? '';
  return EMAIL.test(createdBy) ? { name: createdBy, email: createdBy } : null;
}

/** A notice to the sender about one signer (their link was locked), or none when the envelope names no sender address. */
export function senderNoticeItems(envelope: Envelope, notice: 'otp_locked', signer: { name: string; email: string }, ctx: Ctx): NoticeOutboxItem[] {
  const sender = senderOf(envelope);
  if (!sender) return [];
  return [{
    kind: 'notify', template: 'notice', id: ctx.nextId(), envelopeId: envelope.id, createdAt: ctx.now.toISOString(),
    notice, reason: null, declinedBy: null, lockedSigner: { name: signer.name, email: signer.email }, recipients: [sender],
  }];
}

/**
 * To the person whose place was handed to someone else: they no longer need to sign, in their own language. None
 * when they were never invited (a later group's slot, or an embedded signer the application shows the page to).
 */
export function replacedNoticeItems(envelope: Envelope, replaced: Signer, reason: string | null, ctx: Ctx): NoticeOutboxItem[] {
  if (!envelope.sentAt || replaced.status === 'pending' || replaced.embedded) return [];
  return [{
    kind: 'notify', template: 'notice', id: ctx.nextId(), envelopeId: envelope.id, createdAt: ctx.now.toISOString(),
    notice: 'reassigned', reason, declinedBy: null, locale: replaced.locale ?? null, recipients: [{ name: replaced.name, email: replaced.email }],
  }];
}
