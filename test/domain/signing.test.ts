import { describe, expect, it } from 'vitest';
import { expireIfDue, voidEnvelope } from '#shared/envelopes/envelope.ts';
import { Conflict, Gone, InvalidState, RateLimited, Unauthorized } from '#shared/kernel/errors.ts';
import { assertGate, CONSENT_DISCLOSURE, decline, giveConsent, markViewed, requestOtp, verifyOtp, type SigningStep } from '#shared/signing/signing.ts';
import { testCtx } from '#test/support/domain.ts';
import { at, patchSigner, sent, sign, signerAt, T0, thrown } from '#test/support/sent-envelopes.ts';

const STEPS: readonly SigningStep[] = ['context', 'otp', 'consent', 'sign', 'decline', 'document'];

describe('the deadline', () => {
  it('does not expire an envelope everyone signed in time while its seal is outstanding; one signature short, it does', () => {
    const both = sign(sign(sent([1, 1]), 0).change.after, 1).change.after;
    expect(both.signers.map((s) => s.status)).toEqual(['signed', 'signed']);
    expect(both.status).toBe('in_progress');
    expect(expireIfDue(both, testCtx(at(8 * 86_400)))).toBeNull();
    const one = sign(sent([1, 1]), 0).change.after;
    expect(expireIfDue(one, testCtx(at(8 * 86_400)))?.after.status).toBe('expired');
  });
});

describe('the signing gates (assertGate)', () => {
  const cleared = { otpVerifiedAt: T0.toISOString(), consentedAt: T0.toISOString() };

  it('a voided or expired envelope makes every step 401, for live and finished signers alike', () => {
    const live = sent([1, 2]);
    const voided = voidEnvelope(live, null, testCtx()).after;
    const expired = expireIfDue(live, testCtx(at(7 * 86_400)))!.after;
    for (const envelope of [voided, expired]) {
      for (const patch of [cleared, { ...cleared, status: 'signed' as const }, { status: 'declined' as const }]) {
        const closed = patchSigner(envelope, 0, patch);
        for (const step of STEPS) expect(() => { assertGate(closed, signerAt(closed, 0), step); }, `${envelope.status} ${step}`).toThrow(Unauthorized);
      }
      for (const step of STEPS) expect(() => { assertGate(envelope, signerAt(envelope, 1), step); }).toThrow(Unauthorized);
    }
  });

  it('a signer who signed has used the link: 410 for context, otp, consent and document, 409 for sign and decline', () => {
    const envelope = patchSigner({ ...sent([1, 1]), status: 'in_progress' }, 0, { ...cleared, status: 'signed', signedAt: T0.toISOString() });
    const signer = signerAt(envelope, 0);
    for (const step of ['context', 'otp', 'consent', 'document'] as const) expect(() => { assertGate(envelope, signer, step); }, step).toThrow(Gone);
    for (const step of ['sign', 'decline'] as const) expect(() => { assertGate(envelope, signer, step); }, step).toThrow(Conflict);
  });

  it('a signer who declined has used the link: 410 for context, otp, consent and document, 409 for sign and decline', () => {
    const envelope = sent([1, 1]);
    const declined = decline(envelope, signerAt(envelope, 0), 'no', testCtx()).after;
    const signer = signerAt(declined, 0);
    for (const step of ['context', 'otp', 'consent', 'document'] as const) expect(() => { assertGate(declined, signer, step); }, step).toThrow(Gone);
    for (const step of ['sign', 'decline'] as const) expect(() => { assertGate(declined, signer, step); }, step).toThrow(Conflict);
  });

  it("a declined envelope closes the other signers' links with 401", () => {
    const envelope = patchSigner(sent([1, 1, 2]), 1, cleared);
    const declined = decline(envelope, signerAt(envelope, 0), null, testCtx()).after;
    for (const i of [1, 2]) {
      for (const step of STEPS) expect(() => { assertGate(declined, signerAt(declined, i), step); }, `signer ${String(i)} ${step}`).toThrow(Unauthorized);
    }
  });

  it('a signer whose routing group has not been invited yet (pending) gets 401 for every step', () => {
    const envelope = patchSigner(sent([1, 2]), 1, cleared);
    expect(signerAt(envelope, 1).status).toBe('pending');
    for (const step of STEPS) expect(() => { assertGate(envelope, signerAt(envelope, 1), step); }, step).toThrow(Unauthorized);
  });

  it('consent, sign, decline and document need a verified code when authMethod is not none; context and otp do not', () => {
    for (const authMethod of ['email_otp', 'sms_otp'] as const) {
      const envelope = sent([1], authMethod);
      const signer = signerAt(envelope, 0);
      for (const step of ['context', 'otp'] as const) expect(() => { assertGate(envelope, signer, step); }, `${authMethod} ${step}`).not.toThrow();
      for (const step of ['consent', 'sign', 'decline', 'document'] as const) {
        expect(thrown(() => { assertGate(envelope, signer, step); }), `${authMethod} ${step}`).toMatchObject({ code: 'unauthorized', message: 'Verify the one-time code first' });
      }
      const passed = patchSigner(envelope, 0, cleared);
      for (const step of STEPS) expect(() => { assertGate(passed, signerAt(passed, 0), step); }, `${authMethod} ${step} cleared`).not.toThrow();
    }
  });

  it('sign needs consent even after the code is verified; consent, decline and document do not', () => {
    const envelope = patchSigner(sent([1]), 0, { otpVerifiedAt: T0.toISOString() });
    const signer = signerAt(envelope, 0);
    expect(() => { assertGate(envelope, signer, 'sign'); }).toThrow(Unauthorized);
    for (const step of ['context', 'otp', 'consent', 'decline', 'document'] as const) expect(() => { assertGate(envelope, signer, step); }, step).not.toThrow();
  });

  it('authMethod none skips the code: every step is open without it, and sign still needs consent', () => {
    const envelope = sent([1], 'none');
    const signer = signerAt(envelope, 0);
    for (const step of ['context', 'otp', 'consent', 'decline', 'document'] as const) expect(() => { assertGate(envelope, signer, step); }, step).not.toThrow();
    expect(thrown(() => { assertGate(envelope, signer, 'sign'); })).toMatchObject({ code: 'unauthorized', message: 'Give consent to sign electronically first' });
    const consented = patchSigner(envelope, 0, { consentedAt: T0.toISOString() });
    expect(() => { assertGate(consented, signerAt(consented, 0), 'sign'); }).not.toThrow();
  });

  it('an in-progress envelope is as open as a sent one', () => {
    const envelope = patchSigner({ ...sent([1]), status: 'in_progress' }, 0, cleared);
    for (const step of STEPS) expect(() => { assertGate(envelope, signerAt(envelope, 0), step); }, step).not.toThrow();
  });
});

describe('the first view of a link (markViewed)', () => {
  it('moves the signer sent -> viewed and the envelope sent -> in_progress, audited as the signer with IP and user agent', () => {
    const envelope = sent([1, 1]);
    const signer = signerAt(envelope, 0);
    const ctx = testCtx(at(60));
    const change = markViewed(envelope, signer, ctx)!;
    expect(change.after).toMatchObject({ status: 'in_progress', version: envelope.version + 1 });
    expect(signerAt(change.after, 0)).toMatchObject({ status: 'viewed', viewedAt: at(60).toISOString() });
    expect(signerAt(change.after, 1)).toMatchObject({ status: 'sent', viewedAt: null });
    expect(change.audit).toHaveLength(1);
    expect(change.audit[0]).toMatchObject({
      event: 'signer.viewed', actor: `signer:${signer.id}`, ip: '203.0.113.7', userAgent: 'vitest', timestamp: at(60).toISOString(),
    });
    expect(change.outbox).toEqual([{ kind: 'event', id: expect.any(String), envelopeId: envelope.id, event: 'signer.viewed', createdAt: at(60).toISOString(), signerId: signer.id }]);
  });

  it('a second view returns null: nothing to record', () => {
    const envelope = sent([1]);
    const viewed = markViewed(envelope, signerAt(envelope, 0), testCtx())!.after;
    expect(markViewed(viewed, signerAt(viewed, 0), testCtx(at(3600)))).toBeNull();
  });

  it('a later signer viewing an in-progress envelope leaves it in_progress', () => {
    const envelope = sent([1, 1]);
    const first = markViewed(envelope, signerAt(envelope, 0), testCtx())!.after;
    const second = markViewed(first, signerAt(first, 1), testCtx())!;
    expect(second.after.status).toBe('in_progress');
    expect(signerAt(second.after, 1).status).toBe('viewed');
  });
});

describe('requesting a one-time code (requestOtp)', () => {
  it('stores only the hash of the code, valid for 10 minutes, and audits signer.otp_requested without the code', () => {
    const envelope = sent([1]);
    const change = requestOtp(envelope, signerAt(envelope, 0), 'hash-1', 'email', testCtx(T0));
    const signer = signerAt(change.after, 0);
    expect(signer.otp).toEqual({ codeHash: 'hash-1', expiresAt: '2026-01-01T00:10:00.000Z', failures: 0, channel: 'email' });
    expect(signer.otpRequests).toEqual([T0.toISOString()]);
    expect(change.audit).toHaveLength(1);
    expect(change.audit[0]).toMatchObject({
      event: 'signer.otp_requested', actor: `signer:${signer.id}`, detail: { channel: 'email', expiresAt: '2026-01-01T00:10:00.000Z' },
    });
    expect(JSON.stringify(change.audit)).not.toContain('hash-1');
    expect(change.outbox).toEqual([]);
  });

  it('a new code replaces the previous one and its failure count', () => {
    const envelope = sent([1]);
    const first = requestOtp(envelope, signerAt(envelope, 0), 'hash-1', 'email', testCtx(T0)).after;
    const failed = verifyOtp(first, signerAt(first, 0), () => false, testCtx(T0)).change!.after;
    expect(signerAt(failed, 0).otp?.failures).toBe(1);
    const second = requestOtp(failed, signerAt(failed, 0), 'hash-2', 'sms', testCtx(at(60))).after;
    expect(signerAt(second, 0).otp).toEqual({ codeHash: 'hash-2', expiresAt: at(660).toISOString(), failures: 0, channel: 'sms' });
  });

  it('allows 5 requests within 10 minutes and refuses the 6th with RateLimited and a positive retry time', () => {
    let envelope = sent([1]);
    for (let minute = 0; minute < 5; minute++) envelope = requestOtp(envelope, signerAt(envelope, 0), `hash-${String(minute)}`, 'email', testCtx(at(minute * 60))).after;
    expect(signerAt(envelope, 0).otpRequests).toHaveLength(5);
    const error = thrown(() => requestOtp(envelope, signerAt(envelope, 0), 'hash-5', 'email', testCtx(at(5 * 60))));
    expect(error).toBeInstanceOf(RateLimited);
    const { retryAfterSeconds } = error as RateLimited;
    expect(retryAfterSeconds).toBeGreaterThan(0);
    expect(retryAfterSeconds).toBe(300); // the oldest request (t0) leaves the window at t0 + 10 min
  });

  it('requests older than the 10-minute window no longer count', () => {
    let envelope = sent([1]);
    for (let minute = 0; minute < 5; minute++) envelope = requestOtp(envelope, signerAt(envelope, 0), 'hash', 'email', testCtx(at(minute * 60))).after;
    expect(() => requestOtp(envelope, signerAt(envelope, 0), 'hash', 'email', testCtx(at(599)))).toThrow(RateLimited);
    const later = requestOtp(envelope, signerAt(envelope, 0), 'hash', 'email', testCtx(at(601))).after;
    expect(signerAt(later, 0).otpRequests).toEqual([at(60), at(120), at(180), at(240), at(601)].map((d) => d.toISOString()));
    expect(() => requestOtp(later, signerAt(later, 0), 'hash', 'email', testCtx(at(602)))).toThrow(RateLimited);
    const muchLater = requestOtp(later, signerAt(later, 0), 'hash', 'email', testCtx(at(3600))).after;
    expect(signerAt(muchLater, 0).otpRequests).toEqual([at(3600).toISOString()]);
  });

  it('a signer with authMethod none cannot request or verify a code (InvalidState)', () => {
    const envelope = sent([1], 'none');
    expect(() => requestOtp(envelope, signerAt(envelope, 0), 'hash', 'email', testCtx())).toThrow(InvalidState);
    expect(() => verifyOtp(envelope, signerAt(envelope, 0), () => true, testCtx())).toThrow(InvalidState);
  });
});

describe('verifying a one-time code (verifyOtp)', () => {
  const withCode = () => {
    const envelope = sent([1]);
    return requestOtp(envelope, signerAt(envelope, 0), 'hash-1', 'email', testCtx(T0)).after;
  };
  const right = (hash: string) => hash === 'hash-1';
  const wrong = () => false;

  it('a correct code clears the signer: code removed, otpVerifiedAt set, signer.otp_verified audited', () => {
    const envelope = withCode();
    const { change, outcome } = verifyOtp(envelope, signerAt(envelope, 0), right, testCtx(at(30)));
    expect(outcome).toBe('verified');
    expect(signerAt(change!.after, 0)).toMatchObject({ otp: null, otpVerifiedAt: at(30).toISOString() });
    expect(change!.audit.map((e) => [e.event, e.actor, e.detail])).toEqual([['signer.otp_verified', `signer:${signerAt(envelope, 0).id}`, { channel: 'email' }]]);
    expect(change!.outbox).toEqual([]);
  });

  it('a wrong code counts a failure, with no audit event and no outbox item', () => {
    const envelope = withCode();
    const { change, outcome } = verifyOtp(envelope, signerAt(envelope, 0), wrong, testCtx(at(30)));
    expect(outcome).toBe('wrong');
    expect(signerAt(change!.after, 0).otp).toMatchObject({ codeHash: 'hash-1', failures: 1 });
    expect(signerAt(change!.after, 0).otpVerifiedAt).toBeNull();
    expect(change!.audit).toEqual([]);
    expect(change!.outbox).toEqual([]);
    expect(change!.after.auditHead).toEqual(envelope.auditHead);
  });

  it('the third wrong code burns it and emits signer.otp_failed', () => {
    let envelope = withCode();
    for (let i = 0; i < 2; i++) {
      const { change, outcome } = verifyOtp(envelope, signerAt(envelope, 0), wrong, testCtx(at(30)));
      expect(outcome).toBe('wrong');
      envelope = change!.after;
    }
    const signer = signerAt(envelope, 0);
    const { change, outcome } = verifyOtp(envelope, signer, wrong, testCtx(at(40)));
    expect(outcome).toBe('burnt');
    expect(signerAt(change!.after, 0)).toMatchObject({ otp: null, otpVerifiedAt: null });
    expect(change!.audit.map((e) => [e.event, e.actor, e.detail])).toEqual([['signer.otp_failed', `signer:${signer.id}`, { failures: 3 }]]);
    expect(change!.outbox).toEqual([{ kind: 'event', id: expect.any(String), envelopeId: envelope.id, event: 'signer.otp_failed', createdAt: at(40).toISOString(), signerId: signer.id }]);
  });

  it('after the code is burnt even the right code answers no_code: a new one must be requested', () => {
    let envelope = withCode();
    for (let i = 0; i < 3; i++) envelope = verifyOtp(envelope, signerAt(envelope, 0), wrong, testCtx(at(30))).change!.after;
    expect(verifyOtp(envelope, signerAt(envelope, 0), right, testCtx(at(31)))).toEqual({ change: null, outcome: 'no_code' });
  });

  it('an expired code answers no_code and changes nothing; it is still good a second before', () => {
    const envelope = withCode();
    expect(verifyOtp(envelope, signerAt(envelope, 0), right, testCtx(at(600)))).toEqual({ change: null, outcome: 'no_code' });
    expect(verifyOtp(envelope, signerAt(envelope, 0), wrong, testCtx(at(600)))).toEqual({ change: null, outcome: 'no_code' });
    expect(verifyOtp(envelope, signerAt(envelope, 0), right, testCtx(at(599))).outcome).toBe('verified');
  });

  it('a code never requested answers no_code', () => {
    const envelope = sent([1]);
    expect(verifyOtp(envelope, signerAt(envelope, 0), right, testCtx())).toEqual({ change: null, outcome: 'no_code' });
  });

  it('an already verified signer answers already_verified with no change, whatever the code', () => {
    const envelope = withCode();
    const verified = verifyOtp(envelope, signerAt(envelope, 0), right, testCtx(at(30))).change!.after;
    expect(verifyOtp(verified, signerAt(verified, 0), wrong, testCtx(at(60)))).toEqual({ change: null, outcome: 'already_verified' });
    expect(verifyOtp(verified, signerAt(verified, 0), right, testCtx(at(60)))).toEqual({ change: null, outcome: 'already_verified' });
  });
});

describe('consent (giveConsent)', () => {
  it('records consent once, auditing signer.consented with the disclosure version, IP and user agent', () => {
    const envelope = sent([1]);
    const signer = signerAt(envelope, 0);
    const change = giveConsent(envelope, signer, testCtx(at(90)));
    expect(signerAt(change.after, 0).consentedAt).toBe(at(90).toISOString());
    expect(change.audit).toHaveLength(1);
    expect(change.audit[0]).toMatchObject({
      event: 'signer.consented', actor: `signer:${signer.id}`, ip: '203.0.113.7', userAgent: 'vitest',
      timestamp: at(90).toISOString(), detail: { disclosureVersion: CONSENT_DISCLOSURE.version },
    });
    expect(CONSENT_DISCLOSURE.version).toBe('2026-01');
  });

  it('consent given twice is a Conflict', () => {
    const envelope = sent([1]);
    const consented = giveConsent(envelope, signerAt(envelope, 0), testCtx()).after;
    expect(() => giveConsent(consented, signerAt(consented, 0), testCtx())).toThrow(Conflict);
  });
});
