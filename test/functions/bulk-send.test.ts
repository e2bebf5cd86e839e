import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { definition } from '#functions/workers/jobs.ts';
import { readBulkSend, startBulkSend } from '#domain/use-cases/bulk-send.ts';
import { createTemplate } from '#domain/use-cases/templates.ts';
import { bulkEnvelopeId } from '#domain/bulk-send.ts';
import { memoryDeps } from '#test/support/memory-deps.ts';
import { makePdf } from '#test/support/pdfs.ts';

/** Bulk send's jobs on the in-memory adapters: each row makes one envelope, however its job is delivered. */
const APP = 'app-bulk';

type Row = Record<string, unknown>;
const rowsOf = (n: number): Row[] => Array.from({ length: n }, (_, i) => ({ recipients: { signer: { name: `Row ${String(i + 1)}`, email: `row${String(i + 1)}@example.com` } } }));

async function batchOf(rows: number | Row[]) {
  const deps = await memoryDeps();
  const template = await createTemplate(deps, APP, {
    tenantId: 'acme', name: 'NDA', subject: 'NDA', message: null, expiresInDays: null,
    roles: [{ role: 'signer', routingOrder: 1, authMethod: 'none' }],
    fields: [{ role: 'signer', documentIndex: 0, type: 'signature', page: 1, x: 72, y: 72, w: 100, h: 30, required: true }],
  }, [{ bytes: await makePdf(), filename: 'nda.pdf' }]);
  const batch = await startBulkSend(deps, APP, template.id, typeof rows === 'number' ? rowsOf(rows) : rows);
  return { deps, batch, template, jobs: [...deps.sent.jobs] };
}

const eventOf = (job: unknown, messageId: string): SQSEvent => ({
  Records: [{
    messageId, receiptHandle: 'r', body: JSON.stringify(job), attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 's', ApproximateFirstReceiveTimestamp: '0' },
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

  it('make no second envelope when a run stopped after the envelope but before recording the row', async () => {
    const { deps, batch, jobs } = await batchOf(2);
    let failOnce = true;
    const store = deps.bulkSends;
    const crashing = {
      ...deps,
      bulkSends: {
        create: store.create.bind(store), get: store.get.bind(store), chunk: store.chunk.bind(store), results: store.results.bind(store),
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
