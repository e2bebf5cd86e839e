import { createHash, generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { KeyFileSigner } from '#shared/adapters/local/key-file-signer.ts';
import { SealKeyMismatch } from '#shared/sealing/seal-key-check.ts';
import { tempDir } from '#test/pdf/signature-tools.ts';
import { MemoryMetrics } from '#shared/adapters/emf-metrics.ts';
import { LocalWorkflows } from '#shared/adapters/local/local-workflows.ts';
import { createEnvelope } from '#shared/envelopes/envelope.ts';
import { originals } from '#shared/kernel/model.ts';
import { finalizeStep, sealStep } from '#shared/sealing/sealing-actions.ts';
import { memoryDeps } from '#test/support/memory-deps.ts';
import { signerInput, testCtx } from '#test/support/domain.ts';
import { fullySigned } from '#test/support/sealing.ts';

let deps: Awaited<ReturnType<typeof memoryDeps>>;
beforeAll(async () => { deps = await memoryDeps(); });

describe('the seal workflow steps', () => {
  it('a failed seal leaves the envelope in progress; the retry completes it; a repeated finalize changes nothing and keeps the file', async () => {
    const id = await fullySigned(deps);
    let failures = 1;
    const flaky = { ...deps, documentSigner: { ...deps.documentSigner, algorithm: deps.documentSigner.algorithm, certificateChain: () => deps.documentSigner.certificateChain(),
      signDigest: (digest: Uint8Array) => (failures-- > 0 ? Promise.reject(new Error('KMS throttled')) : deps.documentSigner.signDigest(digest)) } };
    await expect(sealStep(flaky, id)).rejects.toThrow('KMS throttled');
    expect((await deps.envelopes.find(id))?.status).toBe('in_progress');

    const sealed = await sealStep(flaky, id);
    expect(sealed.files).toMatchObject([{ blobKey: `sealed/${id}/${sealed.stageId}/${sealed.files[0]?.sourceDocumentId ?? ''}.pdf`, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown }]);
    expect((await deps.envelopes.find(id))?.status).toBe('in_progress');
    await finalizeStep(deps, sealed);
    const completed = await deps.envelopes.find(id);
    expect(completed).toMatchObject({ status: 'completed', documentHashFinal: sealed.files[0]?.sha256, completedAt: sealed.sealedAt });
    const events = (await deps.envelopes.auditLog(id)).length;
    await finalizeStep(deps, sealed);
    expect((await deps.envelopes.auditLog(id)).length).toBe(events);
    expect(await deps.blobs.get(sealed.files[0]?.blobKey ?? '')).toBeDefined();

    const mails = deps.sent.emails.filter((m) => m.to === 's@example.com' && m.subject.startsWith('Completed'));
    expect(mails).toHaveLength(1);
    expect(mails[0]?.attachments?.[0]).toMatchObject({ filename: 'Seal me.pdf', contentType: 'application/pdf' });
  });

  it('a second round that lost to a completed envelope deletes its own file, never the recorded one', async () => {
    const id = await fullySigned(deps);
    const [first, second] = [await sealStep(deps, id), await sealStep(deps, id)];
    expect(first.files[0]?.blobKey).not.toBe(second.files[0]?.blobKey);
    await finalizeStep(deps, first);
    await finalizeStep(deps, second);
    expect((await deps.envelopes.find(id))?.documentHashFinal).toBe(first.files[0]?.sha256);
    expect(await deps.blobs.get(first.files[0]?.blobKey ?? '')).toBeDefined();
    expect(await deps.blobs.get(second.files[0]?.blobKey ?? '')).toBeUndefined();
  });

  it('counts what it commits: every audit event by name, and the seal\'s duration', async () => {
    const metrics = new MemoryMetrics();
    const counted = { ...deps, metrics };
    const id = await fullySigned(counted);
    const before = (await deps.envelopes.auditLog(id)).length;
    await finalizeStep(counted, await sealStep(counted, id));
    const events = (await deps.envelopes.auditLog(id)).slice(before).map((e) => e.event);
    expect(events.length).toBeGreaterThan(0);
    for (const event of new Set(events)) expect(metrics.total('AuditEvents', event), event).toBe(events.filter((e) => e === event).length);
    expect(metrics.total('AuditEvents', 'envelope.completed')).toBe(1);
    expect(metrics.recorded.filter((m) => m.name === 'SealDuration')).toEqual([{ name: 'SealDuration', value: expect.any(Number) as unknown }]);
  });

  it('seals only the original its record names, checked on the seal\'s one pass; records the stored file\'s own SHA-256 and size', async () => {
    const id = await fullySigned(deps);
    const key = originals((await deps.envelopes.find(id))!)[0]?.blobKey ?? '';
    const stored = (await deps.blobs.get(key))!;
    await deps.blobs.put(key, [stored, Buffer.from('%altered\n')], 'application/pdf');
    let signatures = 0;
    const counting = { ...deps, documentSigner: { ...deps.documentSigner, algorithm: deps.documentSigner.algorithm, certificateChain: () => deps.documentSigner.certificateChain(),
      signDigest: (digest: Uint8Array) => { signatures++; return deps.documentSigner.signDigest(digest); } } };
    await expect(sealStep(counting, id)).rejects.toMatchObject({ name: 'BlobMismatch' });
    expect(signatures).toBe(0);
    expect(await deps.envelopes.abandonedStages(new Date('2100-01-01T00:00:00Z'), 1000)).not.toContainEqual(expect.objectContaining({ envelopeId: id }));

    await deps.blobs.put(key, stored, 'application/pdf');
    const [file] = (await sealStep(counting, id)).files;
    const sealed = (await deps.blobs.get(file?.blobKey ?? ''))!;
    expect(signatures).toBe(1);
    expect(file).toMatchObject({ sha256: createHash('sha256').update(sealed).digest('hex'), sizeBytes: sealed.length });
    expect(Buffer.from(sealed.subarray(0, stored.length)).equals(stored)).toBe(true);
  });

  it('refuses to seal an envelope that is not fully signed, without retrying', async () => {
    const ctx = testCtx(new Date());
    const created = createEnvelope({
      id: deps.ids.next(), appId: 'app', tenantId: 't', subject: null, createdBy: null, expiresInDays: 5, fieldOrigin: 'bottom-left', signers: [signerInput('n@example.com')], fields: [], documents: [],
    }, ctx);
    await deps.envelopes.commit(created);
    await expect(sealStep(deps, created.after.id)).rejects.toMatchObject({ name: 'EnvelopeNotReady' });
  });
});

describe('local workflow executions', () => {
  it('use a name once, as Step Functions does: a second start, running or finished, failed or not, is a no-op; the next round has its own name', async () => {
    const workflows = new LocalWorkflows();
    const runs: object[] = [];
    const endings: ((error?: Error) => void)[] = [];
    workflows.useRunner('seal-envelope', (input) => {
      runs.push(input);
      return new Promise<void>((resolve, reject) => { endings.push((error) => { if (error) reject(error); else resolve(); }); });
    });
    // The promise chain after an execution ends is microtasks only: one macrotask turn sees it through.
    const settled = () => new Promise((resolve) => setImmediate(resolve));

    await workflows.startSealing('e1', 1);
    await workflows.startSealing('e1', 1); // running: a no-op
    expect(runs).toHaveLength(1);
    endings[0]?.(new Error('boom'));
    await settled();
    await workflows.startSealing('e1', 1); // failed: the name is used
    expect(runs).toHaveLength(1);
    await workflows.startSealing('e1', 2); // the sweep's next round
    expect(runs).toEqual([{ envelopeId: 'e1', round: 1 }, { envelopeId: 'e1', round: 2 }]);
  });
});

describe('the seal key check', () => {
  it('seals nothing with a certificate for another key: the mismatch is logged for the alarm and fails the step', async () => {
    const id = await fullySigned(deps);
    const other = await KeyFileSigner.open(tempDir());
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const errors: { message: string; fields?: Record<string, unknown> }[] = [];
    const logger = { ...deps.logger, error: (message: string, fields?: Record<string, unknown>) => { errors.push({ message, fields }); } };
    const mismatched = { ...deps, logger, documentSigner: new KeyFileSigner(privateKey, await other.certificateChain()) };
    await expect(sealStep(mismatched, id)).rejects.toBeInstanceOf(SealKeyMismatch);
    await expect(sealStep(mismatched, id)).rejects.toBeInstanceOf(SealKeyMismatch);
    expect(errors).toEqual([1, 2].map(() => ({ message: 'seal certificate does not match the signing key', fields: expect.objectContaining({ alarm: true, certificateKeySha256: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown }) as unknown })));
    expect(await deps.envelopes.abandonedStages(new Date('2100-01-01T00:00:00Z'), 1000)).not.toContainEqual(expect.objectContaining({ envelopeId: id }));
    expect((await deps.envelopes.find(id))?.status).toBe('in_progress');
    const sealed = await sealStep(deps, id);
    expect(sealed.files).toHaveLength(1);
  });
});
