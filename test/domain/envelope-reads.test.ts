import { describe, expect, it } from 'vitest';
import { readSigningContext, signDocument } from '#shared/signing/signing-actions.ts';
import type { EnvelopeRepository } from '#shared/ports/repositories.ts';
import { consentedEnvelope, pngOf } from '#test/support/invariants.ts';
import { memoryDeps } from '#test/support/memory-deps.ts';

const META = { ip: '198.51.100.4', userAgent: 'reads' };

/** The repository with its reads of one envelope (alone, with its children, or its children alone) counted. */
function counting(envelopes: EnvelopeRepository): { envelopes: EnvelopeRepository; reads: () => number } {
  let reads = 0;
  const counted = Object.assign(Object.create(envelopes) as EnvelopeRepository, {
    find: (id: string) => { reads++; return envelopes.find(id); },
    findWhole: (id: string, withAudit?: boolean) => { reads++; return envelopes.findWhole(id, withAudit); },
    submissions: (id: string) => { reads++; return envelopes.submissions(id); },
    auditLog: (id: string) => { reads++; return envelopes.auditLog(id); },
  });
  return { envelopes: counted, reads: () => reads };
}

describe('reads of the envelope per request', () => {
  it('a signature reads the envelope once: the commit decides on the envelope the check read', async () => {
    const deps = await memoryDeps();
    const { tokens, fields } = await consentedEnvelope(deps, 'app', [1]);
    const { envelopes, reads } = counting(deps.envelopes);
    const result = await signDocument({ ...deps, envelopes }, tokens[0] ?? '', { fields: [{ fieldId: fields[0] ?? '', signatureImageBase64: pngOf(1) }], fontLabel: null }, META);
    expect(result.allSigned).toBe(true);
    expect(reads()).toBe(1);
  });

  it('a later signer\'s signing context reads the envelope and the earlier signature in one read', async () => {
    const deps = await memoryDeps();
    const { tokens, fields } = await consentedEnvelope(deps, 'app', [1, 1]);
    await signDocument(deps, tokens[0] ?? '', { fields: [{ fieldId: fields[0] ?? '', signatureImageBase64: pngOf(1) }], fontLabel: null }, META);
    const { envelopes, reads } = counting(deps.envelopes);
    const context = await readSigningContext({ ...deps, envelopes }, tokens[1] ?? '', META);
    expect(context.completed.map((c) => c.value.fieldId)).toEqual([fields[0]]);
    expect(context.completed[0]?.png).not.toBeNull();
    expect(reads()).toBe(1);
  });

  it('a change between the check and the commit is caught by the version: the signature commits on the envelope as it stands', async () => {
    const deps = await memoryDeps();
    const { id, tokens, fields } = await consentedEnvelope(deps, 'app', [1, 1]);
    const { envelopes, reads } = counting(deps.envelopes);
    // The other signer signs while this request checks its values (between its read and its commit).
    let raced = false;
    const racing = Object.assign(Object.create(envelopes) as EnvelopeRepository, {
      stageBlobs: async (stage: Parameters<EnvelopeRepository['stageBlobs']>[0]) => {
        if (!raced) {
          raced = true;
          await signDocument(deps, tokens[1] ?? '', { fields: [{ fieldId: fields[1] ?? '', signatureImageBase64: pngOf(2) }], fontLabel: null }, META);
        }
        return envelopes.stageBlobs(stage);
      },
    });
    const result = await signDocument({ ...deps, envelopes: racing }, tokens[0] ?? '', { fields: [{ fieldId: fields[0] ?? '', signatureImageBase64: pngOf(1) }], fontLabel: null }, META);
    expect(result.allSigned).toBe(true);
    expect(reads()).toBe(2);
    expect((await deps.envelopes.find(id))?.signers.map((s) => s.status)).toEqual(['signed', 'signed']);
  });
});
