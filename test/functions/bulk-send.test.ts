import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { definition } from '#functions/workers/jobs.ts';
import { readBulkSend, startBulkSend } from '#shared/templates/bulk-send-actions.ts';
import { createTemplate } from '#shared/templates/template-actions.ts';
import { bulkEnvelopeId } from '#shared/templates/bulk-send.ts';
import { sweepBulkSends } from '#shared/templates/bulk-sweep-actions.ts';
import { ValidationError } from '#shared/kernel/errors.ts';
import type { Deps } from '#shared/deps.ts';
import { memoryDeps } from '#test/support/memory-deps.ts';
import { makePdf } from '#test/support/pdfs.ts';

/** Bulk send's jobs on the in-memory adapters: each row makes one envelope, however its job is delivered. */
const APP = 'app-bulk';

type Row = Record<string, unknown>;
const rowsOf = (n: number): Row[] => Array.from({ length: n }, (_, i) => ({ recipients: { signer: { name: `Row ${String(i + 1)}`, email: `row${String(i + 1)}@example.com` } } }));

async function batchOf(rows: number | Row[], overrides: Partial<Deps> = {}, sender: { name: string; email: string | null } | null = null) {
  const deps = await memoryDeps(overrides);
  const template = await createTemplate(deps, APP, {
    tenantId: 'acme', name: 'NDA', subject: 'NDA', message: null, expiresInDays: null,
    roles: [{ role: 'signer', routingOrder: 1, authMethod: 'none' }],
    fields: [{ role: 'signer', documentIndex: 0, type: 'signature', page: 1, x: 72, y: 72, w: 100, h: 30, required: true }],
  }, [{ bytes: await makePdf(), filename: 'nda.pdf' }]);
  const batch = await startBulkSend(deps, APP, template.id, typeof rows === 'number' ? rowsOf(rows) : rows, [], sender);
  return { deps, batch, template, jobs: [...deps.sent.jobs] };
}

const eventOf = (job: unknown, messageId: string, receives = 1): SQSEvent => ({
  Records: [{
    messageId, receiptHandle: 'r', body: JSON.stringify(job), attributes: { ApproximateReceiveCount: String(receives), SentTimestamp: '0', SenderId: 's', ApproximateFirstReceiveTimestamp: '0' },
    messageAttributes: {}, md5OfBody: '', eventSource: 'aws:sqs', eventSourceARN: 'arn:aws:sqs:us-east-1:0:jobs', awsRegion: 'us-east-1',
  }],
});

const envelopesOf = async (deps: Awaited<ReturnType<typeof memoryDeps>>) => (await deps.envelopes.list({ appId: APP, tenantId: 'acme', status: null, page: 1, pageSize: 100 })).total;

describe('bulk-send rows', () => {
  it('are queued in chunks of 20, one job each', async () => {
    const { jobs, batch } = await batchOf(45);
    expect(jobs).toEqual([0, 1, 2].map((chunk) => ({ type: 'bulk.rows', appId: APP, batchId: batch.id, chunk })));
  });

  it('make one envelope each when a job is delivered twice, one after the other or at once', async () => {
    const { deps, batch, jobs } = await batchOf(5);
    const handler = definition.createHandler(deps);
    const event = eventOf(jobs[0], 'm-1');
    await Promise.all([handler(event), handler(event)]);
    expect(await handler(event)).toEqual({ batchItemFailures: [] });
    expect(await envelopesOf(deps)).toBe(5);
    expect(deps.sent.emails.filter((m) => m.to === 'row3@example.com')).toHaveLength(1);
    const { view } = await readBulkSend(deps, APP, batch.id);
    expect(view).toMatchObject({ status: 'completed', sent: 5, failed: 0 });
    expect((await deps.envelopes.find(bulkEnvelopeId(batch.id, 3)))?.signers[0]?.email).toBe('row3@example.com');
  });

  it('name as their sender the console user who started the batch, and nobody for an API client', async () => {
    const jane = { name: 'Jane Console', email: 'jane@acme.example' };
    const started = await batchOf(2, {}, jane);
    await definition.createHandler(started.deps)(eventOf(started.jobs[0], 'm-user'));
    expect((await started.deps.envelopes.find(bulkEnvelopeId(started.batch.id, 1)))?.sender).toEqual(jane);
    const byClient = await batchOf(1);
    await definition.createHandler(byClient.deps)(eventOf(byClient.jobs[0], 'm-client'));
    expect((await byClient.deps.envelopes.find(bulkEnvelopeId(byClient.batch.id, 0)))?.sender ?? null).toBeNull();
  });

  it('make no second envelope when a run stopped after the envelope but before recording the row', async () => {
    const { deps, batch, jobs } = await batchOf(2);
    let failOnce = true;
    const store = deps.bulkSends;
    const crashing = {
      ...deps,
      bulkSends: {
        create: store.create.bind(store), get: store.get.bind(store), chunk: store.chunk.bind(store), results: store.results.bind(store),
        dueForCheck: store.dueForCheck.bind(store), saveCheck: store.saveCheck.bind(store),
        recordResult: (...args: Parameters<typeof store.recordResult>) => {
          if (failOnce) {
            failOnce = false;
            return Promise.reject(new Error('lost connection'));
          }
          return store.recordResult(...args);
        },
      },
    };
    expect(await definition.createHandler(crashing)(eventOf(jobs[0], 'm-2'))).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-2' }] });
    expect(await definition.createHandler(deps)(eventOf(jobs[0], 'm-2'))).toEqual({ batchItemFailures: [] });
    expect(await envelopesOf(deps)).toBe(2);
    expect(deps.sent.emails.filter((m) => m.to === 'row1@example.com')).toHaveLength(1);
    expect((await readBulkSend(deps, APP, batch.id)).view).toMatchObject({ sent: 2, failed: 0 });
  });

  it('fail alone when invalid, with the row number and reason; a template deleted meanwhile fails the rows left', async () => {
    const rows = [...rowsOf(1), { recipients: { signer: { name: 'X', email: 'nope' } } }, { recipients: {} }, { recipients: { signer: { name: 'Y', email: 'y@example.com' } }, prefill: { Unknown: 'v' } }];
    const { deps, batch, jobs } = await batchOf(rows);
    await definition.createHandler(deps)(eventOf(jobs[0], 'm-3'));
    const { view } = await readBulkSend(deps, APP, batch.id);
    expect(view).toMatchObject({ status: 'completed_with_errors', sent: 1, failed: 3 });
    expect(view.errors.map((e) => [e.row, e.error])).toEqual([[2, 'validation_error'], [3, 'validation_error'], [4, 'validation_error']]);
    expect(view.errors[0]?.message).toContain('email');
    expect(view.errors[1]?.message).toContain('recipients.signer');
    expect(view.errors[2]?.message).toContain('prefill.Unknown');

    const gone = await batchOf(2);
    await gone.deps.templates.delete(APP, gone.template.id);
    await definition.createHandler(gone.deps)(eventOf(gone.jobs[0], 'm-4'));
    expect((await readBulkSend(gone.deps, APP, gone.batch.id)).view).toMatchObject({ status: 'completed_with_errors', sent: 0, failed: 2, errors: [{ row: 1, error: 'not_found' }, { row: 2, error: 'not_found' }] });
  });
});

/** A service clock the test moves. */
function movableClock(start = new Date()) {
  let now = start;
  return { clock: { now: () => now }, advance: (minutes: number) => { now = new Date(now.getTime() + minutes * 60_000); } };
}

/** The envelope repository, whose commit fails (as an outage would) for the rows `poisoned` says. */
function failingCommits(deps: Deps, poisoned: (row: number) => boolean): Deps['envelopes'] {
  const real = deps.envelopes;
  return new Proxy(real, {
    get: (target, name: keyof Deps['envelopes']) => (name === 'commit'
      ? (change: Parameters<typeof real.commit>[0]) => (poisoned(change.after.bulkSend?.row ?? 0) ? Promise.reject(new Error('ServiceUnavailable: the table is down')) : real.commit(change))
      : (target[name] as (...args: unknown[]) => unknown).bind(target)),
  });
}

describe('bulk-send bounds and failures', () => {
  it('refuse a CSV prefill column no field of the template has before anything is stored or queued', async () => {
    const deps = await memoryDeps();
    const template = await createTemplate(deps, APP, {
      tenantId: 'acme', name: 'NDA', subject: 'NDA', message: null, expiresInDays: null, roles: [{ role: 'signer', routingOrder: 1, authMethod: 'none' }],
      fields: [{ role: 'signer', documentIndex: 0, type: 'text', page: 1, x: 72, y: 72, w: 100, h: 30, required: false, label: 'Company' }],
    }, [{ bytes: await makePdf(), filename: 'nda.pdf' }]);
    const start = (labels: string[]) => startBulkSend(deps, APP, template.id, rowsOf(1), labels);
    const refused = await start(['Company', 'L1']).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).errors).toEqual({ header: ['column "prefill.L1" is not the label of a field of this template'] });
    expect(deps.sent.jobs).toEqual([]);
    await expect(start(['Company'])).resolves.toMatchObject({ total: 1 });
  });

  it('record a row\'s error cut short, however long the reason', async () => {
    const prefill = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`${'L'.repeat(95)}${String(i)}`, 'v']));
    const { deps, batch, jobs } = await batchOf([{ ...rowsOf(1)[0], prefill }]);
    await definition.createHandler(deps)(eventOf(jobs[0], 'm-5'));
    const { view } = await readBulkSend(deps, APP, batch.id);
    expect(view).toMatchObject({ status: 'completed_with_errors', failed: 1, errors: [{ row: 1, error: 'validation_error' }] });
    expect(view.errors[0]?.message.length).toBe(501);
  });

  it('fail the rows a job could not make on its last delivery, so the batch ends; the other rows are sent once', async () => {
    const { deps, batch, jobs } = await batchOf(3);
    const flaky = { ...deps, envelopes: failingCommits(deps, (row) => row === 2) };
    const handler = definition.createHandler(flaky);
    for (let receives = 1; receives < 5; receives++) expect(await handler(eventOf(jobs[0], 'm-6', receives))).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-6' }] });
    expect((await readBulkSend(deps, APP, batch.id)).view).toMatchObject({ status: 'running', sent: 2, failed: 0 });
    expect(await handler(eventOf(jobs[0], 'm-6', 5))).toEqual({ batchItemFailures: [] });
    const { view } = await readBulkSend(deps, APP, batch.id);
    expect(view).toMatchObject({ status: 'completed_with_errors', sent: 2, failed: 1, errors: [{ row: 2, error: 'processing_failed' }] });
    expect(await envelopesOf(deps)).toBe(2);
    expect(deps.sent.emails.filter((m) => m.to === 'row1@example.com')).toHaveLength(1);
  });

  it('are queued again by the sweep when a crash left a batch without its jobs, and each row is sent once', async () => {
    const time = movableClock();
    let queueDown = true;
    const queued: unknown[] = [];
    const { deps, batch } = await batchOf(45, { clock: time.clock, jobs: { send: (job) => (queueDown ? Promise.reject(new Error('SQS unavailable')) : Promise.resolve(void queued.push(job))) } });
    expect((await readBulkSend(deps, APP, batch.id)).view).toMatchObject({ status: 'queued', sent: 0 });
    queueDown = false;
    expect(await sweepBulkSends(deps)).toEqual({ checked: 0, redriven: 0, ended: 0 });
    time.advance(5);
    expect(await sweepBulkSends(deps)).toEqual({ checked: 1, redriven: 1, ended: 0 });
    expect(queued).toEqual([0, 1, 2].map((chunk) => ({ type: 'bulk.rows', appId: APP, batchId: batch.id, chunk })));
    const handler = definition.createHandler(deps);
    await handler(eventOf(queued[1], 'm-7'));
    time.advance(5);
    expect(await sweepBulkSends(deps)).toEqual({ checked: 1, redriven: 0, ended: 0 }); // progress: looked at again later
    for (const [i, job] of queued.entries()) await handler(eventOf(job, `m-8-${String(i)}`));
    expect((await readBulkSend(deps, APP, batch.id)).view).toMatchObject({ status: 'completed', sent: 45, failed: 0 });
    expect(await envelopesOf(deps)).toBe(45);
    time.advance(5);
    expect(await sweepBulkSends(deps)).toEqual({ checked: 1, redriven: 0, ended: 0 });
    expect((await deps.bulkSends.get(APP, batch.id))?.check).toBeNull();
    time.advance(60);
    expect(await sweepBulkSends(deps)).toEqual({ checked: 0, redriven: 0, ended: 0 });
  });

  it('end after the last re-drive when a batch never progresses: the rows left fail, a row whose envelope exists counts as sent', async () => {
    const time = movableClock();
    const { deps, batch, jobs } = await batchOf(25, { clock: time.clock, jobs: { send: () => Promise.resolve() } });
    expect(jobs).toEqual([]); // every message is lost
    // Row 3's envelope is made, and the run stops before recording it; every other row fails on an outage.
    const store = deps.bulkSends;
    const crashing = {
      ...deps, envelopes: failingCommits(deps, (row) => row !== 3),
      bulkSends: Object.assign(Object.create(store) as typeof store, { recordResult: () => Promise.reject(new Error('lost connection')) }),
    };
    await definition.createHandler(crashing)(eventOf({ type: 'bulk.rows', appId: APP, batchId: batch.id, chunk: 0 }, 'm-9', 1));
    expect(await deps.bulkSends.results(batch.id)).toEqual([]);
    const tallies = [];
    for (const minutes of [5, 5, 15, 30, 60]) {
      time.advance(minutes);
      tallies.push(await sweepBulkSends(deps));
    }
    expect(tallies.map((t) => [t.redriven, t.ended])).toEqual([[1, 0], [1, 0], [1, 0], [1, 0], [1, 0]]);
    time.advance(119);
    expect(await sweepBulkSends(deps)).toEqual({ checked: 0, redriven: 0, ended: 0 });
    time.advance(1);
    expect(await sweepBulkSends(deps)).toEqual({ checked: 1, redriven: 0, ended: 1 });
    const { view } = await readBulkSend(deps, APP, batch.id);
    expect(view).toMatchObject({ status: 'completed_with_errors', sent: 1, failed: 24 });
    expect(view.errors.map((e) => e.row)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1).filter((row) => row !== 3));
    expect(view.errors.every((e) => e.error === 'processing_failed')).toBe(true);
    expect(await envelopesOf(deps)).toBe(1);
    expect(await sweepBulkSends(deps)).toEqual({ checked: 0, redriven: 0, ended: 0 });
  });
});
