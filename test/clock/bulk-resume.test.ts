/**
 * A bulk send survives a crash (the API stopped right after storing the batch, before any job was queued): the sweep finds the unfinished batch on the service clock and re-drives its chunks, each row once.
 * In the clock project: it moves the service clock by minutes, which no test of the main group may see.
 */
import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoBulkSendRepository } from '#shared/adapters/aws/dynamo-bulk-send-repository.ts';
import { BULK_CHECK_MINUTES, chunksOf } from '#shared/templates/bulk-send.ts';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { call, newApp, outboxFor } from '#test/support/api.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { settle } from '#test/support/signing.ts';

interface BulkBody { id: string; status: string; total: number; sent: number; failed: number; errors: unknown[] }

const run = `${String(Date.now())}${String(Math.random()).slice(2, 6)}`;
const address = (name: string, i: number) => `${name}.${String(i)}.${run}@example.com`;
const tenantId = `bulk-resume-${run}`;
let token: string;
let appId: string;
let templateId: string;

beforeAll(async () => {
  ({ token, appId } = await newApp('bulk-resume'));
  const form = new FormData();
  form.append('data', JSON.stringify({
    tenantId, name: 'Bulk NDA', subject: 'Please sign the NDA',
    roles: [{ role: 'signer', authMethod: 'none' }],
    fields: [{ role: 'signer', type: 'signature', page: 1, x: 72, y: 72, w: 180, h: 40, label: 'Signature' }],
  }));
  form.append('file', new Blob([await makePdf()], { type: 'application/pdf' }), 'nda.pdf');
  const created = await call<{ id: string }>('POST', '/v1/templates', { token, form });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  templateId = created.body.id;
});

async function finished(id: string): Promise<BulkBody> {
  await settle();
  await expect.poll(async () => (await call<BulkBody>('GET', `/v1/bulk-sends/${id}`, { token })).body.status, { timeout: 60_000 }).toMatch(/^completed/);
  return (await call<BulkBody>('GET', `/v1/bulk-sends/${id}`, { token })).body;
}

const envelopeTotal = async () => (await call<{ total: number }>('GET', `/v1/envelopes?tenantId=${tenantId}`, { token })).body.total;

describe('bulk send after a crash', () => {
  it('completes a batch whose jobs were never queued (the API stopped right after storing it) once the sweep runs, each row once', async () => {
    // What a crash right after the commit leaves: the batch and its chunks stored, with their first check, no job queued.
    const clock = await call<{ now: string }>('POST', '/_local/clock', { json: { advanceSeconds: 0, runJobs: false } });
    const now = new Date(clock.body.now);
    const rows = Array.from({ length: 30 }, (_, i) => ({ recipients: { signer: { name: `Lost ${String(i + 1)}`, email: address('lost', i + 1) } } }));
    const chunks = chunksOf(rows);
    const id = randomUUID();
    const db = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: inject('dynamodbEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }));
    await new DynamoBulkSendRepository(db, inject('localResources').tableName).create({
      id, appId, templateId, tenantId, total: rows.length, chunks: chunks.length, createdAt: now.toISOString(),
      check: { at: new Date(now.getTime() + BULK_CHECK_MINUTES * 60_000).toISOString(), seen: 0, redrives: 0 },
    }, chunks);
    const before = await envelopeTotal();

    await settle(60);
    expect((await call<BulkBody>('GET', `/v1/bulk-sends/${id}`, { token })).body).toMatchObject({ status: 'queued', total: 30, sent: 0, failed: 0 });
    await settle(BULK_CHECK_MINUTES * 60);
    const done = await finished(id);
    expect(done).toMatchObject({ status: 'completed', total: 30, sent: 30, failed: 0, errors: [] });
    expect(await envelopeTotal()).toBe(before + 30);
    for (const i of [1, 20, 21, 30]) expect((await outboxFor(address('lost', i))).filter((m) => m.subject?.includes('Please sign the NDA'))).toHaveLength(1);
    await settle(BULK_CHECK_MINUTES * 60); // the sweep's next look finds it finished and leaves it
    expect(await envelopeTotal()).toBe(before + 30);
  }, 180_000);
});
