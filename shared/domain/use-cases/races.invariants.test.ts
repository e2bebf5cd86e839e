/**
 * Concurrency proven as invariants over many trials (not one lucky interleaving), on the real engines (DynamoDB
 * Local, the local S3) through the use cases: whatever the order, the sealed PDF is what was recorded, nothing is
 * orphaned, the chain verifies, and an envelope completes once. See test/support/invariants.ts for the invariants.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { voidEnvelopeNow } from '#domain/use-cases/envelopes.ts';
import { declineToSign, signDocument } from '#domain/use-cases/signing.ts';
import { functionDeps } from '#test/support/function-deps.ts';
import { consentedEnvelope, expectInvariants, outcome, pngOf, runRequestedSeals, type TestDeps } from '#test/support/invariants.ts';

const TRIALS = 50;
/** Trials run this many at a time: enough to keep the engines busy, few enough for a 2-core machine. */
const AT_ONCE = 5;
const META = { ip: '198.51.100.4', userAgent: 'race' };
const APP = 'races-app';

let deps: TestDeps;
beforeAll(async () => { deps = await functionDeps(); });

async function trials(run: (trial: number) => Promise<void>): Promise<void> {
  for (let start = 0; start < TRIALS; start += AT_ONCE) {
    await Promise.all(Array.from({ length: Math.min(AT_ONCE, TRIALS - start) }, (_, i) => run(start + i)));
  }
}

const signWith = (token: string, fieldId: string, shade: number) =>
  signDocument(deps, token, { fields: [{ fieldId, signatureImageBase64: pngOf(shade) }], fontLabel: null }, META);

describe('races on one envelope, 50 trials each', () => {
  it('the same signer signing twice with different images: one succeeds, and its image is the one stored and sealed', async () => {
    await trials(async (trial) => {
      const envelope = await consentedEnvelope(deps, APP, [1]);
      const [token, field] = [envelope.tokens[0] ?? '', envelope.fields[0] ?? ''];
      const results = await Promise.all([outcome(signWith(token, field, 10 + trial)), outcome(signWith(token, field, 200 - trial))]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.find((r) => !r.ok)).toMatchObject({ code: 'conflict', reason: 'already_signed' });
      await runRequestedSeals(deps, envelope.id);
      expect((await deps.envelopes.find(envelope.id))?.status).toBe('completed');
      await expectInvariants(deps, envelope.id);
    });
  });

  it('sign against void: either the signature stands and void is refused, or void wins and no image is left behind', async () => {
    await trials(async (trial) => {
      const envelope = await consentedEnvelope(deps, APP, trial % 2 === 0 ? [1] : [1, 2]);
      const [signed, voided] = await Promise.all([
        outcome(signWith(envelope.tokens[0] ?? '', envelope.fields[0] ?? '', trial)),
        outcome(voidEnvelopeNow(deps, APP, envelope.id, 'race', META)),
      ]);
      const status = (await deps.envelopes.find(envelope.id))?.status;
      if (voided.ok) expect(status).toBe('voided');
      else expect(voided).toMatchObject({ code: 'invalid_state', reason: 'envelope_sealing' }); // DECISIONS 30: the last signature won
      if (!signed.ok) expect(signed).toMatchObject({ code: 'unauthorized', reason: 'envelope_voided' });
      await runRequestedSeals(deps, envelope.id);
      await expectInvariants(deps, envelope.id);
    });
  });

  it('the last two signatures at once: routing and sealing run once, and the envelope completes once', async () => {
    await trials(async (trial) => {
      const envelope = await consentedEnvelope(deps, APP, [1, 1]);
      const results = await Promise.all(envelope.tokens.map((token, i) => outcome(signWith(token, envelope.fields[i] ?? '', trial + i))));
      expect(results.every((r) => r.ok)).toBe(true);
      expect(deps.sent.sealing.filter((id) => id === envelope.id)).toHaveLength(1);
      await runRequestedSeals(deps, envelope.id);
      expect((await deps.envelopes.find(envelope.id))?.status).toBe('completed');
      await expectInvariants(deps, envelope.id);
    });
  });

  it('sign against decline by the other signer: a declined envelope keeps no sealed file and no refused image', async () => {
    await trials(async (trial) => {
      const envelope = await consentedEnvelope(deps, APP, [1, 1]);
      const [signed, declined] = await Promise.all([
        outcome(signWith(envelope.tokens[0] ?? '', envelope.fields[0] ?? '', trial)),
        outcome(declineToSign(deps, envelope.tokens[1] ?? '', 'no', META)),
      ]);
      expect(declined.ok).toBe(true);
      expect((await deps.envelopes.find(envelope.id))?.status).toBe('declined');
      if (!signed.ok) expect(signed).toMatchObject({ code: 'unauthorized', reason: 'envelope_declined' });
      await runRequestedSeals(deps, envelope.id);
      await expectInvariants(deps, envelope.id);
    });
  });

  it('void right after the last signature is refused: the envelope completes and is never voided', async () => {
    await trials(async (trial) => {
      const envelope = await consentedEnvelope(deps, APP, [1]);
      await signWith(envelope.tokens[0] ?? '', envelope.fields[0] ?? '', trial);
      const [voided] = await Promise.all([outcome(voidEnvelopeNow(deps, APP, envelope.id, 'too late', META)), runRequestedSeals(deps, envelope.id)]);
      expect(voided).toMatchObject({ ok: false, code: expect.stringMatching(/^invalid_state$/) as unknown });
      expect((await deps.envelopes.find(envelope.id))?.status).toBe('completed');
      await expectInvariants(deps, envelope.id);
    });
  });
});
