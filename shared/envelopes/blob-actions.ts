import { STAGE_ABANDONED_AFTER_MS, type BlobStage } from './blob-staging.ts';
import type { CoreDeps, Carriers } from '../signing/signing-context.ts';
import type { BlobBody } from '../ports/services.ts';

export interface BlobToStage {
  key: string;
  bytes: BlobBody;
  contentType: string;
}

/**
 * Writes blobs before the commit that will name them: the stage record first (so a crash right after leaves
 * something for the sweep to find), then the blobs, each under the stage's own key space.
 */
export async function stageBlobs(deps: Pick<CoreDeps & Carriers, 'envelopes' | 'blobs' | 'ids' | 'clock'>, envelopeId: string, build: (stageId: string) => BlobToStage[]): Promise<BlobStage> {
  const id = deps.ids.next();
  const blobs = build(id);
  const stage = { id, envelopeId, keys: blobs.map((b) => b.key), createdAt: deps.clock.now().toISOString() };
  await deps.envelopes.stageBlobs(stage);
  await Promise.all(blobs.map((b) => deps.blobs.put(b.key, b.bytes, b.contentType)));
  return stage;
}

/** A stage no commit will release (the request was refused or lost): its blobs go, then its record. */
export async function discardStage(deps: Pick<CoreDeps & Carriers, 'envelopes' | 'blobs' | 'logger'>, stage: BlobStage): Promise<void> {
  try {
    await Promise.all(stage.keys.map((key) => deps.blobs.delete(key)));
    await deps.envelopes.removeStage(stage.id);
  } catch (error) {
    // The blob sweep deletes what this could not, within a day.
    deps.logger.warn('staged blobs not discarded; left for the sweep', { envelopeId: stage.envelopeId, stageId: stage.id, error: (error as Error).message });
  }
}

/**
 * Runs `use` with blobs staged for it: if it throws, or answers without committing a change that releases the stage
 * (`released` false), the blobs are discarded, so no request leaves a blob that no record names.
 */
export async function withStagedBlobs<T>(
  deps: Pick<CoreDeps & Carriers, 'envelopes' | 'blobs' | 'ids' | 'clock' | 'logger'>, envelopeId: string, build: (stageId: string) => BlobToStage[],
  use: (stage: BlobStage) => Promise<T>, released: (result: T) => boolean = () => true,
): Promise<T> {
  const stage = await stageBlobs(deps, envelopeId, build);
  let result: T;
  try {
    result = await use(stage);
  } catch (error) {
    await discardStage(deps, stage);
    throw error;
  }
  if (!released(result)) await discardStage(deps, stage);
  return result;
}

/** The blob sweep: stages a day old that no commit released name blobs nobody will: delete them. */
export async function sweepAbandonedStages(deps: Pick<CoreDeps & Carriers, 'envelopes' | 'blobs' | 'clock' | 'logger'>, limit = 200): Promise<number> {
  const stages = await deps.envelopes.abandonedStages(new Date(deps.clock.now().getTime() - STAGE_ABANDONED_AFTER_MS), limit);
  for (const stage of stages) {
    await Promise.all(stage.keys.map((key) => deps.blobs.delete(key)));
    await deps.envelopes.removeStage(stage.id);
  }
  return stages.length;
}

/** The blobs.delete job: blobs a committed change stopped naming (a replaced draft document). */
export async function deleteBlobs(deps: Pick<CoreDeps & Carriers, 'blobs'>, keys: readonly string[]): Promise<void> {
  await Promise.all(keys.map((key) => deps.blobs.delete(key)));
}
