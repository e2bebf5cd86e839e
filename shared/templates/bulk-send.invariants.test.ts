/**
 * Bulk send under faults, as invariants over many seeded trials on the real engines (DynamoDB Local, the local S3),
 * through the jobs worker as the queue runs it: a crash right after the batch is stored (no job queued), messages
 * lost or queued twice, duplicate and concurrent deliveries, crashes before and after an envelope's commit, and before
 * a row's result is recorded, and a row whose envelope never commits. Whatever happens, once the queue, the outbox sweep and the bulk sweep have run, the
 * batch has ended, every row has exactly one result, a sent row has exactly one envelope and one invitation, and a
 * failed row has none.
 */
import type { SQSEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { definition } from '#functions/workers/jobs.ts';
import { bulkEnvelopeId, type BulkSend } from '#shared/templates/bulk-send.ts';
import { JOBS_MAX_RECEIVES, type Job } from '#shared/notices/outbox.ts';
import { createTemplate } from '#shared/templates/template-actions.ts';
import type { Deps } from '#shared/deps.ts';
import { functionDeps } from '#test/support/function-deps.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { readBulkSend, startBulkSend } from './bulk-send-actions.ts';
import { sweepBulkSends } from './bulk-sweep-actions.ts';
import { sweepOutbox } from '../signing/signing-context.ts';

/**
 * Trials run one after another: a trial moves the service clock, and an outbox sweep while another trial's envelope
 * is between its commit and its dispatch would send that invitation twice (the outbox repeats rather than loses).
 */
const TRIALS = 12;
const ROWS = 27; // chunks of 20 and 7
const MINUTE = 60_000;

/** A small seeded generator (mulberry32): a failing trial runs again the same way. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const eventOf = (job: Job, messageId: string, receives: number): SQSEvent => ({
  Records: [{
    messageId, receiptHandle: 'r', body: JSON.stringify(job), attributes: { ApproximateReceiveCount: String(receives), SentTimestamp: '0', SenderId: 's', ApproximateFirstReceiveTimestamp: '0' },
    messageAttributes: {}, md5OfBody: '', eventSource: 'aws:sqs', eventSourceARN: 'arn:aws:sqs:us-east-1:0:jobs', awsRegion: 'us-east-1',
  }],
});

let base: Awaited<ReturnType<typeof functionDeps>>;
let now = new Date();
beforeAll(async () => { base = await functionDeps({ clock: { now: () => now } }); });

class Crash extends Error {}

/** The scheduled sweeps; a crash in the bulk sweep leaves its work to the next run. */
async function sweep(deps: Deps): Promise<void> {
  await sweepOutbox(base);
  await sweepBulkSends(deps).catch((error: unknown) => { if (!(error instanceof Crash)) throw error; });
}

/** One trial: its own application, template and faults, drawn from `seed`. */
async function trial(seed: number): Promise<void> {
  const chance = random(seed);
  const odds = { crashAfterStore: chance() < 0.3, lose: chance() * 0.4, queueTwice: chance() * 0.3, deliverTwice: chance() * 0.3, crash: chance() * 0.15 };
  // A poisoned row's envelope never commits (an outage that outlasts the queue's retries): it ends failed.
  const poisoned = chance() < 0.3 ? 1 + Math.floor(chance() * ROWS) : null;
  const app = `bulk-faults-${String(seed)}`;
  const queue: { id: string; job: Job; receives: number }[] = [];
  let sent = 0;
  const enqueue = (job: Job) => { queue.push({ id: `m-${String(seed)}-${String(sent++)}`, job, receives: 0 }); };
  // A crash at a step: before or after the step's write (the process dies either way: the caller sees an error).
  const crashing = <A extends unknown[], R>(step: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    if (chance() < odds.crash / 2) throw new Crash('crashed before the write');
    const result = await step(...args);
    if (chance() < odds.crash / 2) throw new Crash('crashed after the write');
    return result;
  };
  const stored = { batch: undefined as BulkSend | undefined };
  const deps: Deps = {
    ...base,
    jobs: { send: (job) => {
      if (job.type !== 'bulk.rows') return base.jobs.send(job); // webhook events and the like: captured, not run
      if (chance() < odds.lose) return Promise.resolve(); // lost, or the process died before sending it
      enqueue(job);
      if (chance() < odds.queueTwice) enqueue(job);
      return Promise.resolve();
    } },
    envelopes: Object.assign(Object.create(base.envelopes) as Deps['envelopes'], {
      commit: crashing((change: Parameters<Deps['envelopes']['commit']>[0]) => (poisoned !== null && change.after.bulkSend?.row === poisoned
        ? Promise.reject(new Error('ServiceUnavailable: the table is down')) : base.envelopes.commit(change))),
    }),
    bulkSends: Object.assign(Object.create(base.bulkSends) as Deps['bulkSends'], {
      create: async (batch: BulkSend, chunks: Parameters<Deps['bulkSends']['create']>[1]) => {
        await base.bulkSends.create(batch, chunks);
        stored.batch = batch;
        if (odds.crashAfterStore) throw new Crash('crashed after storing the batch');
      },
      recordResult: crashing(base.bulkSends.recordResult.bind(base.bulkSends)),
    }),
  };
  const template = await createTemplate(base, app, {
    tenantId: app, name: 'NDA', subject: 'NDA', message: null, expiresInDays: null,
    roles: [{ role: 'signer', routingOrder: 1, authMethod: 'none' }],
    fields: [{ role: 'signer', documentIndex: 0, type: 'signature', page: 1, x: 72, y: 72, w: 100, h: 30, required: true }],
  }, [{ bytes: await makePdf(), filename: 'nda.pdf' }]);
  const email = (row: number) => `s${String(seed)}.r${String(row)}@example.com`;
  const rows = Array.from({ length: ROWS }, (_, i) => ({ recipients: { signer: { name: `Row ${String(i + 1)}`, email: email(i + 1) } } }));
  await startBulkSend(deps, app, template.id, rows).catch((error: unknown) => { if (!(error instanceof Crash)) throw error; });
  const batch = stored.batch;
  if (!batch) throw new Error('the batch was not stored');

  const handler = definition.createHandler(deps);
  const deliver = async (message: (typeof queue)[number]) => {
    message.receives++;
    const { batchItemFailures } = await handler(eventOf(message.job, message.id, message.receives));
    if (batchItemFailures.length > 0 && message.receives < JOBS_MAX_RECEIVES) queue.push(message); // else dead-lettered
  };
  const ended = async () => (await readBulkSend(base, app, batch.id)).view.status.startsWith('completed');
  for (let round = 0; round < 40 && !(await ended()); round++) {
    while (queue.length > 0) {
      const message = queue.splice(Math.floor(chance() * queue.length), 1)[0];
      if (!message) break;
      // At-least-once: a message's first delivery may come twice at once (the copy never doubles again).
      if (message.receives === 0 && chance() < odds.deliverTwice) await Promise.all([deliver(message), deliver({ ...message, id: `${message.id}-copy` })]);
      else await deliver(message);
    }
    now = new Date(now.getTime() + 30 * MINUTE);
    await sweep(deps);
  }

  const { view, results } = await readBulkSend(base, app, batch.id);
  const context = JSON.stringify({ seed, odds, poisoned, view: { ...view, errors: view.errors.length } });
  expect(view.status, context).toMatch(/^completed/);
  expect(results.map((r) => r.row), context).toEqual(rows.map((_, i) => i + 1));
  expect(view.sent + view.failed, context).toBe(ROWS);
  expect(view.errors.every((e) => e.error === 'processing_failed'), context).toBe(true);
  if (poisoned !== null) expect(results.find((r) => r.row === poisoned)?.status, context).toBe('failed');
  for (const result of results) {
    const envelope = await base.envelopes.find(bulkEnvelopeId(batch.id, result.row));
    expect(envelope?.id, `${context} row ${String(result.row)}`).toBe(result.status === 'sent' ? result.envelopeId : undefined);
    const invitations = base.sent.emails.filter((m) => m.to === email(result.row)).length;
    expect(invitations, `${context} row ${String(result.row)}`).toBe(result.status === 'sent' ? 1 : 0);
  }
  expect((await base.envelopes.list({ appId: app, tenantId: app, status: null, page: 1, pageSize: 100 })).total, context).toBe(view.sent);
}

describe(`bulk send under faults, ${String(TRIALS)} seeded trials`, () => {
  it('every row ends exactly once: one result, and one envelope and invitation when sent, whatever crashed or was delivered twice', async () => {
    for (let seed = 1; seed <= TRIALS; seed++) await trial(seed);
  }, 600_000);
});
