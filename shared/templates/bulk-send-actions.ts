import type { BulkSendRepository } from '#shared/ports/repositories.ts';
import type { JobQueue } from '#shared/ports/services.ts';
import { BULK_CHECK_MINUTES, BULK_ROW_CONCURRENCY, bulkEnvelopeId, bulkStatus, checkBulkRows, chunksOf, clip, clipError, type BulkRowInput, type BulkRowResult, type BulkSend } from './bulk-send.ts';
import type { EnvelopeSender } from '../console/branding.ts';
import { ConcurrentModification, DomainError, NotFound, ValidationError } from '../kernel/errors.ts';
import { parseId } from '../kernel/ids.ts';
import type { FromTemplateInput } from './templates.ts';
import { SYSTEM } from '../signing/signing-context.ts';
import { createFromTemplate, templateSources, type FromTemplateDeps, type TemplateSources } from './from-template-actions.ts';
import { readTemplate } from './template-actions.ts';

export type BulkSendDeps = FromTemplateDeps & { bulkSends: BulkSendRepository; jobs: JobQueue };

/** Jobs queued at once when a batch starts. */
const ENQUEUE_CONCURRENCY = 10;

/** Runs `run` over the items, `limit` at a time; waits for every run, then throws the first error, if any. */
async function inPool<T>(items: readonly T[], limit: number, run: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const errors: unknown[] = [];
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      try {
        await run(items[index] as T, index);
      } catch (error) {
        errors.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (errors.length > 0) throw errors[0];
}

const minutesAfter = (date: Date, minutes: number) => new Date(date.getTime() + minutes * 60_000).toISOString();

/**
 * Queues one job per chunk. A send that fails is logged and left to the bulk sweep: the stored batch is the record
 * of the work, and the sweep queues the chunks of a batch that makes no progress.
 */
export async function queueChunks(deps: Pick<BulkSendDeps, 'jobs' | 'logger'>, batch: Pick<BulkSend, 'appId' | 'id'>, chunks: readonly number[]): Promise<number> {
  let queued = 0;
  await inPool(chunks, ENQUEUE_CONCURRENCY, async (chunk) => {
    try {
      await deps.jobs.send({ type: 'bulk.rows', appId: batch.appId, batchId: batch.id, chunk });
      queued++;
    } catch (error) {
      deps.logger.warn('bulk-send chunk not queued; the bulk sweep queues it', { batchId: batch.id, chunk, error: (error as Error).message });
    }
  });
  return queued;
}

/**
 * Checks the batch's bounds (and, for CSV, that each `prefill.<label>` column names a field of the template), stores
 * the batch with its rows in chunks and its first check in one transaction, then queues one job per chunk; answers
 * at once (202).
 */
export async function startBulkSend(
  deps: Pick<BulkSendDeps, 'templates' | 'bulkSends' | 'jobs' | 'clock' | 'ids' | 'logger'>, appId: string, rawTemplateId: string, rows: readonly BulkRowInput[], prefillLabels: readonly string[] = [],
  sender: EnvelopeSender | null = null,
): Promise<BulkSend> {
  const template = await readTemplate(deps, appId, rawTemplateId);
  checkBulkRows(rows);
  if (template.documents.length === 0) throw ValidationError.at('templateId', 'names a template without documents: upload one first');
  const labels = new Set(template.fields.map((f) => f.label));
  const unknown = prefillLabels.find((label) => !labels.has(label));
  if (unknown !== undefined) throw ValidationError.at('header', `column "prefill.${clip(unknown)}" is not the label of a field of this template`);
  const chunks = chunksOf(rows);
  const now = deps.clock.now();
  const batch: BulkSend = {
    id: deps.ids.next(), appId, templateId: template.id, tenantId: template.tenantId, total: rows.length, chunks: chunks.length, createdAt: now.toISOString(), sender,
    check: { at: minutesAfter(now, BULK_CHECK_MINUTES), seen: 0, redrives: 0 },
  };
  await deps.bulkSends.create(batch, chunks);
  await queueChunks(deps, batch, chunks.map((_, i) => i));
  return batch;
}

const detail = (error: DomainError) => {
  const fields = Object.entries(error.errors).map(([path, messages]) => `${path} ${messages.join(', ')}`);
  return clipError(fields.length > 0 && !fields.some((f) => error.message.includes(f)) ? `${error.message}: ${fields.join('; ')}` : error.message);
};

/**
 * The bulk.rows job: makes (and sends) the envelope of each row of one chunk, a few at a time. A row already done,
 * or whose envelope exists (a redelivery, or a run that stopped before recording the row), is recorded and skipped;
 * the deterministic envelope id refuses a second create, so each row makes at most one envelope. A row that fails
 * validation or the quota fails alone (its message cut to MAX_BULK_ERROR_CHARS); any other failure leaves the row
 * undone and, once the other rows are through, fails the job, which runs again for the rows left.
 */
export async function runBulkChunk(deps: BulkSendDeps, job: { appId: string; batchId: string; chunk: number }, parseRow: (row: BulkRowInput) => FromTemplateInput): Promise<{ sent: number; failed: number; skipped: number }> {
  const tally = { sent: 0, failed: 0, skipped: 0 };
  const batch = await deps.bulkSends.get(job.appId, job.batchId);
  const chunk = batch ? await deps.bulkSends.chunk(batch.id, job.chunk) : undefined;
  if (!batch || !chunk) return tally;
  const done = new Set((await deps.bulkSends.results(batch.id)).map((r) => r.row));
  const record = (result: BulkRowResult, ifAbsent: boolean) => deps.bulkSends.recordResult(batch.id, result, ifAbsent);
  const fail = async (row: number, error: DomainError) => {
    await record({ row, envelopeId: null, status: 'failed', error: error.code, message: detail(error) }, true);
    tally.failed++;
  };
  let loaded: { template: Awaited<ReturnType<typeof readTemplate>>; sources: TemplateSources } | DomainError | undefined;
  const load = async () => {
    try {
      const template = await readTemplate(deps, job.appId, batch.templateId);
      loaded ??= { template, sources: await templateSources(deps, template) };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      loaded = error;
    }
    return loaded;
  };
  try {
    await inPool(chunk.rows, BULK_ROW_CONCURRENCY, async (input, index) => {
      const row = chunk.first + index;
      if (done.has(row)) {
        tally.skipped++;
        return;
      }
      const envelopeId = bulkEnvelopeId(batch.id, row);
      const sent = async () => {
        await record({ row, envelopeId, status: 'sent', error: null, message: null }, false);
        tally.sent++;
      };
      if (await deps.envelopes.find(envelopeId)) return sent();
      const source = loaded ?? await load();
      if (source instanceof DomainError) return fail(row, source);
      try {
        const request = { ...parseRow(input), templateId: batch.templateId, message: null, cc: [], reminders: null, send: true, sender: batch.sender ?? undefined };
        await createFromTemplate(deps, job.appId, request, SYSTEM, { ...source, envelopeId, bulkSend: { id: batch.id, row } });
        await sent();
      } catch (error) {
        if (error instanceof ConcurrentModification) return sent(); // another delivery made it first
        if (error instanceof DomainError) return fail(row, error);
        throw error;
      }
    });
  } finally {
    if (tally.sent + tally.failed > 0) deps.metrics.count('BulkSendRows', tally.sent + tally.failed);
  }
  return tally;
}

/** The batch with its progress, counted from the rows' results. */
export async function readBulkSend(deps: Pick<BulkSendDeps, 'bulkSends'>, appId: string, rawId: string) {
  const id = parseId('bulk', rawId);
  const batch = id ? await deps.bulkSends.get(appId, id) : undefined;
  if (!batch) throw new NotFound('Bulk send not found');
  const results = await deps.bulkSends.results(batch.id);
  const sent = results.filter((r) => r.status === 'sent').length;
  const failed = results.length - sent;
  const errors = results.filter((r) => r.status === 'failed').map((r) => ({ row: r.row, error: r.error ?? 'failed', message: r.message ?? '' }));
  return { batch, results, view: { id: batch.id, templateId: batch.templateId, status: bulkStatus(batch.total, sent, failed), total: batch.total, sent, failed, errors, createdAt: batch.createdAt } };
}

/** The envelopes a batch made so far, by row, with their current status. */
export async function listBulkEnvelopes(deps: Pick<BulkSendDeps, 'bulkSends' | 'envelopes'>, appId: string, rawId: string, page: number, pageSize: number) {
  const { results } = await readBulkSend(deps, appId, rawId);
  const made = results.filter((r) => r.envelopeId !== null);
  const slice = made.slice((page - 1) * pageSize, page * pageSize);
  const data = await Promise.all(slice.map(async (r) => {
    const envelope = await deps.envelopes.get(appId, r.envelopeId ?? '');
    return envelope ? [{ row: r.row, envelopeId: envelope.id, status: envelope.status }] : [];
  }));
  return { data: data.flat(), total: made.length, page, pageSize };
}
