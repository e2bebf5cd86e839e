import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as v from 'valibot';
import { JOBS_MAX_RECEIVES } from '#shared/notices/outbox.ts';
import { runRoutingAdvance } from '#shared/envelopes/routing-actions.ts';
import { dispatchEvent } from '#shared/webhooks/webhook-actions.ts';
import { tagRetention } from '#shared/retention/retention-actions.ts';
import { deleteBlobs } from '#shared/envelopes/blob-actions.ts';
import { sendNotices } from '#shared/notices/notification-actions.ts';
import { runBulkChunk } from '#shared/templates/bulk-send-actions.ts';
import { failBulkJob } from '#shared/templates/bulk-sweep-actions.ts';
import { parseWith } from '#shared/http/validation.ts';
import { BulkRowRequest } from '#shared/templates/template-schemas.ts';
import { JobMessage, type NoticeItem } from '#shared/background/job-schemas.ts';
import { worker } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import type { Access } from '#shared/http/access.ts';
import type { DepsFor } from '#shared/http/deps-for.ts';

// routing.advance (links, invitations), webhook.event (first attempt, then a retry workflow), retention.tag,
// blobs.delete (a replaced draft document, a sealed file an archive renewal replaced, a signer's replaced or removed attachment), notice.send (void, decline, expiry and locked-link notices), bulk.rows (a bulk send's
// envelopes: template copies, sends, invitations).
const access = {
  table: 'write', secrets: ['LINK_SECRET', 'DATA_KEY'], mail: true, sms: true, jobs: true, starts: ['webhookRetry'],
  documents: { read: ['templates/'], write: ['original/'], tag: ['original/', 'sealed/', 'signatures/', 'attachments/'], delete: ['original/', 'sealed/', 'attachments/'] }, timeoutSeconds: 120,
} as const satisfies Access;
type Deps = DepsFor<typeof access>;

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
  access,
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
