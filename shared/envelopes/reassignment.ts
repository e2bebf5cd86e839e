/**
 * Reassignment: someone else takes a signer's place. The slot (id, fields, routing order) stays; the identity and
 * everything bound to the old one goes: links (the version is bumped, the hash cleared), the embedded ticket, the
 * one-time code and its verification, consent. Pure: the use case mints the new person's link.
 */
import type { AuditDraft } from '../kernel/audit-chain.ts';
import { changeOf, type Ctx, type EnvelopeChange } from '../kernel/change.ts';
import { Conflict, InvalidState, NotFound, ValidationError } from '../kernel/errors.ts';
import type { AuthMethod, Envelope, Signer } from '../kernel/model.ts';
import type { Locale } from '../i18n/locales.ts';
import type { EventOutboxItem } from '../notices/outbox.ts';
import { replacedNoticeItems } from '../notices/notice-items.ts';

export interface ReassignInput {
  name: string;
  email: string;
  phone?: string | null | undefined;
  /** Absent: the slot's own (an SMS code without a phone becomes an email code). */
  authMethod?: AuthMethod | undefined;
  /** Absent: the slot's own. */
  locale?: Locale | undefined;
  reason?: string | null | undefined;
}

export type ReassignedBy = 'sender' | 'signer';

/** The identity fields a reassignment replaces, and the rest of the slot's state started afresh. */
function newIdentity(signer: Signer, input: ReassignInput): Signer {
  const phone = input.phone ?? null;
  const wanted = input.authMethod ?? signer.authMethod;
  const authMethod: AuthMethod = wanted === 'sms_otp' && phone === null ? 'email_otp' : wanted;
  return {
    ...signer, name: input.name, email: input.email, phone, authMethod, locale: input.locale ?? signer.locale,
    // Invited again below when the slot's group is current; a pending slot waits for its group as before.
    status: signer.status === 'pending' ? 'pending' : 'sent',
    tokenVersion: signer.tokenVersion + 1, linkHash: null, link: null, embedTicket: null,
    viewedAt: null, otp: null, otpRequests: [], otpVerifiedAt: null, otpUsage: null, consentedAt: null,
    invitedAt: null, lastRemindedAt: null,
  };
}

/**
 * Hands the signer's slot to `input`'s person: only while the envelope is sent or in progress (400 otherwise) and the
 * signer has neither signed nor declined (409). `invite` is true when the new person is to be invited now.
 */
export function reassignSigner(
  envelope: Envelope, signerId: string, input: ReassignInput, by: ReassignedBy, ctx: Ctx,
): { change: EnvelopeChange; signer: Signer; invite: boolean } {
  const signer = envelope.signers.find((s) => s.id === signerId);
  if (!signer) throw new NotFound('Signer not found on this envelope');
  if (signer.status === 'signed') throw new Conflict('Cannot reassign: the signer has already signed', {}, 'already_signed');
  if (signer.status === 'declined') throw new Conflict('Cannot reassign: the signer has declined', {}, 'already_declined');
  if (envelope.status !== 'sent' && envelope.status !== 'in_progress') throw new InvalidState(`Cannot reassign: the envelope is ${envelope.status}`);
  if (input.authMethod === 'sms_otp' && !input.phone) throw ValidationError.at('phone', 'is required when authMethod is sms_otp');
  const email = input.email.toLowerCase();
  if (envelope.signers.some((s) => s.id !== signer.id && s.email.toLowerCase() === email)) {
    throw ValidationError.at('email', 'another signer of this envelope has this email');
  }
  if (signer.email.toLowerCase() === email) throw ValidationError.at('email', 'is the signer\'s own: name another person');
  const replaced = newIdentity(signer, input);
  const after: Envelope = { ...envelope, signers: envelope.signers.map((s) => (s.id === signer.id ? replaced : s)) };
  const reason = input.reason ?? null;
  const draft: AuditDraft = {
    event: 'signer.reassigned', actor: by === 'signer' ? `signer:${signer.id}` : 'system', ip: ctx.meta.ip, userAgent: ctx.meta.userAgent,
    detail: { signerId: signer.id, from: { name: signer.name, email: signer.email }, to: { name: replaced.name, email: replaced.email }, by, reason },
  };
  const invite = replaced.status === 'sent';
  const invited: AuditDraft[] = invite ? [{
    event: 'signer.invited', actor: 'system', ip: ctx.meta.ip, userAgent: ctx.meta.userAgent,
    detail: { signerId: signer.id, email: replaced.email, routingOrder: signer.routingOrder, reassigned: true },
  }] : [];
  const event: EventOutboxItem = { kind: 'event', id: ctx.nextId(), envelopeId: envelope.id, event: 'signer.reassigned', createdAt: ctx.now.toISOString(), signerId: signer.id };
  // The person who no longer signs hears of it, as others hear of a void (their link stopped working just now)
  const told = replacedNoticeItems(envelope, signer, reason, ctx);
  return { change: changeOf(envelope, after, [draft, ...invited], [event, ...told], ctx), signer: replaced, invite };
}
