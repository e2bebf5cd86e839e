import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as v from 'valibot';
import { JOBS_MAX_RECEIVES } from '#domain/outbox.ts';
import { runRoutingAdvance } from '#domain/use-cases/routing.ts';
import { dispatchEvent } from '#domain/use-cases/webhooks.ts';
import { tagRetention } from '#domain/use-cases/retention.ts';
import { deleteBlobs } from '#domain/use-cases/blobs.ts';
import { sendNotices } from '#domain/use-cases/notifications.ts';
import { runBulkChunk } from '#domain/use-cases/bulk-send.ts';
import { failBulkJob } from '#domain/use-cases/bulk-sweep.ts';
import { parseWith } from '#http/validation.ts';
import { BulkRowRequest } from '#schemas/templates.ts';
import { JobMessage, type NoticeItem } from '#schemas/jobs.ts';
import { worker } from '#http/endpoint.ts';
import { lambda } from '#http/lambda.ts';
import type { Deps } from '#shared/deps.ts';

const parseRow = (row: unknown) => parseWith(BulkRowRequest, row);

async function run(deps: Deps, job: JobMessage): Promise<void> {
  if (job.type === 'routing.advance') await runRoutingAdvance(deps, job.envelopeId, job.routingOrder);
  else if (job.type === 'retention.tag') await tagRetention(deps, job.envelopeId);
  else if (job.type === 'blobs.delete') await deleteBlobs(deps, job.keys);
  else if (job.type === 'notice.send') await sendNoticeJob(deps, job.notice);
  else if (job.type === 'bulk.rows') await runBulkChunk(deps, job, parseRow);
  else await dispatchEvent(deps, job.event);
}

/** Void, decline and expiry notices, and locked links; a redelivery may repeat a notice, never lose one. */
async function sendNoticeJob(deps: Deps, notice: NoticeItem): Promise<void> {
  const envelope = await deps.envelopes.find(notice.envelopeId);
  if (envelope) await sendNotices(deps, envelope, notice);
}

/** On its last delivery, a failing bulk.rows job fails its rows left (true), so the batch ends rather than waits. */
async function gaveUp(deps: Deps, job: JobMessage, receives: number, error: string): Promise<boolean> {
  if (job.type !== 'bulk.rows' || receives < JOBS_MAX_RECEIVES) return false;
  try {
    await failBulkJob(deps, job, error);
    return true;
  } catch (cause) {
    deps.logger.error('bulk-send rows could not be failed; the bulk sweep will', { batchId: job.batchId, chunk: job.chunk, error: (cause as Error).message });
    return false;
  }
}

/**
 * The jobs queue consumer. Each record is handled on its own; a failed one is reported in batchItemFailures
 * so only it comes back (after the visibility timeout) while the rest are deleted; after JOBS_MAX_RECEIVES
 * deliveries the queue dead-letters it. Unreadable messages are dropped with a log line: retrying them cannot succeed.
 */
export const definition = worker({
  name: 'jobs',
  trigger: { kind: 'queue', queue: 'jobs' },
  // routing.advance (links, invitations), webhook.event (first attempt, then a retry workflow), retention.tag,
  // blobs.delete (a replaced draft document), notice.send (void, decline, expiry and locked-link notices), bulk.rows (a bulk send's
  // envelopes: template copies, sends, invitations).
  access: {
    table: 'write', secrets: ['LINK_SECRET', 'DATA_KEY'], mail: true, sms: true, jobs: true, starts: ['webhookRetry'],
    documents: { read: ['templates/'], write: ['original/'], tag: ['original/', 'sealed/', 'signatures/'], delete: ['original/'] }, timeoutSeconds: 120,
  },
}, (deps) => async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    let job: JobMessage;
    try {
      job = v.parse(JobMessage, JSON.parse(record.body));
    } catch {
      deps.logger.error('unreadable job dropped', { messageId: record.messageId });
      continue;
    }
    try {
      await run(deps, job);
    } catch (error) {
      const message = (error as Error).message;
      if (await gaveUp(deps, job, Number(record.attributes.ApproximateReceiveCount), message)) continue;
      deps.logger.error('job failed; will be retried', { messageId: record.messageId, error: message });
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
});

export const handler = lambda(definition);
