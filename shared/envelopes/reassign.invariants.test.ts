/**
 * Reassigning a signer while they sign, as an invariant over many trials on the real engines: exactly one of the two
 * wins. Either the signature stands (every reassign refused as already signed) or the place is handed over (every
 * signature refused: the old link was replaced) and no image of the refused signature is left behind.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { reassignBySender } from '#shared/envelopes/reassign-actions.ts';
import { signDocument } from '#shared/signing/signing-actions.ts';
import { functionDeps } from '#test/support/function-deps.ts';
import { consentedEnvelope, expectInvariants, outcome, pngOf, retried, runRequestedSeals, type TestDeps, inTrials } from '#test/support/invariants.ts';

const TRIALS = 10;
const CONTENDERS = 8;
const AT_ONCE = 2;
const RACE_TIMEOUT = 180_000;
const META = { ip: '198.51.100.4', userAgent: 'race' };
const APP = 'reassign-races-app';

let deps: TestDeps;
beforeAll(async () => { deps = await functionDeps(); });

const all = (count: number, request: (i: number) => Promise<unknown>) => Promise.all(Array.from({ length: count }, (_, i) => outcome(retried(() => request(i)))));
const refusals = (results: Awaited<ReturnType<typeof outcome>>[]) => results.filter((r) => !r.ok).map((r) => `${r.code ?? ''}/${r.reason ?? ''}`);

describe(`reassign racing sign, ${String(TRIALS)} trials of ${String(CONTENDERS)} requests each`, () => {
  it('exactly one wins: a signature that stands, or a reassignment after which the old link signs nothing', async () => {
    const winners = { signed: 0, reassigned: 0 };
    await inTrials(TRIALS, AT_ONCE, async (trial) => {
      const envelope = await consentedEnvelope(deps, APP, [1, 2]);
      const [token, fieldId] = [envelope.tokens[0] ?? '', envelope.fields[0] ?? ''];
      const signerId = (await deps.envelopes.find(envelope.id))?.signers[0]?.id ?? '';
      const half = CONTENDERS / 2;
      const [signed, reassigned] = await Promise.all([
        all(half, (i) => signDocument(deps, token, { fields: [{ fieldId, signatureImageBase64: pngOf(trial * half + i) }], fontLabel: null }, META)),
        all(half, (i) => reassignBySender(deps, APP, envelope.id, signerId, { name: `Other ${String(i)}`, email: `other-${String(trial)}-${String(i)}@example.com` }, META)),
      ]);
      const after = await deps.envelopes.find(envelope.id);
      const slot = after?.signers.find((s) => s.id === signerId);
      const signedOk = signed.filter((r) => r.ok).length;
      const reassignedOk = reassigned.filter((r) => r.ok).length;
      if (slot?.status === 'signed') {
        winners.signed++;
        expect(signedOk).toBe(1);
        expect(reassignedOk).toBe(0);
        for (const refused of refusals(reassigned)) expect(refused).toBe('conflict/already_signed');
      } else {
        winners.reassigned++;
        expect(signedOk).toBe(0);
        expect(reassignedOk).toBeGreaterThanOrEqual(1);
        expect(slot?.email).toMatch(/^other-/);
        for (const refused of refusals(signed)) expect(refused).toBe('unauthorized/link_replaced');
        expect(await deps.envelopes.submissions(envelope.id)).toEqual([]);
      }
      await runRequestedSeals(deps, envelope.id);
      await expectInvariants(deps, envelope.id);
    });
    expect(winners.signed + winners.reassigned).toBe(TRIALS);
  }, RACE_TIMEOUT);
});
