import { noticeItems } from '../notices/notice-items.ts';
import type { AuditDraft } from '../kernel/audit-chain.ts';
import { changeOf, retentionJob, type Ctx, type EnvelopeChange } from '../envelopes/envelope.ts';
import { startRetention } from '../retention/retention.ts';
import { Conflict, Gone, InvalidState, RateLimited, Unauthorized } from '../kernel/errors.ts';
import type { Envelope, Signer } from '../kernel/model.ts';
import { beginSealing } from '../envelopes/completion.ts';
import type { EventOutboxItem, JobOutboxItem, WebhookEventName } from '../notices/outbox.ts';
import type { Submission } from './submission.ts';
import { lockOtp, otpLocked, otpUsageOf, OTP_LIFETIME_CODES, OTP_LIFETIME_WRONG_TRIES } from './otp-budget.ts';

export const OTP_TTL_SECONDS = 600;
export const OTP_MAX_FAILURES = 3;
export const OTP_REQUEST_LIMIT = 5;
export const OTP_REQUEST_WINDOW_SECONDS = 600;

/** The electronic-records disclosure a signer consents to; its version goes into the audit trail. */
export const CONSENT_DISCLOSURE = {
  version: '2026-01',
  text:
    'By continuing you agree to sign this document electronically. Your electronic signature has the same effect as a ' +
    'handwritten one. You can decline instead, or ask the sender for a paper copy. Your name, email address, IP address, ' +
    'browser and the time of each step are recorded in the audit trail of this document.',
} as const;

/** The signing steps a link can be used for; each has its own gate. */
export type SigningStep = 'context' | 'otp' | 'consent' | 'sign' | 'decline' | 'document' | 'reassign';

export const requiresOtp = (signer: Signer) => signer.authMethod !== 'none';
export const otpCleared = (signer: Signer) => !requiresOtp(signer) || signer.otpVerifiedAt !== null;

/**
 * Who may take `step` (decision 14): a voided or expired envelope makes every link 401;
 * a signer who signed or declined has used the link (410, or 409 for sign and decline); a declined envelope
 * closes the other links (401); a link locked after too many wrong codes answers 401 for every step until the sender
 * resends it; then OTP (where required) and consent gate the later steps (401).
 */
export function assertGate(envelope: Envelope, signer: Signer, step: SigningStep): void {
  if (envelope.status === 'voided') {
    // The signing page shows the message on its voided screen, so the signer reads the sender's reason (decision 38)
    const reason = envelope.voidReason ? ` Reason given by the sender: ${envelope.voidReason}` : '';
    throw new Unauthorized(`This signing link is no longer valid: the envelope was voided.${reason}`, {}, 'envelope_voided');
  }
  if (envelope.status === 'expired') throw new Unauthorized('This signing link has expired: the signing deadline passed', {}, 'envelope_expired');
  if (signer.status === 'signed' || signer.status === 'declined') {
    const what = signer.status === 'signed' ? 'signed' : 'declined';
    const reason = signer.status === 'signed' ? 'already_signed' : 'already_declined';
    if (step === 'sign' || step === 'decline' || step === 'reassign') throw new Conflict(`You have already ${what} this document`, {}, reason);
    throw new Gone(`This signing link has been used: you already ${what}`, {}, reason);
  }
  if (envelope.status !== 'sent' && envelope.status !== 'in_progress') {
    throw new Unauthorized(`This signing link is no longer valid: the envelope is ${envelope.status}`, {}, envelope.status === 'declined' ? 'envelope_declined' : 'envelope_completed');
  }
  if (signer.status === 'pending') throw new Unauthorized('This signing link is not valid yet', {}, 'link_not_yet_valid');
  if (otpLocked(signer)) throw new Unauthorized(OTP_LOCKED_MESSAGE, {}, 'otp_locked');
  const needsOtp = step === 'consent' || step === 'sign' || step === 'decline' || step === 'document' || step === 'reassign';
  if (needsOtp && !otpCleared(signer)) throw new Unauthorized('Verify the one-time code first', {}, 'otp_required');
  if (step === 'sign' && signer.consentedAt === null) throw new Unauthorized('Give consent to sign electronically first', {}, 'consent_required');
}

const signerActor = (signer: Signer, ctx: Ctx, event: AuditDraft['event'], detail: AuditDraft['detail'] = null): AuditDraft => ({
  event, actor: `signer:${signer.id}`, ip: ctx.meta.ip, userAgent: ctx.meta.userAgent, detail,
});

function signerEvent(envelope: Envelope, event: WebhookEventName, signer: Signer | null, ctx: Ctx): EventOutboxItem {
  return { kind: 'event', id: ctx.nextId(), envelopeId: envelope.id, event, createdAt: ctx.now.toISOString(), signerId: signer?.id ?? null };
}

export function jobItem(envelope: Envelope, job: JobOutboxItem['job'], ctx: Ctx): JobOutboxItem {
  return { kind: 'job', id: ctx.nextId(), envelopeId: envelope.id, createdAt: ctx.now.toISOString(), job };
}

export function updateSigner(envelope: Envelope, signerId: string, patch: Partial<Signer>): Envelope {
  return { ...envelope, signers: envelope.signers.map((s) => (s.id === signerId ? { ...s, ...patch } : s)) };
}

export function signerOf(envelope: Envelope, signerId: string): Signer {
  const signer = envelope.signers.find((s) => s.id === signerId);
  if (!signer) throw new Unauthorized('This signing link is not valid', {}, 'link_invalid');
  return signer;
}

/** The first read of the link: sent -> viewed, and the envelope sent -> in_progress. Null when already viewed. */
export function markViewed(envelope: Envelope, signer: Signer, ctx: Ctx): EnvelopeChange | null {
  if (signer.viewedAt !== null) return null;
  const now = ctx.now.toISOString();
  const status = signer.status === 'sent' ? 'viewed' : signer.status;
  let after = updateSigner(envelope, signer.id, { viewedAt: now, status });
  if (after.status === 'sent') after = { ...after, status: 'in_progress' };
  return changeOf(envelope, after, [signerActor(signer, ctx, 'signer.viewed')], [signerEvent(after, 'signer.viewed', signer, ctx)], ctx);
}

export const OTP_LOCKED_MESSAGE = 'This signing link is locked after too many one-time code attempts; ask the sender to send you a new link';

/**
 * Records a fresh code (hash only); more than 5 requests in 10 minutes is refused with a retry time. A request past the
 * link's lifetime codes budget stores no code and locks the link instead (the signer is locked in `after`).
 */
export function requestOtp(envelope: Envelope, signer: Signer, codeHash: string, channel: 'email' | 'sms', ctx: Ctx): EnvelopeChange {
  if (!requiresOtp(signer)) throw new InvalidState('This signer does not need a one-time code');
  if (otpLocked(signer)) throw new Unauthorized(OTP_LOCKED_MESSAGE, {}, 'otp_locked');
  const usage = otpUsageOf(signer);
  if (usage.codesSent >= OTP_LIFETIME_CODES) return lockOtp(envelope, signer, usage, 'codes_sent', ctx);
  const windowStart = ctx.now.getTime() - OTP_REQUEST_WINDOW_SECONDS * 1000;
  const recent = signer.otpRequests.filter((t) => Date.parse(t) > windowStart);
  if (recent.length >= OTP_REQUEST_LIMIT) {
    const oldest = Math.min(...recent.map((t) => Date.parse(t)));
    throw new RateLimited('Too many code requests: at most 5 in 10 minutes', (oldest - windowStart) / 1000);
  }
  const expiresAt = new Date(ctx.now.getTime() + OTP_TTL_SECONDS * 1000).toISOString();
  const after = updateSigner(envelope, signer.id, {
    otp: { codeHash, expiresAt, failures: 0, channel }, otpRequests: [...recent, ctx.now.toISOString()],
    otpUsage: { ...usage, codesSent: usage.codesSent + 1 },
  });
  return changeOf(envelope, after, [signerActor(signer, ctx, 'signer.otp_requested', { channel, expiresAt })], [], ctx);
}

export type OtpOutcome = 'verified' | 'already_verified' | 'wrong' | 'burnt' | 'no_code' | 'locked';

/**
 * Checks a submitted code against the stored hash; the third failure burns the code and emits signer.otp_failed.
 * Every wrong code counts against the link's lifetime budget; the one that spends it locks the link (`locked`).
 */
export function verifyOtp(envelope: Envelope, signer: Signer, matches: (codeHash: string) => boolean, ctx: Ctx): { change: EnvelopeChange | null; outcome: OtpOutcome } {
  if (!requiresOtp(signer)) throw new InvalidState('This signer does not need a one-time code');
  if (signer.otpVerifiedAt !== null) return { change: null, outcome: 'already_verified' };
  const otp = signer.otp;
  if (!otp || Date.parse(otp.expiresAt) <= ctx.now.getTime()) return { change: null, outcome: 'no_code' };
  if (matches(otp.codeHash)) {
    const after = updateSigner(envelope, signer.id, { otp: null, otpVerifiedAt: ctx.now.toISOString() });
    return { change: changeOf(envelope, after, [signerActor(signer, ctx, 'signer.otp_verified', { channel: otp.channel })], [], ctx), outcome: 'verified' };
  }
  if (otpLocked(signer)) throw new Unauthorized(OTP_LOCKED_MESSAGE, {}, 'otp_locked');
  const failures = otp.failures + 1;
  const used = otpUsageOf(signer);
  const usage = { ...used, wrongTries: used.wrongTries + 1 };
  const burnt = failures >= OTP_MAX_FAILURES;
  const drafts = burnt ? [signerActor(signer, ctx, 'signer.otp_failed', { failures })] : [];
  const events = burnt ? [signerEvent(envelope, 'signer.otp_failed', signer, ctx)] : [];
  if (usage.wrongTries >= OTP_LIFETIME_WRONG_TRIES) return { change: lockOtp(envelope, signer, usage, 'wrong_codes', ctx, drafts, events), outcome: 'locked' };
  const after = updateSigner(envelope, signer.id, { otp: burnt ? null : { ...otp, failures }, otpUsage: usage });
  return { change: changeOf(envelope, after, drafts, events, ctx), outcome: burnt ? 'burnt' : 'wrong' };
}

export function giveConsent(envelope: Envelope, signer: Signer, ctx: Ctx): EnvelopeChange {
  if (signer.consentedAt !== null) throw new Conflict('Consent has already been given', {}, 'consent_given');
  const after = updateSigner(envelope, signer.id, { consentedAt: ctx.now.toISOString() });
  const drafts = [signerActor(signer, ctx, 'signer.consented', { disclosureVersion: CONSENT_DISCLOSURE.version })];
  return changeOf(envelope, after, drafts, [], ctx);
}

/** A signer declines: the envelope is declined, terminal. */
export function decline(envelope: Envelope, signer: Signer, reason: string | null, ctx: Ctx): EnvelopeChange {
  const now = ctx.now.toISOString();
  const after: Envelope = startRetention({ ...updateSigner(envelope, signer.id, { status: 'declined', declinedAt: now, declineReason: reason }), status: 'declined' }, ctx.now);
  const drafts = [
    signerActor(signer, ctx, 'signer.declined', { reason }),
    { event: 'envelope.declined' as const, actor: 'system', ip: null, userAgent: null, detail: { signerId: signer.id, reason } },
  ];
  const notices = noticeItems(after, 'declined', ctx, { reason, declinedBy: { id: signer.id, name: signer.name } });
  return changeOf(envelope, after, drafts, [signerEvent(after, 'signer.declined', signer, ctx), signerEvent(after, 'envelope.declined', signer, ctx), retentionJob(after, ctx), ...notices], ctx);
}

/** Signers of the lowest routing order still waiting for their invitation, or [] when none are. */
export function nextRoutingGroup(envelope: Envelope): Signer[] {
  const pending = envelope.signers.filter((s) => s.status === 'pending');
  if (pending.length === 0) return [];
  const order = Math.min(...pending.map((s) => s.routingOrder));
  return pending.filter((s) => s.routingOrder === order);
}

/**
 * Records the signature. When this completes the signer's routing group the next group is queued for
 * invitation (routing.advance); when every signer has signed the envelope is queued for sealing.
 */
export function recordSignature(envelope: Envelope, signer: Signer, submission: Submission, ctx: Ctx): { change: EnvelopeChange; next: 'advance' | 'seal' | null } {
  const now = ctx.now.toISOString();
  let after = updateSigner(envelope, signer.id, { status: 'signed', signedAt: now });
  if (after.status === 'sent') after = { ...after, status: 'in_progress' };
  const groupDone = after.signers.filter((s) => s.routingOrder === signer.routingOrder).every((s) => s.status === 'signed');
  const allSigned = after.signers.every((s) => s.status === 'signed');
  const nextGroup = groupDone && !allSigned ? nextRoutingGroup(after) : [];
  const jobs: JobOutboxItem[] = [];
  if (allSigned) {
    const sealing = beginSealing(after, ctx);
    after = sealing.envelope;
    jobs.push(sealing.job);
  }
  const nextOrder = nextGroup[0]?.routingOrder;
  if (nextOrder !== undefined) jobs.push(jobItem(after, { type: 'routing.advance', envelopeId: after.id, routingOrder: nextOrder }, ctx));
  const detail = {
    fields: submission.values.map((v) => ({ fieldId: v.fieldId, type: v.type, kind: v.kind, ...(v.kind === 'image' ? { sha256: v.sha256, ...(v.source ? { source: v.source } : {}) } : {}) })),
    fontLabel: submission.fontLabel,
  };
  const change = changeOf(envelope, after, [signerActor(signer, ctx, 'signer.signed', detail)], [signerEvent(after, 'signer.signed', signer, ctx), ...jobs], ctx);
  return { change: { ...change, submission }, next: allSigned ? 'seal' : nextOrder !== undefined ? 'advance' : null };
}

/** Invites the group with `routingOrder` if it is still waiting; null when already done (redelivered job) or moot. */
export function advanceRouting(envelope: Envelope, routingOrder: number, ctx: Ctx): { change: EnvelopeChange; invited: Signer[] } | null {
  if (envelope.status !== 'sent' && envelope.status !== 'in_progress') return null;
  const earlierUnsigned = envelope.signers.some((s) => s.routingOrder < routingOrder && s.status !== 'signed');
  const group = nextRoutingGroup(envelope).filter((s) => s.routingOrder === routingOrder);
  if (earlierUnsigned || group.length === 0) return null;
  const ids = new Set(group.map((s) => s.id));
  const after = { ...envelope, signers: envelope.signers.map((s) => (ids.has(s.id) ? { ...s, status: 'sent' as const } : s)) };
  const invited = after.signers.filter((s) => ids.has(s.id));
  const drafts = invited.map((s): AuditDraft => ({
    event: 'signer.invited', actor: 'system', ip: null, userAgent: null, detail: { signerId: s.id, email: s.email, routingOrder: s.routingOrder },
  }));
  return { change: changeOf(envelope, after, drafts, [], ctx), invited };
}
