import { BULK_CHECK_MINUTES, BULK_REDRIVE_MINUTES, bulkEnvelopeId, MAX_BULK_REDRIVES, type BulkSend } from './bulk-send.ts';
import { JOBS_MAX_RECEIVES } from '../notices/outbox.ts';
import { queueChunks, type BulkSendDeps } from './bulk-send-actions.ts';

/** The error of a row whose job kept failing: the cause is in the service's logs, not for the API's client. */
const PROCESSING_FAILED = 'processing_failed';

const minutesAfter = (date: Date, minutes: number) => new Date(date.getTime() + minutes * 60_000).toISOString();

/**
 * Gives up on the rows of one chunk that have no result: a row whose envelope exists is recorded sent (its run
 * stopped before recording it), any other fails with `message`. A delivery still running may yet make a row's
 * envelope; it then records the row sent over the failure, so the counts stay one per row.
 */
export async function failChunkRows(deps: BulkSendDeps, batch: BulkSend, index: number, message: string): Promise<number> {
  const chunk = await deps.bulkSends.chunk(batch.id, index);
  if (!chunk) return 0;
  const done = new Set((await deps.bulkSends.results(batch.id)).map((r) => r.row));
  let failed = 0;
  for (const [i] of chunk.rows.entries()) {
    const row = chunk.first + i;
    if (done.has(row)) continue;
    const envelopeId = bulkEnvelopeId(batch.id, row);
    if (await deps.envelopes.find(envelopeId)) await deps.bulkSends.recordResult(batch.id, { row, envelopeId, status: 'sent', error: null, message: null }, false);
    else if (await deps.bulkSends.recordResult(batch.id, { row, envelopeId: null, status: 'failed', error: PROCESSING_FAILED, message }, true)) failed++;
  }
  if (failed > 0) deps.metrics.count('BulkSendRows', failed);
  return failed;
}

/**
 * The last delivery of a bulk.rows job failed too (the queue dead-letters it next): its rows left fail, so the
 * batch's counts move and it ends. An alarm-level line says why.
 */
export async function failBulkJob(deps: BulkSendDeps, job: { appId: string; batchId: string; chunk: number }, error: string): Promise<number> {
  const batch = await deps.bulkSends.get(job.appId, job.batchId);
  if (!batch) return 0;
  const failed = await failChunkRows(deps, batch, job.chunk, `The row could not be processed: its job failed ${String(JOBS_MAX_RECEIVES)} times`);
  deps.logger.error('bulk-send job failed on its last delivery; its rows left are failed', { batchId: batch.id, chunk: job.chunk, failed, error, alarm: true });
  return failed;
}

/** Chunks with a row that has no result yet. */
async function unfinishedChunks(deps: BulkSendDeps, batch: BulkSend, done: ReadonlySet<number>): Promise<number[]> {
  const indexes = Array.from({ length: batch.chunks }, (_, i) => i);
  if (done.size === 0) return indexes;
  const chunks = await Promise.all(indexes.map((i) => deps.bulkSends.chunk(batch.id, i)));
  return indexes.filter((i) => {
    const chunk = chunks[i];
    return chunk?.rows.some((_, r) => !done.has(chunk.first + r)) ?? false;
  });
}

/**
 * The bulk sweep (every minute, beside the outbox sweep): looks at each unfinished batch when its check is due. A
 * finished batch leaves the sweep; one that made progress since the last look is looked at again later; one that
 * made none (its jobs never queued, lost, or dead-lettered) has its unfinished chunks queued again, with backoff,
 * and after MAX_BULK_REDRIVES re-drives its rows left fail, so every batch ends. Rows stay exactly once: a re-driven
 * chunk skips the rows done and cannot make a second envelope.
 */
export async function sweepBulkSends(deps: BulkSendDeps, limit = 50): Promise<{ checked: number; redriven: number; ended: number }> {
  const now = deps.clock.now();
  const tally = { checked: 0, redriven: 0, ended: 0 };
  for (const batch of await deps.bulkSends.dueForCheck(now, limit)) {
    tally.checked++;
    const check = batch.check ?? { at: now.toISOString(), seen: 0, redrives: 0 };
    const done = new Set((await deps.bulkSends.results(batch.id)).map((r) => r.row));
    if (done.size >= batch.total) {
      await deps.bulkSends.saveCheck(batch.id, null);
      continue;
    }
    if (done.size > check.seen) {
      await deps.bulkSends.saveCheck(batch.id, { at: minutesAfter(now, BULK_CHECK_MINUTES), seen: done.size, redrives: check.redrives });
      continue;
    }
    const unfinished = await unfinishedChunks(deps, batch, done);
    if (check.redrives >= MAX_BULK_REDRIVES) {
      let failed = 0;
      for (const index of unfinished) failed += await failChunkRows(deps, batch, index, `The row could not be processed: its batch made no progress after ${String(MAX_BULK_REDRIVES)} retries`);
      await deps.bulkSends.saveCheck(batch.id, null);
      deps.logger.error('bulk send stalled; its rows left are failed', { batchId: batch.id, failed, alarm: true });
      tally.ended++;
      continue;
    }
    const queued = await queueChunks(deps, batch, unfinished);
    const minutes = BULK_REDRIVE_MINUTES[check.redrives] ?? BULK_CHECK_MINUTES;
    await deps.bulkSends.saveCheck(batch.id, { at: minutesAfter(now, minutes), seen: done.size, redrives: check.redrives + 1 });
    deps.logger.warn('bulk send made no progress; its unfinished chunks are queued again', { batchId: batch.id, chunks: unfinished.length, queued, redrives: check.redrives + 1 });
    tally.redriven++;
  }
  return tally;
}
