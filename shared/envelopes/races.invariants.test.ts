/**
 * Concurrency proven as invariants over many trials (not one lucky interleaving), on the real engines (DynamoDB
 * Local, the local S3) through the use cases: whatever the order, the sealed PDF is what was recorded, nothing is
 * orphaned, the chain verifies, and an envelope completes once. See test/support/invariants.ts for the invariants.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { voidEnvelopeNow } from '#shared/envelopes/envelope-actions.ts';
import { declineToSign, signDocument } from '#shared/signing/signing-actions.ts';
import { functionDeps } from '#test/support/function-deps.ts';
import { consentedEnvelope, expectInvariants, outcome, pngOf, retried, runRequestedSeals, type TestDeps, inTrials } from '#test/support/invariants.ts';

const TRIALS = 10;
/** Requests racing within one trial on one envelope. */
const CONTENDERS = 16;
/** Signers of the races between signers: each signature is sealed, so more of them cost more than they prove. */
const SIGNERS = 8;
/** Trials run this many at a time (up to 32 requests in flight): DynamoDB Local copes, and a loaded 2-core machine still finishes. */
const AT_ONCE = 2;
/** Each race's bound (the default is 30 s): its trials on a loaded machine. */
const RACE_TIMEOUT = 180_000;
const META = { ip: '198.51.100.4', userAgent: 'race' };
const APP = 'races-app';

let deps: TestDeps;
beforeAll(async () => { deps = await functionDeps(); });

const trials = (run: (trial: number) => Promise<void>) => inTrials(TRIALS, AT_ONCE, run);

const signWith = (token: string, fieldId: string, shade: number) =>
  signDocument(deps, token, { fields: [{ fieldId, signatureImageBase64: pngOf(shade) }], fontLabel: null }, META);

/**
 * `count` of the same request at once, the i-th built by `request(i)`, each settled into its outcome. So many writers on
 * one envelope can outlast the service's own retries: a request answered "changed meanwhile, retry" is sent again.
 */
const all = (count: number, request: (i: number) => Promise<unknown>) => Promise.all(Array.from({ length: count }, (_, i) => outcome(retried(() => request(i)))));
const refusals = (results: Awaited<ReturnType<typeof outcome>>[]) => results.filter((r) => !r.ok).map((r) => `${r.code ?? ''}/${r.reason ?? ''}`);
const signers = (count: number) => Array.from({ length: count }, () => 1);

describe(`races on one envelope, ${String(TRIALS)} trials each of up to ${String(CONTENDERS)} racing requests`, () => {
  it('the same signer signing many times with different images: one succeeds, and its image is the one stored and sealed', async () => {
    await trials(async (trial) => {
      const envelope = await consentedEnvelope(deps, APP, [1]);
      const [token, field] = [envelope.tokens[0] ?? '', envelope.fields[0] ?? ''];
      const results = await all(CONTENDERS, (i) => signWith(token, field, trial * CONTENDERS + i));
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(new Set(refusals(results))).toEqual(new Set(['conflict/already_signed']));
      await runRequestedSeals(deps, envelope.id);
      expect((await deps.envelopes.find(envelope.id))?.status).toBe('completed');
      await expectInvariants(deps, envelope.id);
    });
  }, RACE_TIMEOUT);

  it('signs against voids: either a signature stands and every void is refused, or one void wins and no image is left behind', async () => {
    await trials(async (trial) => {
      const envelope = await consentedEnvelope(deps, APP, trial % 2 === 0 ? [1] : [1, 2]);
      const half = CONTENDERS / 2;
      const [signed, voided] = await Promise.all([
        all(half, (i) => signWith(envelope.tokens[0] ?? '', envelope.fields[0] ?? '', trial * half + i)),
        all(half, () => voidEnvelopeNow(deps, APP, envelope.id, 'race', META)),
      ]);
      const status = (await deps.envelopes.find(envelope.id))?.status;
      expect(signed.filter((r) => r.ok).length).toBeLessThanOrEqual(1);
      expect(voided.filter((r) => r.ok)).toHaveLength(status === 'voided' ? 1 : 0);
      // A void after another is refused as already ended; after the last signature, as sealing (that signature completed it).
      for (const refused of refusals(voided)) expect(['invalid_state/', 'invalid_state/envelope_sealing']).toContain(refused);
      for (const refused of refusals(signed)) expect(['conflict/already_signed', 'unauthorized/envelope_voided']).toContain(refused);
      await runRequestedSeals(deps, envelope.id);
      await expectInvariants(deps, envelope.id);
    });
  }, RACE_TIMEOUT);

  it('the last signatures all at once: routing and sealing run once, and the envelope completes once', async () => {
    await trials(async (trial) => {
      const envelope = await consentedEnvelope(deps, APP, signers(SIGNERS));
      const results = await all(SIGNERS, (i) => signWith(envelope.tokens[i] ?? '', envelope.fields[i] ?? '', trial + i));
      expect(results.every((r) => r.ok)).toBe(true);
      expect(deps.sent.sealing.filter((id) => id === envelope.id)).toHaveLength(1);
      await runRequestedSeals(deps, envelope.id);
      expect((await deps.envelopes.find(envelope.id))?.status).toBe('completed');
      await expectInvariants(deps, envelope.id);
    });
  }, RACE_TIMEOUT);

  it('signs against declines by the other signers: one decline wins, and the envelope keeps no sealed file and no refused image', async () => {
    await trials(async (trial) => {
      const envelope = await consentedEnvelope(deps, APP, signers(SIGNERS));
      const half = SIGNERS / 2;
      const [signed, declined] = await Promise.all([
        all(half, (i) => signWith(envelope.tokens[i] ?? '', envelope.fields[i] ?? '', trial + i)),
        all(half, (i) => declineToSign(deps, envelope.tokens[half + i] ?? '', 'no', META)),
      ]);
      expect(declined.filter((r) => r.ok)).toHaveLength(1);
      expect((await deps.envelopes.find(envelope.id))?.status).toBe('declined');
      for (const refused of [...refusals(signed), ...refusals(declined)]) expect(refused).toBe('unauthorized/envelope_declined');
      await runRequestedSeals(deps, envelope.id);
      await expectInvariants(deps, envelope.id);
    });
  }, RACE_TIMEOUT);

  it('voids right after the last signature are refused: the envelope completes and is never voided', async () => {
    await trials(async (trial) => {
      const envelope = await consentedEnvelope(deps, APP, [1]);
      await signWith(envelope.tokens[0] ?? '', envelope.fields[0] ?? '', trial);
      const [voided] = await Promise.all([all(CONTENDERS, () => voidEnvelopeNow(deps, APP, envelope.id, 'too late', META)), runRequestedSeals(deps, envelope.id)]);
      expect(voided.filter((r) => r.ok)).toEqual([]);
      for (const refused of refusals(voided)) expect(['invalid_state/', 'invalid_state/envelope_sealing']).toContain(refused);
      expect((await deps.envelopes.find(envelope.id))?.status).toBe('completed');
      await expectInvariants(deps, envelope.id);
    });
  }, RACE_TIMEOUT);
});
