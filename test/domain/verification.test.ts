/**
 * The seal record a holder of a sealed file may read (memory adapters): found by the sealed file's hash and by the
 * ids the certificate prints (the original's or the sealed document's), never before completion, never for ids that
 * do not belong together, and never with a name, email or id in it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { NotFound } from '#shared/kernel/errors.ts';
import type { Document } from '#shared/kernel/model.ts';
import { finalizeStep, sealStep } from '#shared/sealing/sealing-actions.ts';
import { sealedByHash, sealedDocument } from '#shared/verify/verification-actions.ts';
import { memoryDeps } from '#test/support/memory-deps.ts';
import { fullySigned } from '#test/support/sealing.ts';

let deps: Awaited<ReturnType<typeof memoryDeps>>;
beforeAll(async () => { deps = await memoryDeps(); });

describe('the seal record', () => {
  it('is unknown until the envelope completes, then found by hash and by the printed ids, naming nobody', async () => {
    const id = await fullySigned(deps);
    const signed = await deps.envelopes.find(id);
    const original = signed?.documents[0];
    await expect(sealedDocument(deps, id, original?.id ?? '')).rejects.toBeInstanceOf(NotFound);
    const sealed = await sealStep(deps, id);
    const hash = sealed.files[0]?.sha256 ?? '';
    await expect(sealedByHash(deps, hash)).rejects.toBeInstanceOf(NotFound); // sealed, not yet completed
    await finalizeStep(deps, sealed);
    const envelope = await deps.envelopes.find(id);
    const sealedDoc = envelope?.documents.find((d) => d.kind === 'sealed');

    const byHash = await sealedByHash(deps, hash.toUpperCase());
    const log = await deps.envelopes.auditLog(id);
    const sealedEntry = log.find((e) => e.event === 'envelope.sealed');
    expect(byHash).toEqual({
      sealedByThisService: true, status: 'completed', completedAt: sealed.sealedAt, documentCount: 1, signerCount: 1, padesLevel: deps.config.padesLevel,
      auditChainHead: sealedEntry?.prevHash, auditChainHeadEvent: (sealedEntry?.seq ?? 0) - 1,
    });
    expect(log.find((e) => e.seq === byHash.auditChainHeadEvent)?.hash).toBe(byHash.auditChainHead);
    const text = JSON.stringify(byHash);
    for (const secret of [id, 's@example.com', 'Seal me', original?.id ?? '-', sealedDoc?.id ?? '-']) expect(text).not.toContain(secret);

    expect(await sealedDocument(deps, `env_${id}`, `doc_${original?.id ?? ''}`)).toEqual({ ...byHash, sha256: hash });
    expect((await sealedDocument(deps, id, sealedDoc?.id ?? '')).sha256).toBe(hash);
  });

  it('answers the level the seal was made at, not the one configured now; a record without it falls back', async () => {
    const id = await fullySigned(deps);
    const sealed = await sealStep(deps, id); // memory deps seal at B-B
    await finalizeStep(deps, sealed);
    const hash = sealed.files[0]?.sha256 ?? '';
    const reconfigured = { ...deps, config: { ...deps.config, padesLevel: 'B-LTA' as const } };
    expect((await deps.envelopes.find(id))?.documents.find((d) => d.kind === 'sealed')?.padesLevel).toBe('B-B');
    expect((await sealedByHash(reconfigured, hash)).padesLevel).toBe('B-B');

    // a record from before the level was kept: the level configured now, or B-LTA once archive timestamps were added
    const legacy = (padesLevel: 'B-T' | 'B-LTA', extra: Partial<Document> = {}) => sealedByHash({
      config: { padesLevel },
      envelopes: {
        find: async (envelopeId: string) => {
          const envelope = await deps.envelopes.find(envelopeId);
          return envelope && { ...envelope, documents: envelope.documents.map(({ padesLevel: _kept, ...d }) => (d.kind === 'sealed' ? { ...d, ...extra } : d)) };
        },
        findSealed: (sha256: string) => deps.envelopes.findSealed(sha256),
        auditLog: (envelopeId: string) => deps.envelopes.auditLog(envelopeId),
      },
    }, hash);
    expect((await legacy('B-T')).padesLevel).toBe('B-T');
    expect((await legacy('B-T', { archiveValidUntil: '2036-01-01T00:00:00.000Z' })).padesLevel).toBe('B-LTA');
  });

  it('404 for an unknown or malformed hash, and for ids of another envelope', async () => {
    const other = await fullySigned(deps);
    const otherDoc = (await deps.envelopes.find(other))?.documents[0]?.id ?? '';
    const id = await fullySigned(deps);
    await finalizeStep(deps, await sealStep(deps, id));
    for (const hash of ['0'.repeat(64), 'xyz', '']) await expect(sealedByHash(deps, hash)).rejects.toBeInstanceOf(NotFound);
    await expect(sealedDocument(deps, id, otherDoc)).rejects.toBeInstanceOf(NotFound);
    await expect(sealedDocument(deps, 'not-an-id', otherDoc)).rejects.toBeInstanceOf(NotFound);
  });
});
