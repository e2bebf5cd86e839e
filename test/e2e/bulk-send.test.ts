/**
 * Bulk send (decision 35) over HTTP on the local stack: 100 JSON rows and a CSV batch with one bad row, made and
 * sent in the background through the jobs queue; counts, invitations, the bad row's error, the batch's envelopes;
 * a redelivered job makes no second envelope; the quota fails rows alone; another application sees nothing; batches
 * past their bounds are refused up front with the row. (A batch whose jobs were never queued: test/clock/bulk-resume.test.ts.)
 */
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { MAX_BULK_COLUMNS, MAX_BULK_FIELD_BYTES, MAX_BULK_ROW_BYTES } from '#shared/templates/bulk-send.ts';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { call, newApp, outboxFor } from '#test/support/api.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { settle } from '#test/support/signing.ts';

interface BulkBody { id: string; templateId: string; status: string; total: number; sent: number; failed: number; errors: { row: number; error: string; message: string }[] }
interface BulkEnvelopes { data: { row: number; envelopeId: string; status: string }[]; total: number; page: number; pageSize: number }

const run = `${String(Date.now())}${String(Math.random()).slice(2, 6)}`;
const address = (name: string, i: number) => `${name}.${String(i)}.${run}@example.com`;

let token: string;
let appId: string;
let templateId: string;
const tenantId = `bulk-${run}`;

beforeAll(async () => {
  ({ token, appId } = await newApp('bulk-send'));
  const form = new FormData();
  form.append('data', JSON.stringify({
    tenantId, name: 'Bulk NDA', subject: 'Please sign the NDA',
    roles: [{ role: 'signer', authMethod: 'none' }],
    fields: [
      { role: 'signer', type: 'signature', page: 1, x: 72, y: 72, w: 180, h: 40, label: 'Signature' },
      { role: 'signer', type: 'text', page: 1, x: 72, y: 300, w: 250, h: 20, label: 'Company, Inc.' },
    ],
  }));
  form.append('file', new Blob([await makePdf()], { type: 'application/pdf' }), 'nda.pdf');
  const created = await call<{ id: string }>('POST', '/v1/templates', { token, form });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  templateId = created.body.id;
});

async function finished(id: string, as = token): Promise<BulkBody> {
  await settle();
  await expect.poll(async () => (await call<BulkBody>('GET', `/v1/bulk-sends/${id}`, { token: as })).body.status, { timeout: 60_000 }).toMatch(/^completed/);
  return (await call<BulkBody>('GET', `/v1/bulk-sends/${id}`, { token: as })).body;
}

const envelopeTotal = async () => (await call<{ total: number }>('GET', `/v1/envelopes?tenantId=${tenantId}`, { token })).body.total;

describe('bulk send', () => {
  it('sends 100 JSON rows once each, lists their envelopes, and a redelivered job makes no second envelope', async () => {
    const rows = Array.from({ length: 100 }, (_, i) => ({ recipients: { signer: { name: `Row ${String(i + 1)}`, email: address('json', i + 1) } }, prefill: { 'Company, Inc.': `Company ${String(i + 1)}` } }));
    const accepted = await call<BulkBody>('POST', `/v1/templates/${templateId}/bulk-send`, { token, json: { rows } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
    expect(accepted.body).toMatchObject({ templateId, status: 'queued', total: 100 });
    const done = await finished(accepted.body.id);
    expect(done).toMatchObject({ status: 'completed', total: 100, sent: 100, failed: 0, errors: [] });
    for (const i of [1, 50, 100]) expect((await outboxFor(address('json', i))).filter((m) => m.subject?.includes('Please sign the NDA'))).toHaveLength(1);

    const page = await call<BulkEnvelopes>('GET', `/v1/bulk-sends/${accepted.body.id}/envelopes?page=2&pageSize=30`, { token });
    expect(page.body).toMatchObject({ total: 100, page: 2, pageSize: 30 });
    expect(page.body.data.map((d) => d.row)).toEqual(Array.from({ length: 30 }, (_, i) => i + 31));
    expect(page.body.data.every((d) => d.status === 'sent')).toBe(true);
    const envelope = await call<{ subject: string; fields: { label: string | null; value: string | null }[]; signers: { email: string }[] }>('GET', `/v1/envelopes/${page.body.data[0]?.envelopeId ?? ''}`, { token });
    expect(envelope.body.signers[0]?.email).toBe(address('json', 31));
    expect(envelope.body.fields.find((f) => f.label === 'Company, Inc.')?.value).toBe('Company 31');

    // The first chunk's job once more, as SQS may deliver it: its rows are done, nothing new is made or sent.
    const before = await envelopeTotal();
    const sqs = new SQSClient({ endpoint: inject('sqsEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    const job = { type: 'bulk.rows', appId, batchId: accepted.body.id, chunk: 0 };
    await sqs.send(new SendMessageCommand({ QueueUrl: inject('localResources').jobsQueueUrl, MessageBody: JSON.stringify(job) }));
    await settle();
    expect(await envelopeTotal()).toBe(before);
    expect((await outboxFor(address('json', 1))).filter((m) => m.subject?.includes('Please sign the NDA'))).toHaveLength(1);
    expect((await call<BulkBody>('GET', `/v1/bulk-sends/${accepted.body.id}`, { token })).body).toMatchObject({ sent: 100, failed: 0 });
  }, 180_000);

  it('reads a CSV with quoted commas; the bad row fails alone with its row number and reason', async () => {
    const csv = [
      'signer.name,signer.email,"prefill.Company, Inc."',
      `"Silva, Ana",${address('csv', 1)},"ACME, Inc."`,
      `Ben Okafor,not-an-email,Beta`,
      `Chloé Martin,${address('csv', 3)},"Gamma ""Labs"""`,
    ].join('\r\n');
    const accepted = await call<BulkBody>('POST', `/v1/templates/${templateId}/bulk-send`, { token, raw: { bytes: new TextEncoder().encode(csv), contentType: 'text/csv' } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
    expect(accepted.body.total).toBe(3);
    const done = await finished(accepted.body.id);
    expect(done).toMatchObject({ status: 'completed_with_errors', sent: 2, failed: 1 });
    expect(done.errors).toEqual([{ row: 2, error: 'validation_error', message: expect.stringContaining('email') as unknown }]);
    const listed = (await call<BulkEnvelopes>('GET', `/v1/bulk-sends/${accepted.body.id}/envelopes`, { token })).body;
    expect(listed.data.map((d) => d.row)).toEqual([1, 3]);
    const third = await call<{ fields: { label: string | null; value: string | null }[]; signers: { name: string }[] }>('GET', `/v1/envelopes/${listed.data[1]?.envelopeId ?? ''}`, { token });
    expect(third.body.fields.find((f) => f.label === 'Company, Inc.')?.value).toBe('Gamma "Labs"');
    expect((await outboxFor(address('csv', 1))).length).toBeGreaterThan(0);
  }, 120_000);

  it('refuses bad batches with 4xx and changes nothing; counts the quota per envelope; another application sees nothing', async () => {
    const bad = (body: { json?: unknown; raw?: { bytes: Uint8Array; contentType: string } }) => call('POST', `/v1/templates/${templateId}/bulk-send`, { token, ...body });
    expect((await bad({ json: { rows: [] } })).status).toBe(400);
    expect((await bad({ json: { rows: Array.from({ length: 1001 }, () => ({})) } })).status).toBe(400);
    expect((await bad({ raw: { bytes: new TextEncoder().encode('signer.name,unknown\nA,B'), contentType: 'text/csv' } })).status).toBe(400);
    expect((await bad({ raw: { bytes: new TextEncoder().encode('signer.name,signer.email\n"unterminated,x'), contentType: 'text/csv' } })).status).toBe(400);
    expect((await bad({ raw: { bytes: new TextEncoder().encode('x'), contentType: 'text/plain' } })).status).toBe(415);
    expect((await call('GET', '/v1/bulk-sends/00000000-0000-4000-8000-000000000000', { token })).status).toBe(404);

    const limited = await newApp('bulk-quota', { envelopesLimit: 2, overageAllowed: false });
    const form = new FormData();
    form.append('data', JSON.stringify({ tenantId: 'q', name: 'Quota', roles: [{ role: 'signer', authMethod: 'none' }], fields: [{ role: 'signer', type: 'signature', page: 1, x: 72, y: 72, w: 100, h: 30 }] }));
    form.append('file', new Blob([await makePdf()], { type: 'application/pdf' }), 'q.pdf');
    const template = await call<{ id: string }>('POST', '/v1/templates', { token: limited.token, form });
    const rows = Array.from({ length: 3 }, (_, i) => ({ recipients: { signer: { name: `Q ${String(i)}`, email: address('quota', i) } } }));
    const accepted = await call<BulkBody>('POST', `/v1/templates/${template.body.id}/bulk-send`, { token: limited.token, json: { rows } });
    const done = await finished(accepted.body.id, limited.token);
    expect(done).toMatchObject({ status: 'completed_with_errors', sent: 2, failed: 1 });
    expect(done.errors[0]?.error).toBe('quota_exceeded');

    const other = (await newApp('bulk-other')).token;
    expect((await call('GET', `/v1/bulk-sends/${accepted.body.id}`, { token: other })).status).toBe(404);
    expect((await call('GET', `/v1/bulk-sends/${accepted.body.id}/envelopes`, { token: other })).status).toBe(404);
    expect((await call('POST', `/v1/templates/${templateId}/bulk-send`, { token: other, json: { rows: [{}] } })).status).toBe(404);
  }, 120_000);

  it('refuses a batch past its bounds up front, naming the limit and the row: a 1 MB value, 10,000 unknown columns, a prefill column no field has', async () => {
    const csv = (text: string) => call<{ error: string; message: string; errors: Record<string, string[]> }>('POST', `/v1/templates/${templateId}/bulk-send`, {
      token, raw: { bytes: new TextEncoder().encode(text), contentType: 'text/csv' },
    });
    const before = await envelopeTotal();
    const huge = await csv(`signer.name,signer.email,"prefill.Company, Inc."\nA,${address('big', 1)},x\nB,${address('big', 2)},${'y'.repeat(1024 * 1024)}`);
    expect(huge.status).toBe(400);
    expect(huge.body.errors).toEqual({ 'row 2': [`is longer than ${String(MAX_BULK_ROW_BYTES)} bytes: at most ${String(MAX_BULK_ROW_BYTES)} bytes per row`] });
    const cell = await csv(`signer.name,"prefill.Company, Inc."\nA,x\nB,x\nC,${'z'.repeat(MAX_BULK_FIELD_BYTES + 1)}`);
    expect(cell.status).toBe(400);
    expect(cell.body.errors).toEqual({ 'row 3': [`column "prefill.Company, Inc." is ${String(MAX_BULK_FIELD_BYTES + 1)} bytes: at most ${String(MAX_BULK_FIELD_BYTES)} bytes per value`] });
    const json = await call<{ errors: Record<string, string[]> }>('POST', `/v1/templates/${templateId}/bulk-send`, {
      token, json: { rows: [{ recipients: { signer: { name: 'A', email: address('big', 3) } }, prefill: { 'Company, Inc.': 'y'.repeat(1024 * 1024) } }] },
    });
    expect(json.status).toBe(400);
    expect(Object.keys(json.body.errors)).toEqual(['row 1']);
    const labels = Array.from({ length: 10_000 }, (_, i) => `prefill.L${String(i)}`);
    const wide = await csv(`signer.name,${labels.join(',')}\nA,${labels.map(() => 'v').join(',')}`);
    expect(wide.status).toBe(400);
    expect(Object.keys(wide.body.errors)).toEqual(['header']);
    const columns = Array.from({ length: MAX_BULK_COLUMNS + 1 }, (_, i) => `p.${String(i)}.name`);
    expect((await csv(`${columns.join(',')}\n${columns.map(() => '').join(',')}`)).body.errors).toEqual({ header: [`has ${String(MAX_BULK_COLUMNS + 1)} columns: at most ${String(MAX_BULK_COLUMNS)}`] });
    const unknown = await csv(`signer.name,signer.email,prefill.Nope\nA,${address('big', 4)},v`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual({ header: ['column "prefill.Nope" is not the label of a field of this template'] });
    await settle();
    expect(await envelopeTotal()).toBe(before);
  }, 120_000);
});
