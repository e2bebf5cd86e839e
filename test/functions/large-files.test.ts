/**
 * Large files (decision 18) on in-memory ports: the presigned upload's stage and checks, racing completes, the sweep
 * of uploads never completed, downloads by size, and the 4 MB body limit of a function (deployed or local).
 */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { MemoryBlobStore } from '#shared/adapters/memory/memory-blob-store.ts';
import { Conflict, InvalidState, PayloadTooLarge, ValidationError } from '#shared/kernel/errors.ts';
import { uploadKey } from '#shared/envelopes/blob-staging.ts';
import { sweepAbandonedStages } from '#shared/envelopes/blob-actions.ts';
import { completeUpload, createUploadUrl } from '#shared/envelopes/direct-upload-actions.ts';
import { deliverDocument, downloadDocument } from '#shared/envelopes/document-actions.ts';
import { voidEnvelopeNow } from '#shared/envelopes/envelope-actions.ts';
import { createEnvelope } from '#shared/envelopes/upload-actions.ts';
import { parseWith } from '#shared/http/validation.ts';
import { definition as rawUpload } from '#functions/api/upload-document.ts';
import { CreateEnvelopeRequest } from '#shared/envelopes/envelope-schemas.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { memoryDeps } from '#test/support/memory-deps.ts';

const META = { ip: '198.51.100.7', userAgent: 'large' };
const DAY = 86_400_000;
const APP = 'app-large';

/** In-memory deps on a clock the test moves, and a draft without documents. */
async function setup(config: Partial<Awaited<ReturnType<typeof memoryDeps>>['config']> = {}) {
  let now = new Date('2026-11-01T10:00:00.000Z');
  const blobs = new MemoryBlobStore();
  const base = await memoryDeps({ clock: { now: () => now }, blobs });
  const deps = { ...base, config: { ...base.config, ...config } };
  const request = parseWith(CreateEnvelopeRequest, { tenantId: 'acme', subject: 'Big deal', signers: [{ name: 'Ana', email: 'ana@example.com' }] });
  const draft = await createEnvelope(deps, APP, request, [], META);
  return { deps, draft, blobs, advance: (ms: number) => { now = new Date(now.getTime() + ms); } };
}

describe('presigned uploads on in-memory ports', () => {
  it('completes an uploaded PDF once: named as asked, stored under its stage, the staged file and its stage gone', async () => {
    const { deps, draft, blobs, advance } = await setup();
    const upload = await createUploadUrl(deps, APP, draft.id, { filename: 'Deal – final.pdf', sizeBytes: 1000 });
    expect(upload).toMatchObject({ method: 'POST', maxBytes: 26_214_400, expiresAt: '2026-11-01T10:15:00.000Z' });
    await expect(completeUpload(deps, APP, draft.id, upload.uploadId, META)).rejects.toBeInstanceOf(Conflict);
    const pdf = await makePdf({ pages: 2 });
    await blobs.receivePost(upload.url, upload.fields, pdf);
    const document = await completeUpload(deps, APP, draft.id, upload.uploadId, META);
    expect(document).toMatchObject({ id: upload.uploadId, name: 'Deal – final.pdf', pageCount: 2, sizeBytes: pdf.byteLength });
    expect(document.blobKey).toMatch(new RegExp(`^original/${draft.id}/[0-9a-f-]{36}/${upload.uploadId}\\.pdf$`));
    expect(await blobs.get(document.blobKey)).toEqual(pdf);
    expect(await blobs.read(uploadKey(draft.id, upload.uploadId))).toBeUndefined();
    expect(await completeUpload(deps, APP, draft.id, upload.uploadId, META)).toEqual(document);
    advance(2 * DAY);
    expect(await sweepAbandonedStages(deps)).toBe(0);
    expect((await deps.envelopes.find(draft.id))?.documents.map((d) => d.id)).toEqual([upload.uploadId]);
  });

  it('two completes racing add the document once and leave no stage behind', async () => {
    const { deps, draft, blobs, advance } = await setup();
    const upload = await createUploadUrl(deps, APP, draft.id, { filename: null, sizeBytes: null });
    await blobs.receivePost(upload.url, upload.fields, await makePdf());
    const [a, b] = await Promise.all([completeUpload(deps, APP, draft.id, upload.uploadId, META), completeUpload(deps, APP, draft.id, upload.uploadId, META)]);
    expect(a).toEqual(b);
    const envelope = await deps.envelopes.find(draft.id);
    expect(envelope?.documents).toHaveLength(1);
    expect((await deps.envelopes.auditLog(draft.id)).filter((e) => e.event === 'document.uploaded')).toHaveLength(1);
    expect(await blobs.get(a.blobKey)).toBeDefined();
    advance(2 * DAY);
    expect(await sweepAbandonedStages(deps)).toBe(0);
    expect(await blobs.get(a.blobKey)).toBeDefined();
  });

  it('refuses a damaged upload like a raw one, keeps it staged for a retry, and the sweep deletes it a day later', async () => {
    const { deps, draft, blobs, advance } = await setup();
    const upload = await createUploadUrl(deps, APP, draft.id, { filename: null, sizeBytes: null });
    await blobs.receivePost(upload.url, upload.fields, new TextEncoder().encode('%PDF-1.7 but nothing else'));
    await expect(completeUpload(deps, APP, draft.id, upload.uploadId, META)).rejects.toBeInstanceOf(ValidationError);
    await expect(completeUpload(deps, APP, draft.id, upload.uploadId, META)).rejects.toBeInstanceOf(ValidationError);
    expect((await deps.envelopes.find(draft.id))?.documents).toEqual([]);
    const staged = uploadKey(draft.id, upload.uploadId);
    expect(await blobs.read(staged)).toBeDefined();
    advance(DAY + 1000);
    expect(await sweepAbandonedStages(deps)).toBe(1);
    expect(await blobs.read(staged)).toBeUndefined();
  });

  it('refuses a declared size over 25 MB (413), a non-draft (400) and a size over 25 MB in store (413)', async () => {
    const { deps, draft, blobs } = await setup();
    await expect(createUploadUrl(deps, APP, draft.id, { filename: null, sizeBytes: 25 * 1024 * 1024 + 1 })).rejects.toBeInstanceOf(PayloadTooLarge);
    const upload = await createUploadUrl(deps, APP, draft.id, { filename: null, sizeBytes: null });
    // A store that let a larger file through: complete still holds the limit.
    await blobs.put(uploadKey(draft.id, upload.uploadId), new Uint8Array(25 * 1024 * 1024 + 1), 'application/pdf');
    await expect(completeUpload(deps, APP, draft.id, upload.uploadId, META)).rejects.toBeInstanceOf(PayloadTooLarge);
    await voidEnvelopeNow(deps, APP, draft.id, 'done', META);
    await expect(createUploadUrl(deps, APP, draft.id, { filename: null, sizeBytes: null })).rejects.toBeInstanceOf(InvalidState);
    await expect(completeUpload(deps, APP, draft.id, upload.uploadId, META)).rejects.toBeInstanceOf(InvalidState);
  });
});

describe('downloads by size', () => {
  it('answers bytes up to DIRECT_DOWNLOAD_MAX_BYTES, and a 5-minute presigned URL naming the file beyond', async () => {
    const pdf = await makePdf({ pages: 3 });
    const { deps, draft, blobs } = await setup({ directDownloadMaxBytes: pdf.byteLength });
    const upload = await createUploadUrl(deps, APP, draft.id, { filename: null, sizeBytes: null });
    await blobs.receivePost(upload.url, upload.fields, pdf);
    await completeUpload(deps, APP, draft.id, upload.uploadId, META);
    const named = () => 'attachment; filename="Big deal (original).pdf"';
    const small = await downloadDocument(deps, APP, draft.id, 'original', null, named);
    expect(small.delivery.bytes).toEqual(pdf);
    const large = await deliverDocument({ ...deps, config: { directDownloadMaxBytes: pdf.byteLength - 1 } }, small.envelope, small.document, named);
    expect(large.bytes).toBeUndefined();
    const url = new URL(large.url ?? '');
    expect(url.searchParams.get('response-content-disposition')).toBe(named());
    expect(url.searchParams.get('expires')).toBe('300');
  });
});

describe('request bodies on AWS', () => {
  const event = (bytes: number, envelopeId: string, token: string): APIGatewayProxyEventV2 => ({
    version: '2.0', routeKey: 'POST /v1/envelopes/{id}/document', rawPath: `/v1/envelopes/${envelopeId}/document`, rawQueryString: '',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' }, pathParameters: { id: envelopeId },
    requestContext: { http: { method: 'POST', path: `/v1/envelopes/${envelopeId}/document`, protocol: 'HTTP/1.1', sourceIp: '198.51.100.7', userAgent: 'large' }, requestId: 'r', routeKey: 'POST /v1/envelopes/{id}/document', stage: '$default', accountId: '1', apiId: 'a', domainName: 'api', domainPrefix: 'api', time: '', timeEpoch: 0 },
    body: Buffer.alloc(bytes, 37).toString('base64'), isBase64Encoded: true,
  });

  it('answers a body over 4 MB with 413 pointing to upload-url, deployed and locally alike; 4 MB itself is read', async () => {
    const { createApplication, issueToken } = await import('#shared/console/application-actions.ts');
    for (const local of [false, true]) {
      const base = await memoryDeps();
      const deps = { ...base, config: { ...base.config, local } };
      const app = await createApplication(deps, { name: 'bodies' });
      const token = (await issueToken(deps, app.clientId, app.clientSecret)).access_token;
      const draft = await createEnvelope(deps, app.appId, parseWith(CreateEnvelopeRequest, { tenantId: 'acme', subject: 'Body', signers: [{ name: 'Ana', email: 'ana@example.com' }] }), [], META);
      const handler = rawUpload.createHandler(deps);
      const answer = await handler(event(4 * 1024 * 1024 + 1, draft.id, token), {} as Context);
      expect(answer.statusCode).toBe(413);
      expect(JSON.parse(answer.body ?? '{}')).toMatchObject({ error: 'payload_too_large', message: expect.stringContaining('/document/upload-url') as unknown });
      const read = await handler(event(4 * 1024 * 1024, draft.id, token), {} as Context);
      expect(read.statusCode).toBe(400); // read, and refused as not a PDF
    }
  });
});
