import type { BulkSendRepository } from '#ports/repositories.ts';
import type { JobQueue } from '#ports/services.ts';
import {
  BULK_CHUNK_ROWS, BULK_ROW_CONCURRENCY, bulkEnvelopeId, bulkStatus, chunksOf, MAX_BULK_ROWS, type BulkRowInput, type BulkRowResult, type BulkSend,
} from '../bulk-send.ts';
import { ConcurrentModification, DomainError, NotFound, ValidationError } from '../errors.ts';
import { parseId } from '../ids.ts';
import type { FromTemplateInput } from '../templates.ts';
import { SYSTEM } from './context.ts';
import { createFromTemplate, templateSources, type FromTemplateDeps, type TemplateSources } from './from-template.ts';
import { readTemplate } from './templates.ts';

export type BulkSendDeps = FromTemplateDeps & { bulkSends: BulkSendRepository; jobs: JobQueue };

/** Jobs queued at once when a batch starts. */
const ENQUEUE_CONCURRENCY = 10;

async function inPool<T>(items: readonly T[], limit: number, run: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await run(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Stores the batch with its rows in chunks, then queues one job per chunk; answers at once (202). */
export async function startBulkSend(deps: BulkSendDeps, appId: string, rawTemplateId: string, rows: readonly BulkRowInput[]): Promise<BulkSend> {
  const template = await readTemplate(deps, appId, rawTemplateId);
  if (rows.length === 0) throw ValidationError.at('rows', 'at least one row is required');
  if (rows.length > MAX_BULK_ROWS) throw ValidationError.at('rows', `at most ${String(MAX_BULK_ROWS)} rows`);
  if (template.documents.length === 0) throw ValidationError.at('templateId', 'names a template without documents: upload one first');
  const chunks = chunksOf(rows);
  const batch: BulkSend = {
    id: deps.ids.next(), appId, templateId: template.id, tenantId: template.tenantId, total: rows.length, chunks: chunks.length, createdAt: deps.clock.now().toISOString(),
  };
  await deps.bulkSends.create(batch, chunks);
  await inPool(chunks, ENQUEUE_CONCURRENCY, (_, chunk) => deps.jobs.send({ type: 'bulk.rows', appId, batchId: batch.id, chunk }));
  return batch;
}

const detail = (error: DomainError) => {
  const fields = Object.entries(error.errors).map(([path, messages]) => `${path} ${messages.join(', ')}`);
  return fields.length > 0 && !fields.some((f) => error.message.includes(f)) ? `${error.message}: ${fields.join('; ')}` : error.message;
};

/**
 * The bulk.rows job: makes (and sends) the envelope of each row of one chunk, a few at a time. A row already done,
 * or whose envelope exists (a redelivery, or a run that stopped before recording the row), is recorded and skipped;
 * the deterministic envelope id refuses a second create, so each row makes at most one envelope. A row that fails
 * validation or the quota fails alone; any other failure fails the job, which runs again for the rows left.
 */
export async function runBulkChunk(deps: BulkSendDeps, job: { appId: string; batchId: string; chunk: number }, parseRow: (row: BulkRowInput) => FromTemplateInput): Promise<{ sent: number; failed: number; skipped: number }> {
  const tally = { sent: 0, failed: 0, skipped: 0 };
  const batch = await deps.bulkSends.get(job.appId, job.batchId);
  const rows = batch ? await deps.bulkSends.chunk(batch.id, job.chunk) : undefined;
  if (!batch || !rows) return tally;
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
  await inPool(rows, BULK_ROW_CONCURRENCY, async (input, index) => {
    const row = job.chunk * BULK_CHUNK_ROWS + index + 1;
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
      const request = { ...parseRow(input), templateId: batch.templateId, message: null, cc: [], reminders: null, send: true };
      await createFromTemplate(deps, job.appId, request, SYSTEM, { ...source, envelopeId, bulkSend: { id: batch.id, row } });
      await sent();
    } catch (error) {
      if (error instanceof ConcurrentModification) return sent(); // another delivery made it first
      if (error instanceof DomainError) return fail(row, error);
      throw error;
    }
  });
  if (tally.sent + tally.failed > 0) deps.metrics.count('BulkSendRows', tally.sent + tally.failed);
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
