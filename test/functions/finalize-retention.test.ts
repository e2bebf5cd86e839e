import { describe, expect, it } from 'vitest';
import { definition as finalizeFunction } from '#functions/workers/finalize.ts';
import { definition as sealFunction } from '#functions/workers/seal.ts';
import { sweepOutbox } from '#shared/signing/signing-context.ts';
import { memoryDeps } from '#test/support/memory-deps.ts';
import { fullySigned } from '#test/support/sealing.ts';

const finalize = finalizeFunction.createHandler;
const seal = sealFunction.createHandler;

/** The memory blob store, recording each retention tag put (the memory store itself has no lifecycle to restart). */
async function tagged(failing = false) {
  const deps = await memoryDeps();
  const tags: string[] = [];
  const blobs = Object.assign(Object.create(deps.blobs) as typeof deps.blobs, {
    retain: (key: string, tag: { key: string; value: string }) => {
      if (failing) return Promise.reject(new Error('S3 is down'));
      tags.push(`${key}=${tag.value}`);
      return Promise.resolve();
    },
  });
  return { deps: { ...deps, blobs }, tags };
}

describe('the Finalize task tags the retention class itself', () => {
  it('puts every blob\'s tag right after the completion commits, and queues no retention.tag job', async () => {
    const { deps, tags } = await tagged();
    const id = await fullySigned(deps);
    await finalize(deps)(await seal(deps)({ envelopeId: id }));
    const envelope = await deps.envelopes.find(id);
    expect(envelope?.status).toBe('completed');
    expect(deps.sent.jobs.filter((j) => j.type === 'retention.tag')).toEqual([]);
    const keys = envelope?.documents.map((d) => d.blobKey) ?? [];
    expect(keys.length).toBe(2);
    for (const key of keys) expect(tags.some((t) => t.startsWith(`${key}=`))).toBe(true);
    expect((await deps.envelopes.pendingOutbox(id)).filter((i) => i.kind === 'job' && i.job.type === 'retention.tag')).toEqual([]);
  });

  it('when tagging fails, the item waits in the outbox and the sweep queues the job', async () => {
    const { deps, tags } = await tagged(true);
    const id = await fullySigned(deps);
    await finalize(deps)(await seal(deps)({ envelopeId: id }));
    expect((await deps.envelopes.find(id))?.status).toBe('completed');
    expect(tags).toEqual([]);
    const waiting = (await deps.envelopes.pendingOutbox(id)).filter((i) => i.kind === 'job' && i.job.type === 'retention.tag');
    expect(waiting.map((i) => [i.kind, i.kind === 'job' ? i.job.type : null, i.attempts, i.lastError])).toEqual([['job', 'retention.tag', 1, 'S3 is down']]);
    const later = { ...deps, clock: { now: () => new Date(Date.now() + 2 * 60_000) } };
    await sweepOutbox(later);
    expect(deps.sent.jobs.flatMap((j) => (j.type === 'retention.tag' ? [j.envelopeId] : []))).toEqual([id]);
  });
});
