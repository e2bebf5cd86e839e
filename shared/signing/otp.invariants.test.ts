/**
 * The one-time code budget under concurrency, as invariants over many trials on the real engines (DynamoDB Local,
 * the local S3) through the use cases: however wrong codes and code requests interleave at the budget's edge, the
 * link never counts past its budget, it locks exactly once (one audit entry, one notice to the sender), and every
 * request past the lock is refused with otp_locked.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { changeOf } from '#shared/kernel/change.ts';
import { OTP_LIFETIME_CODES, OTP_LIFETIME_WRONG_TRIES } from '#shared/signing/otp-budget.ts';
import type { OtpUsage } from '#shared/kernel/model.ts';
import { sendEnvelopeNow } from '#shared/envelopes/envelope-actions.ts';
import { contextOf } from '#shared/signing/signing-context.ts';
import { requestCode, verifyCode } from '#shared/signing/signing-actions.ts';
import { createEnvelope } from '#shared/envelopes/upload-actions.ts';
import { parseWith } from '#shared/http/validation.ts';
import { CreateEnvelopeRequest } from '#shared/envelopes/envelope-schemas.ts';
import { functionDeps } from '#test/support/function-deps.ts';
import { expectInvariants, outcome, type TestDeps, inTrials } from '#test/support/invariants.ts';
import { makePdf } from '#test/support/pdfs.ts';

const TRIALS = 50;
/** Trials run this many at a time: enough to keep the engines busy, few enough for a 2-core machine. */
const AT_ONCE = 5;
/** Requests racing in each trial. */
const RACERS = 6;
const META = { ip: '198.51.100.4', userAgent: 'race' };
const APP = 'otp-races-app';
const SENDER = 'sender@example.com';

let deps: TestDeps;
beforeAll(async () => { deps = await functionDeps(); });

const trials = (run: (trial: number) => Promise<void>) => inTrials(TRIALS, AT_ONCE, run);

/**
 * A sent envelope whose one signer asked for a code (the code is returned) and whose link's budget is then set to
 * `usage`: the edge the trial races at, without sending dozens of codes first.
 */
async function signerAtTheEdge(trial: number, usage: Omit<OtpUsage, 'lockedAt'>) {
  const email = `s${String(trial)}-${String(Date.now())}@example.com`;
  const request = parseWith(CreateEnvelopeRequest, {
    tenantId: 'otp-races', subject: 'Race', createdBy: SENDER, signers: [{ name: 'S', email }],
    fields: [{ signerIndex: 0, type: 'signature', page: 1, x: 72, y: 72, w: 180, h: 40 }],
  });
  const created = await createEnvelope(deps, APP, request, [{ bytes: await makePdf({ pages: 1 }), filename: 'race.pdf' }], META);
  const { signingUrls } = await sendEnvelopeNow(deps, APP, created.id, null, META);
  const token = [...signingUrls.values()][0]?.split('/').at(-1) ?? '';
  await requestCode(deps, token, META);
  const code = /\b(\d{6})\b/.exec(deps.sent.emails.filter((m) => m.to === email).at(-1)?.subject ?? '')?.[1] ?? '';
  const envelope = await deps.envelopes.find(created.id);
  if (!envelope || !code) throw new Error('the envelope or its code is missing');
  const primed = { ...envelope, signers: envelope.signers.map((s) => ({ ...s, otpUsage: { ...usage, lockedAt: null }, otpRequests: [] })) };
  await deps.envelopes.commit(changeOf(envelope, primed, [], [], contextOf(deps, META)));
  return { id: created.id, token, email, wrong: String((Number(code) + 1) % 1_000_000).padStart(6, '0') };
}

/** What must hold once the dust settles: the budget spent exactly, one lock, one audit entry, one notice job. */
async function expectLockedOnce(envelopeId: string) {
  const envelope = await deps.envelopes.find(envelopeId);
  const usage = envelope?.signers[0]?.otpUsage;
  const audit = await deps.envelopes.auditLog(envelopeId);
  const notices = deps.sent.jobs.filter((j) => j.type === 'notice.send' && j.notice.envelopeId === envelopeId);
  expect(usage?.lockedAt).toEqual(expect.any(String));
  expect(usage?.wrongTries).toBeLessThanOrEqual(OTP_LIFETIME_WRONG_TRIES);
  expect(usage?.codesSent).toBeLessThanOrEqual(OTP_LIFETIME_CODES);
  expect(audit.filter((e) => e.event === 'signer.otp_locked')).toHaveLength(1);
  expect(notices).toHaveLength(1);
  await expectInvariants(deps, envelopeId);
  return usage;
}

describe('one-time code budget races, 50 trials each', () => {
  it('wrong codes racing at the edge of the budget: counted once each up to the budget, never past it, locked once', async () => {
    await trials(async (trial) => {
      const start = OTP_LIFETIME_WRONG_TRIES - 2;
      const { id, token, wrong } = await signerAtTheEdge(trial, { codesSent: 1, wrongTries: start });
      const results = await Promise.all(Array.from({ length: RACERS }, () => outcome(verifyCode(deps, token, wrong, META))));
      const usage = await expectLockedOnce(id);
      expect(usage?.wrongTries).toBe(OTP_LIFETIME_WRONG_TRIES);
      // One wrong code was answered as such, the one that spent the budget and every later one were refused as locked
      expect(results.filter((r) => r.reason === 'code_incorrect')).toHaveLength(1);
      expect(results.filter((r) => r.reason === 'otp_locked')).toHaveLength(RACERS - 1);
    });
  });

  it('code requests and wrong codes racing at both edges: neither budget is passed, no code goes out after the lock', async () => {
    await trials(async (trial) => {
      const { id, token, email, wrong } = await signerAtTheEdge(trial, { codesSent: OTP_LIFETIME_CODES - 1, wrongTries: OTP_LIFETIME_WRONG_TRIES - 1 });
      const emailsTo = () => deps.sent.emails.filter((m) => m.to === email).length;
      const before = emailsTo();
      const results = await Promise.all(Array.from({ length: RACERS }, (_, i) =>
        outcome(i % 2 === 0 ? requestCode(deps, token, META) : verifyCode(deps, token, wrong, META))));
      const usage = await expectLockedOnce(id);
      const codesSent = results.filter((r, i) => i % 2 === 0 && r.ok).length;
      expect(usage?.codesSent).toBe(OTP_LIFETIME_CODES - 1 + codesSent);
      // Each code that went out is one email (the lock's notice goes through the jobs queue, not here)
      expect(emailsTo() - before).toBe(codesSent);
      expect(results.filter((r) => !r.ok && r.reason !== 'otp_locked' && r.reason !== 'code_incorrect')).toEqual([]);
    });
  });
});
