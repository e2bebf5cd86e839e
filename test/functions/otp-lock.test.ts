/**
 * A signing link's lifetime budget of one-time codes through the use cases, on in-memory ports: a guesser who keeps
 * to the rate limit is locked out, every signing step then answers otp_locked, the sender is told (a notice job the
 * worker renders), and the sender's resend unlocks the signer with a fresh link.
 */
import { describe, expect, it } from 'vitest';
import { verifyChain } from '#shared/kernel/audit-chain.ts';
import { OTP_LIFETIME_CODES, OTP_LIFETIME_WRONG_TRIES } from '#shared/signing/otp-budget.ts';
import type { Job, NoticeOutboxItem } from '#shared/notices/outbox.ts';
import { OTP_MAX_FAILURES, OTP_REQUEST_LIMIT, OTP_REQUEST_WINDOW_SECONDS } from '#shared/signing/signing.ts';
import { sendEnvelopeNow } from '#shared/envelopes/envelope-actions.ts';
import { sendNotices } from '#shared/notices/notification-actions.ts';
import { resendLink } from '#shared/envelopes/routing-actions.ts';
import { consentToSign, declineToSign, readSigningContext, requestCode, signingDocument, verifyCode } from '#shared/signing/signing-actions.ts';
import { createEnvelope } from '#shared/envelopes/upload-actions.ts';
import { parseWith } from '#shared/http/validation.ts';
import { CreateEnvelopeRequest } from '#shared/envelopes/envelope-schemas.ts';
import { memoryDeps } from '#test/support/memory-deps.ts';
import { outcome } from '#test/support/invariants.ts';
import { makePdf } from '#test/support/pdfs.ts';

const META = { ip: '198.51.100.9', userAgent: 'guesser' };
const APP = 'app-otp';
const SENDER = 'owner@example.com';
const ANA = 'ana@example.com';

async function setup() {
  let now = new Date('2026-11-01T10:00:00.000Z');
  const deps = await memoryDeps({ clock: { now: () => now } });
  const request = parseWith(CreateEnvelopeRequest, {
    tenantId: 'acme', subject: 'NDA', createdBy: SENDER, expiresInDays: 3650,
    signers: [{ name: 'Ana', email: ANA }], fields: [{ signerIndex: 0, type: 'signature', page: 1, x: 72, y: 72, w: 180, h: 40 }],
  });
  const created = await createEnvelope(deps, APP, request, [{ bytes: await makePdf({ pages: 1 }), filename: 'nda.pdf' }], META);
  const { signingUrls } = await sendEnvelopeNow(deps, APP, created.id, null, META);
  const signerId = created.signers[0]?.id ?? '';
  const token = signingUrls.get(signerId)?.split('/').at(-1) ?? '';
  return { deps, envelopeId: created.id, signerId, token, advance: (seconds: number) => { now = new Date(now.getTime() + seconds * 1000); } };
}

type Setup = Awaited<ReturnType<typeof setup>>;

/** The code in the newest email to Ana. */
function lastCode(deps: Setup['deps']): string {
  const code = deps.sent.emails.filter((m) => m.to === ANA).map((m) => /\b(\d{6})\b/.exec(m.subject)?.[1]).filter(Boolean).at(-1);
  if (!code) throw new Error('no code was emailed');
  return code;
}

const wrongFor = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** Guesses wrong, a code at a time and inside the rate limit, until something other than a wrong code answers. */
async function guessUntilRefused({ deps, token, advance }: Setup) {
  for (let wrong = 0; ;) {
    advance(OTP_REQUEST_WINDOW_SECONDS / OTP_REQUEST_LIMIT + 1);
    const requested = await outcome(requestCode(deps, token, META));
    if (!requested.ok) return { wrong, refused: requested };
    for (let i = 0; i < OTP_MAX_FAILURES; i++) {
      const verified = await outcome(verifyCode(deps, token, wrongFor(lastCode(deps)), META));
      if (verified.code !== 'validation_error') return { wrong: wrong + 1, refused: verified };
      wrong++;
    }
  }
}

describe('the one-time code budget of a signing link, on in-memory ports', () => {
  it('locks at the last wrong code of the budget, tells the sender, refuses every step; the sender\'s resend unlocks', async () => {
    const setupDone = await setup();
    const { deps, envelopeId, signerId, token } = setupDone;
    const { wrong, refused } = await guessUntilRefused(setupDone);
    expect(wrong).toBe(OTP_LIFETIME_WRONG_TRIES);
    expect(refused).toEqual({ ok: false, code: 'unauthorized', reason: 'otp_locked' });
    const codesEmailed = deps.sent.emails.filter((m) => m.to === ANA && /\d{6}/.test(m.subject)).length;
    expect(codesEmailed).toBe(Math.ceil(OTP_LIFETIME_WRONG_TRIES / OTP_MAX_FAILURES));

    // Every signing step of the link answers the same reason
    // one at a time: a step started before the previous is awaited would reject with no handler yet
    for (const step of [
      () => readSigningContext(deps, token, META), () => requestCode(deps, token, META), () => verifyCode(deps, token, lastCode(deps), META),
      () => consentToSign(deps, token, META), () => declineToSign(deps, token, null, META), () => signingDocument(deps, token, null, META, () => 'inline'),
    ]) expect(await outcome(step())).toEqual({ ok: false, code: 'unauthorized', reason: 'otp_locked' });

    const audit = await deps.envelopes.auditLog(envelopeId);
    expect(audit.filter((e) => e.event === 'signer.otp_locked')).toEqual([expect.objectContaining({
      actor: `signer:${signerId}`, ip: META.ip, detail: { cause: 'wrong_codes', codesSent: 17, wrongTries: OTP_LIFETIME_WRONG_TRIES },
    })]);
    const envelope = await deps.envelopes.find(envelopeId);
    expect(verifyChain(envelopeId, audit)).toEqual({ valid: true, head: envelope?.auditHead });

    // The sender's notice leaves through the jobs worker, rendered from the catalogue
    const jobs = deps.sent.jobs.filter((j): j is Extract<Job, { type: 'notice.send' }> => j.type === 'notice.send');
    expect(jobs.map((j) => j.notice)).toEqual([expect.objectContaining({ notice: 'otp_locked', recipients: [{ name: SENDER, email: SENDER }] }) as NoticeOutboxItem]);
    if (!envelope || !jobs[0]) throw new Error('no envelope or notice');
    await sendNotices(deps, envelope, jobs[0].notice);
    const notice = deps.sent.emails.find((m) => m.to === SENDER);
    expect(notice?.subject).toBe('Signing link locked: NDA');
    expect(notice?.text).toContain('The signing link of Ana (ana@example.com) for NDA is locked');
    expect(notice?.text).toContain('resend their signing link');

    // Resend: a fresh link with a fresh budget; the old link stays replaced
    const resent = await resendLink(deps, APP, envelopeId, signerId, META);
    const fresh = resent.signingUrl.split('/').at(-1) ?? '';
    expect(await outcome(readSigningContext(deps, token, META))).toMatchObject({ reason: 'link_replaced' });
    expect((await readSigningContext(deps, fresh, META)).signer.otpUsage).toBeNull();
    await requestCode(deps, fresh, META);
    expect(await outcome(verifyCode(deps, fresh, wrongFor(lastCode(deps)), META))).toMatchObject({ reason: 'code_incorrect' });
    expect(await verifyCode(deps, fresh, lastCode(deps), META)).toEqual({ verified: true });
    expect(await outcome(consentToSign(deps, fresh, META))).toMatchObject({ ok: true });
    const after = await deps.envelopes.auditLog(envelopeId);
    expect(after.filter((e) => e.event === 'signer.otp_unlocked')).toEqual([expect.objectContaining({
      detail: expect.objectContaining({ signerId, wrongTries: OTP_LIFETIME_WRONG_TRIES }) as unknown,
    })]);
  });

  it('locks when a code is asked for past the codes budget, and sends no code for that request', async () => {
    const { deps, token, advance } = await setup();
    for (let i = 0; i < OTP_LIFETIME_CODES; i++) {
      advance(OTP_REQUEST_WINDOW_SECONDS);
      await requestCode(deps, token, META);
    }
    const emailsBefore = deps.sent.emails.length;
    advance(OTP_REQUEST_WINDOW_SECONDS);
    expect(await outcome(requestCode(deps, token, META))).toEqual({ ok: false, code: 'unauthorized', reason: 'otp_locked' });
    expect(deps.sent.emails.length).toBe(emailsBefore);
    // The last code sent no longer works either: the lock voids it
    expect(await outcome(verifyCode(deps, token, lastCode(deps), META))).toMatchObject({ reason: 'otp_locked' });
  });
});
