/**
 * A signing link's lifetime budget of one-time codes. The rate limit (5 codes per 10 minutes, 3 tries each) slows a
 * guesser down but does not bound them: ~13.5 guesses per 10 minutes is ~58,000 over 30 days (a 6% chance to hit a
 * 6-digit code) and near certainty over a 10-year link. The budget bounds the guesses themselves, whatever the link's
 * lifetime: every guess at a code is either right (and ends the guessing) or wrong (and counts), so a link sees at
 * most OTP_LIFETIME_WRONG_TRIES wrong guesses. Each guess is at a uniformly random code of 10^6 values, so the
 * chance that any of them hits is at most 50 / 10^6 = 1 in 20,000 (union bound), below 1 in 10,000 for any lifetime.
 * The codes budget caps the messages a link can make us send (20 emails or texts); it adds no guesses the wrong-tries
 * budget does not already count. Reaching either locks the link until the sender resends it, which resets both.
 */
import type { AuditDraft } from '../kernel/audit-chain.ts';
import { changeOf, type Ctx, type EnvelopeChange } from '../kernel/change.ts';
import { senderNoticeItems } from '../notices/notice-items.ts';
import type { Envelope, OtpUsage, Signer } from '../kernel/model.ts';

/** Wrong codes a link may be given over its whole life; the one that reaches it locks the link. */
export const OTP_LIFETIME_WRONG_TRIES = 50;
/** Codes a link may have sent over its whole life; asking for one more locks the link. */
export const OTP_LIFETIME_CODES = 20;
/** 6-digit codes. */
export const OTP_CODE_SPACE = 1_000_000;

/** The chance that a link's budget of wrong tries guesses a code, at most (the figure docs/api-guide.md quotes). */
export const otpGuessBound = () => OTP_LIFETIME_WRONG_TRIES / OTP_CODE_SPACE;

const UNUSED: OtpUsage = { codesSent: 0, wrongTries: 0, lockedAt: null };

export const otpUsageOf = (signer: Signer): OtpUsage => signer.otpUsage ?? UNUSED;
export const otpLocked = (signer: Signer): boolean => (signer.otpUsage?.lockedAt ?? null) !== null;

/** Why a link was locked: the wrong tries or the codes ran out. */
export type OtpLockCause = 'wrong_codes' | 'codes_sent';

function withSigner(envelope: Envelope, signerId: string, patch: Partial<Signer>): Envelope {
  return { ...envelope, signers: envelope.signers.map((s) => (s.id === signerId ? { ...s, ...patch } : s)) };
}

/** The lock draft and its notice; `drafts` and `outbox` are what the same commit already carries (a burnt code). */
export function lockOtp(
  envelope: Envelope, signer: Signer, usage: Omit<OtpUsage, 'lockedAt'>, cause: OtpLockCause, ctx: Ctx,
  drafts: AuditDraft[] = [], outbox: EnvelopeChange['outbox'] = [],
): EnvelopeChange {
  const after = withSigner(envelope, signer.id, { otp: null, otpUsage: { ...usage, lockedAt: ctx.now.toISOString() } });
  const locked: AuditDraft = {
    event: 'signer.otp_locked', actor: `signer:${signer.id}`, ip: ctx.meta.ip, userAgent: ctx.meta.userAgent,
    detail: { cause, codesSent: usage.codesSent, wrongTries: usage.wrongTries },
  };
  return changeOf(envelope, after, [...drafts, locked], [...outbox, ...senderNoticeItems(after, 'otp_locked', signer, ctx)], ctx);
}

/** The sender's resend unlocks a locked link: the budget and the rate window start again (the new link is the use case's). */
export function unlockOtp(envelope: Envelope, signer: Signer, ctx: Ctx): { envelope: Envelope; drafts: AuditDraft[] } {
  if (!otpLocked(signer)) return { envelope, drafts: [] };
  const usage = otpUsageOf(signer);
  return {
    envelope: withSigner(envelope, signer.id, { otp: null, otpUsage: null, otpRequests: [] }),
    drafts: [{
      event: 'signer.otp_unlocked', actor: ctx.meta.actor ?? 'system', ip: ctx.meta.ip, userAgent: ctx.meta.userAgent,
      detail: { signerId: signer.id, lockedAt: usage.lockedAt, codesSent: usage.codesSent, wrongTries: usage.wrongTries },
    }],
  };
}
