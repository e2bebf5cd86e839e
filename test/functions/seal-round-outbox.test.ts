import { describe, expect, it } from 'vitest';
import { definition as finalizeFunction } from '#functions/workers/finalize.ts';
import { definition as sealFunction } from '#functions/workers/seal.ts';
import type { Deps } from '#shared/deps.ts';
import { sealJobId } from '#shared/envelopes/completion.ts';
import type { EnvelopeRepository } from '#shared/ports/repositories.ts';
import { sealFailed } from '#shared/sealing/sealing-actions.ts';
import { signDocument } from '#shared/signing/signing-actions.ts';
import { sweepOutbox } from '#shared/signing/signing-context.ts';
import { consentedEnvelope, pngOf } from '#test/support/invariants.ts';
import { memoryDeps } from '#test/support/memory-deps.ts';

const META = { ip: '198.51.100.7', userAgent: 'seal-round' };

/** The repository with its reads of one envelope and its outbox removals (calls, not items) counted. */
function counting(envelopes: EnvelopeRepository) {
  const count = { reads: 0, removals: 0 };
  const counted = Object.assign(Object.create(envelopes) as EnvelopeRepository, {
    find: (id: string) => { count.reads++; return envelopes.find(id); },
    findWhole: (id: string, withAudit?: boolean) => { count.reads++; return envelopes.findWhole(id, withAudit); },
    submissions: (id: string) => { count.reads++; return envelopes.submissions(id); },
    removeOutbox: (id: string, ids: readonly string[]) => { count.removals++; return envelopes.removeOutbox(id, ids); },
  });
  return { envelopes: counted, count };
}

/** An envelope whose only signer just signed through the use case: its seal round 1 started. */
async function signedByAll() {
  const deps = await memoryDeps();
  const { id, tokens, fields } = await consentedEnvelope(deps, 'app', [1]);
  const result = await signDocument(deps, tokens[0] ?? '', { fields: [{ fieldId: fields[0] ?? '', signatureImageBase64: pngOf(1) }], fontLabel: null }, META);
  expect(result.allSigned).toBe(true);
  return { deps, id };
}

const sealItems = async (deps: Deps, id: string) =>
  (await deps.envelopes.pendingOutbox(id)).filter((i) => i.kind === 'job' && i.job.type === 'seal').map((i) => i.id);

describe('a seal round\'s outbox item is removed by the commit that ends the round', () => {
  it('the last signature starts round 1 and keeps its item: the signature deletes nothing', async () => {
    const { deps, id } = await signedByAll();
    expect(deps.sent.sealing).toEqual([id]);
    expect(await sealItems(deps, id)).toEqual([sealJobId(id, 1)]);
  });

  it('Finalize reads the envelope once and removes the round\'s item with its own items in one removal', async () => {
    const { deps, id } = await signedByAll();
    const { envelopes, count } = counting(deps.envelopes);
    const sealed = await sealFunction.createHandler(deps)({ envelopeId: id });
    const before = { ...count };
    await finalizeFunction.createHandler({ ...deps, envelopes })(sealed);
    expect((await deps.envelopes.find(id))?.status).toBe('completed');
    expect(count.reads - before.reads).toBe(1);
    expect(count.removals - before.removals).toBe(1);
    expect(await deps.envelopes.pendingOutbox(id)).toEqual([]);
  });

  it('a recorded seal failure removes the round\'s item', async () => {
    const { deps, id } = await signedByAll();
    expect((await sealFailed(deps, id, 1, 'seal key unavailable')).recorded).toBe(true);
    expect(await sealItems(deps, id)).toEqual([]);
  });

  it('a sweep that finds a started round\'s item first starts the round again (refused and ignored by its name) and removes it', async () => {
    const { deps, id } = await signedByAll();
    await sweepOutbox({ ...deps, clock: { now: () => new Date(Date.now() + 2 * 60_000) } });
    expect(deps.sent.sealing).toEqual([id, id]);
    expect(await sealItems(deps, id)).toEqual([]);
  });
});
