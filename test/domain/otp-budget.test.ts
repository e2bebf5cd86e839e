import { describe, expect, it } from 'vitest';
import { createEnvelope, sendEnvelope, type NewEnvelopeInput } from '#shared/envelopes/envelope.ts';
import { Unauthorized } from '#shared/kernel/errors.ts';
import type { Envelope, Signer } from '#shared/kernel/model.ts';
import { otpGuessBound, otpLocked, otpUsageOf, unlockOtp, OTP_CODE_SPACE, OTP_LIFETIME_CODES, OTP_LIFETIME_WRONG_TRIES } from '#shared/signing/otp-budget.ts';
import type { NoticeOutboxItem } from '#shared/notices/outbox.ts';
import { assertGate, requestOtp, verifyOtp, OTP_MAX_FAILURES, OTP_REQUEST_LIMIT, OTP_REQUEST_WINDOW_SECONDS, type SigningStep } from '#shared/signing/signing.ts';
import type { EnvelopeChange } from '#shared/kernel/change.ts';
import { otpLockedNoticeEmail } from '#shared/notices/localized-notices.ts';
import { LOCALES } from '#shared/i18n/locales.ts';
import { letterDocument, signerInput, testCtx, withPages } from '#test/support/domain.ts';

const T0 = new Date('2026-01-01T00:00:00.000Z');
const STEPS: readonly SigningStep[] = ['context', 'otp', 'consent', 'sign', 'decline', 'document'];
const SENDER = 'sender@example.com';

function sent(createdBy: string | null = SENDER): Envelope {
  const created = createEnvelope({
    id: '0190f5d2-0000-7000-8000-0000000000cc', appId: 'app-1', tenantId: 'acme', subject: 'NDA', createdBy, expiresInDays: 3650, fieldOrigin: 'bottom-left',
    signers: [signerInput('ana@example.com')],
    fields: [{ signerIndex: 0, type: 'signature', page: 1, x: 72, y: 72, w: 200, h: 40, required: true, origin: 'bottom-left' } satisfies NewEnvelopeInput['fields'][number]],
    ...withPages(letterDocument()),
  }, testCtx(T0));
  return sendEnvelope(created.after, null, testCtx(T0)).change.after;
}

const signerOf = (envelope: Envelope): Signer => envelope.signers[0]!;

/**
 * A guesser who keeps to the rate limit: asks for a code at the start of each rate window's slot and enters wrong
 * codes, a code at a time. Stops when the link locks or after `tries` wrong codes; every change is kept.
 */
function guess(start: Envelope, tries: number): { envelope: Envelope; changes: EnvelopeChange[]; locked: boolean } {
  let envelope = start;
  const changes: EnvelopeChange[] = [];
  let second = 0;
  for (let wrong = 0; wrong < tries;) {
    second += OTP_REQUEST_WINDOW_SECONDS / OTP_REQUEST_LIMIT + 1;
    const ctx = testCtx(new Date(T0.getTime() + second * 1000));
    const requested = requestOtp(envelope, signerOf(envelope), `hash-${String(second)}`, 'email', ctx);
    changes.push(requested);
    envelope = requested.after;
    if (otpLocked(signerOf(envelope))) return { envelope, changes, locked: true };
    for (let i = 0; i < OTP_MAX_FAILURES && wrong < tries; i++, wrong++) {
      const verdict = verifyOtp(envelope, signerOf(envelope), () => false, ctx);
      if (!verdict.change) throw new Error('a wrong code changed nothing');
      changes.push(verdict.change);
      envelope = verdict.change.after;
      if (verdict.outcome === 'locked') return { envelope, changes, locked: true };
    }
  }
  return { envelope, changes, locked: false };
}

const audited = (changes: EnvelopeChange[]) => changes.flatMap((c) => c.audit);
const notices = (changes: EnvelopeChange[]) => changes.flatMap((c) => c.outbox).filter((i): i is NoticeOutboxItem => i.kind === 'notify' && i.template === 'notice');

describe('the lifetime budget of one-time codes', () => {
  it('bounds the chance to guess a 6-digit code below 1 in 10,000 whatever the link lifetime; the rate limit alone does not', () => {
    expect(OTP_CODE_SPACE).toBe(10 ** 6);
    expect(otpGuessBound()).toBe(OTP_LIFETIME_WRONG_TRIES / OTP_CODE_SPACE);
    expect(otpGuessBound()).toBeLessThan(1 / 10_000);
    // The rate limit alone: 5 codes per 10 minutes, 3 tries each (the last try of a window's codes overlaps the next)
    const perWindow = OTP_REQUEST_LIMIT * OTP_MAX_FAILURES;
    const chanceOver = (days: number) => 1 - (1 - 1 / OTP_CODE_SPACE) ** (perWindow * days * 86_400 / OTP_REQUEST_WINDOW_SECONDS);
    expect(chanceOver(30)).toBeGreaterThan(0.05);
    expect(chanceOver(3650)).toBeGreaterThan(0.99);
    // Codes sent add no guesses the wrong-tries budget does not count, but cap the messages a link can trigger
    expect(OTP_LIFETIME_CODES * OTP_MAX_FAILURES).toBeGreaterThanOrEqual(OTP_LIFETIME_WRONG_TRIES);
  });

  it('a guesser keeping to the rate limit is locked out at the budget\'s last wrong code, however long the link lives', () => {
    const before = guess(sent(), OTP_LIFETIME_WRONG_TRIES - 1);
    expect(before.locked).toBe(false);
    expect(otpUsageOf(signerOf(before.envelope))).toMatchObject({ wrongTries: OTP_LIFETIME_WRONG_TRIES - 1, lockedAt: null });
    const all = guess(sent(), OTP_LIFETIME_WRONG_TRIES + 30);
    expect(all.locked).toBe(true);
    const signer = signerOf(all.envelope);
    expect(otpUsageOf(signer)).toMatchObject({ wrongTries: OTP_LIFETIME_WRONG_TRIES, codesSent: Math.ceil(OTP_LIFETIME_WRONG_TRIES / OTP_MAX_FAILURES) });
    expect(signer.otp).toBeNull();
    const locks = audited(all.changes).filter((e) => e.event === 'signer.otp_locked');
    expect(locks).toEqual([expect.objectContaining({
      actor: `signer:${signer.id}`, ip: '203.0.113.7', detail: { cause: 'wrong_codes', codesSent: 17, wrongTries: OTP_LIFETIME_WRONG_TRIES },
    })]);
    // The lock and its notice are in the change that spent the budget: committed together, or not at all
    const last = all.changes.at(-1)!;
    expect(last.audit.map((e) => e.event)).toContain('signer.otp_locked');
    expect(notices([last])).toEqual([expect.objectContaining({
      notice: 'otp_locked', recipients: [{ name: SENDER, email: SENDER }], lockedSigner: { name: 'ana', email: 'ana@example.com' },
    })]);
  });

  it('the last wrong code that also burns the code raises signer.otp_failed with the lock', () => {
    // 48 wrong codes in 16 codes, then 2 wrong codes on the 17th: the 50th is the code's 2nd failure, not its 3rd
    const notBurnt = guess(sent(), OTP_LIFETIME_WRONG_TRIES).changes.at(-1)!;
    expect(notBurnt.audit.map((e) => e.event)).toEqual(['signer.otp_locked']);
    // Verify against an envelope whose code has 2 failures and whose budget has 1 left
    const base = sent();
    const withCode = requestOtp(base, signerOf(base), 'hash', 'email', testCtx(T0)).after;
    const primed: Envelope = {
      ...withCode, signers: withCode.signers.map((s) => ({ ...s, otp: { ...s.otp!, failures: 2 }, otpUsage: { codesSent: 1, wrongTries: OTP_LIFETIME_WRONG_TRIES - 1, lockedAt: null } })),
    };
    const verdict = verifyOtp(primed, signerOf(primed), () => false, testCtx(T0));
    expect(verdict.outcome).toBe('locked');
    expect(verdict.change?.audit.map((e) => e.event)).toEqual(['signer.otp_failed', 'signer.otp_locked']);
    expect(verdict.change?.outbox.flatMap((i) => (i.kind === 'event' ? [i.event] : []))).toEqual(['signer.otp_failed']);
  });

  it('asking for one code more than the budget sends none and locks the link', () => {
    let envelope = sent();
    for (let i = 0; i < OTP_LIFETIME_CODES; i++) {
      envelope = requestOtp(envelope, signerOf(envelope), `hash-${String(i)}`, 'email', testCtx(new Date(T0.getTime() + i * 3_600_000))).after;
    }
    expect(otpUsageOf(signerOf(envelope))).toEqual({ codesSent: OTP_LIFETIME_CODES, wrongTries: 0, lockedAt: null });
    const later = testCtx(new Date(T0.getTime() + OTP_LIFETIME_CODES * 3_600_000));
    const change = requestOtp(envelope, signerOf(envelope), 'hash-more', 'email', later);
    const signer = signerOf(change.after);
    expect(signer.otp).toBeNull();
    expect(signer.otpUsage).toEqual({ codesSent: OTP_LIFETIME_CODES, wrongTries: 0, lockedAt: later.now.toISOString() });
    expect(change.audit.map((e) => [e.event, e.detail])).toEqual([['signer.otp_locked', { cause: 'codes_sent', codesSent: OTP_LIFETIME_CODES, wrongTries: 0 }]]);
    expect(notices([change])).toHaveLength(1);
  });

  it('a locked link answers 401 otp_locked on every signing step, and to code requests and checks', () => {
    const locked = guess(sent(), OTP_LIFETIME_WRONG_TRIES).envelope;
    const signer = signerOf(locked);
    for (const step of STEPS) {
      const error = (() => { try { assertGate(locked, signer, step); } catch (e) { return e; } return null; })();
      expect(error, step).toBeInstanceOf(Unauthorized);
      expect(error, step).toMatchObject({ reason: 'otp_locked' });
    }
    expect(() => requestOtp(locked, signer, 'hash', 'email', testCtx(T0))).toThrow(Unauthorized);
    // A voided envelope says so first: the lock no longer matters
    expect(() => { assertGate({ ...locked, status: 'voided' }, signer, 'context'); }).toThrow(/voided/);
  });

  it('no sender address on the envelope: the lock is audited and no notice is queued', () => {
    const all = guess(sent('user-42'), OTP_LIFETIME_WRONG_TRIES);
    expect(all.locked).toBe(true);
    expect(audited(all.changes).filter((e) => e.event === 'signer.otp_locked')).toHaveLength(1);
    expect(notices(all.changes)).toEqual([]);
  });

  it('unlocking (the sender\'s resend) resets the budget with an audit draft; an unlocked link is left as it is', () => {
    const locked = guess(sent(), OTP_LIFETIME_WRONG_TRIES).envelope;
    const unlocked = unlockOtp(locked, signerOf(locked), testCtx(T0));
    expect(otpLocked(signerOf(unlocked.envelope))).toBe(false);
    expect(otpUsageOf(signerOf(unlocked.envelope))).toEqual({ codesSent: 0, wrongTries: 0, lockedAt: null });
    expect(signerOf(unlocked.envelope).otpRequests).toEqual([]); // the fresh link may ask for a code at once
    expect(unlocked.drafts).toEqual([expect.objectContaining({
      event: 'signer.otp_unlocked', detail: expect.objectContaining({ signerId: signerOf(locked).id, wrongTries: OTP_LIFETIME_WRONG_TRIES }) as unknown,
    })]);
    for (const step of STEPS.filter((s) => s === 'context' || s === 'otp')) expect(() => { assertGate(unlocked.envelope, signerOf(unlocked.envelope), step); }).not.toThrow();
    const partly = guess(sent(), 10).envelope;
    expect(unlockOtp(partly, signerOf(partly), testCtx(T0))).toEqual({ envelope: partly, drafts: [] });
  });

  it('a verified signer is never locked by a later wrong code', () => {
    const base = sent();
    const withCode = requestOtp(base, signerOf(base), 'hash', 'email', testCtx(T0)).after;
    const verified = verifyOtp(withCode, signerOf(withCode), () => true, testCtx(T0)).change!.after;
    const again = verifyOtp(verified, signerOf(verified), () => false, testCtx(T0));
    expect(again).toEqual({ change: null, outcome: 'already_verified' });
  });

  it('the sender\'s notice renders in every locale, naming the signer, values escaped in HTML', () => {
    const envelope = { ...sent(), subject: 'A <b> & C' };
    const signer = { name: 'Lee <i>Park</i>', email: 'lee@example.com' };
    for (const locale of LOCALES) {
      const mail = otpLockedNoticeEmail(envelope, SENDER, signer, locale);
      expect(mail.subject, locale).toContain('A <b> & C');
      expect(mail.text, locale).toContain('Lee <i>Park</i>');
      expect(mail.text, locale).toContain('lee@example.com');
      expect(mail.html, locale).toContain('Lee &lt;i&gt;Park&lt;/i&gt;');
      expect(mail.html, locale).toContain('<strong>A &lt;b&gt; &amp; C</strong>');
    }
    const en = otpLockedNoticeEmail(envelope, SENDER, signer, 'en');
    expect(en.text).toContain('If Lee <i>Park</i> still needs to sign, resend their signing link');
    expect(otpLockedNoticeEmail(envelope, SENDER, signer, 'de').subject).toBe('Signaturlink gesperrt: A <b> & C');
  });
});
