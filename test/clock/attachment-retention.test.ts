/**
 * Signer attachments on the service clock, over HTTP on the local stack: an upload never completed is swept once
 * its staging window (a day) has passed, not before; a refused one is gone at once; after the retention purge the
 * attachment objects are gone like the documents; and after a void nothing is left once retention ran. Throughout,
 * every stored attachment object is named by a committed record (read from the bucket itself).
 */
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { localS3ClientConfig } from '#local/engines/s3.ts';
import { call, newApp, tokenFor } from '#test/support/api.ts';
import { readyDraft, sigField, type EnvelopeBody } from '#test/support/envelopes.ts';
import { askUploadUrl, attach, completeUpload, pngImage, postAttachment } from '#test/support/attachments.ts';
import { passGates, pngBase64, settle, signing, tokenOf } from '#test/support/signing.ts';

const DAY = 86_400;
const TENANT = 'attkeep';
let token: string;
let app: Awaited<ReturnType<typeof newApp>>;
let s3: S3Client;
beforeAll(async () => {
  app = await newApp('attachment retention');
  token = app.token;
  expect((await call('PUT', `/v1/console/tenants/${TENANT}`, { token, json: { retentionDays: 30 } })).status).toBe(200);
  s3 = new S3Client(localS3ClientConfig(inject('s3Endpoint')));
});
afterAll(() => { s3.destroy(); });

/** Moves the service clock (running what falls due) and takes a new access token: the old one expired meanwhile. */
async function later(seconds: number): Promise<void> {
  await settle(seconds);
  token = await tokenFor(app.clientId, app.clientSecret);
}

/** Every object the bucket holds for the envelope under `prefix` (read from the bucket, not from the records). */
async function stored(envelopeId: string, prefix: string): Promise<string[]> {
  const page = await s3.send(new ListObjectsV2Command({ Bucket: inject('localResources').bucketName, Prefix: `${prefix}/${envelopeId}/` }));
  return (page.Contents ?? []).flatMap((o) => (o.Key ? [o.Key] : [])).sort();
}

interface Listed { id: string; purgeStatus: string; retentionUntil: string | null }
const listed = async (id: string) => (await call<{ attachments: Listed[] }>('GET', `/v1/envelopes/${id}/attachments`, { token })).body.attachments;

/** Every stored attachment copy is named by a committed record: its file name is a listed attachment's id. */
async function expectNamedByRecords(id: string): Promise<void> {
  const ids = new Set((await listed(id)).map((a) => a.id));
  for (const key of await stored(id, 'attachments')) expect(ids.has(key.split('/').at(-1)?.split('.')[0] ?? ''), key).toBe(true);
}

/** A sent envelope whose one signer (no code) has a signature and an optional attachment field, gates passed. */
async function sent(subject: string) {
  const draft = await readyDraft(token, TENANT, {
    subject, signers: [{ name: 'Ana Attach', email: `ana.${String(Date.now())}@example.com`, authMethod: 'none' }],
    fields: [sigField(0), { signerIndex: 0, type: 'attachment', label: 'Scan', required: false, page: 1, x: 72, y: 300, w: 200, h: 30 }],
  });
  const body = (await call<EnvelopeBody>('POST', `/v1/envelopes/${draft.id}/send`, { token })).body;
  const link = tokenOf(body.signers[0]?.signingUrl);
  await passGates(link, null);
  const fields = (await signing<{ fields: { id: string; type: string }[] }>('GET', link)).body.fields;
  return { id: draft.id, link, signature: fields.find((f) => f.type === 'signature')?.id ?? '', scan: fields.find((f) => f.type === 'attachment')?.id ?? '' };
}

/** An upload URL and the file stored under it, never completed. */
async function abandoned(link: string, fieldId: string, bytes: Uint8Array) {
  const asked = await askUploadUrl(link, fieldId, 'scan.png', bytes.byteLength);
  expect(asked.status).toBe(200);
  expect((await postAttachment(asked.body, bytes)).status).toBe(204);
  return asked.body.uploadId;
}

describe('attachment uploads and retention on the service clock', () => {
  it('sweeps an abandoned upload after its staging window, not before; a refused one is gone at once', async () => {
    const envelope = await sent('Abandoned upload');
    const uploadId = await abandoned(envelope.link, envelope.scan, pngImage(16, 16));
    expect(await stored(envelope.id, 'uploads')).toEqual([`uploads/${envelope.id}/${uploadId}.attachment`]);

    const refusedId = await abandoned(envelope.link, envelope.scan, new TextEncoder().encode('not an image, not a PDF'));
    const refused = await completeUpload(envelope.link, refusedId);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ reason: 'attachment_unrecognised' });
    expect(await stored(envelope.id, 'uploads')).toEqual([`uploads/${envelope.id}/${uploadId}.attachment`]);
    expect(await stored(envelope.id, 'attachments')).toEqual([]);

    await later(DAY - 2 * 3600);
    expect(await stored(envelope.id, 'uploads'), 'inside the staging window').toHaveLength(1);
    await later(3 * 3600);
    expect(await stored(envelope.id, 'uploads'), 'after the staging window').toEqual([]);
    expect((await completeUpload(envelope.link, uploadId)).status).toBe(409);
    expect(await listed(envelope.id)).toEqual([]);
    await expectNamedByRecords(envelope.id);
    await call('POST', `/v1/envelopes/${envelope.id}/void`, { token, json: { reason: 'done' } });
  }, 120_000);

  it('purges the submitted attachment with the documents once retention ends', async () => {
    const envelope = await sent('Purged with the documents');
    const added = await attach(envelope.link, envelope.scan, pngImage(40, 30), 'scan.png');
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const signed = await signing('POST', envelope.link, '/sign', { fields: [{ fieldId: envelope.signature, signatureImageBase64: pngBase64 }, { fieldId: envelope.scan, attachmentId: added.body.id }] });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    await settle();
    expect((await call<EnvelopeBody>('GET', `/v1/envelopes/${envelope.id}`, { token })).body.status).toBe('completed');
    expect(await stored(envelope.id, 'attachments')).toHaveLength(1);
    expect((await listed(envelope.id)).map((a) => a.purgeStatus)).toEqual(['active']);
    await expectNamedByRecords(envelope.id);

    await later(31 * DAY);
    for (const prefix of ['attachments', 'original', 'sealed', 'signatures', 'uploads']) expect(await stored(envelope.id, prefix), prefix).toEqual([]);
    expect((await listed(envelope.id)).map((a) => a.purgeStatus)).toEqual(['purged']);
    expect((await call('GET', `/v1/envelopes/${envelope.id}/attachments/${added.body.id}`, { token })).status).toBe(410);
    const audit = (await call<EnvelopeBody>('GET', `/v1/envelopes/${envelope.id}`, { token })).body.auditLog ?? [];
    expect(audit.filter((e) => e.event === 'document.purged' && e.detail?.kind === 'attachment')).toHaveLength(1);
  }, 120_000);

  it('leaves nothing of a voided envelope\'s attachments once its uploads are swept and retention ran', async () => {
    const envelope = await sent('Voided with files');
    const added = await attach(envelope.link, envelope.scan, pngImage(24, 24), 'kept.png');
    expect(added.status).toBe(201);
    await abandoned(envelope.link, envelope.scan, pngImage(12, 12));
    expect((await call('POST', `/v1/envelopes/${envelope.id}/void`, { token, json: { reason: 'Wrong tenant' } })).status).toBe(200);
    await settle();
    // Right after the void: the committed file is named by its record, the other waits in its stage
    expect(await stored(envelope.id, 'attachments')).toHaveLength(1);
    await expectNamedByRecords(envelope.id);
    expect((await listed(envelope.id)).every((a) => a.retentionUntil !== null)).toBe(true);

    await later(31 * DAY);
    for (const prefix of ['attachments', 'uploads', 'original']) expect(await stored(envelope.id, prefix), prefix).toEqual([]);
    expect((await listed(envelope.id)).map((a) => a.purgeStatus)).toEqual(['purged']);
  }, 120_000);
});
