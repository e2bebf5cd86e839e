/**
 * A 24 MB PDF from presigned upload to sealed download on the local stack, through the code paths AWS uses
 * (decision 18): the client POSTs the file to the local S3 engine with the presigned policy (which the engine enforces as S3
 * does), completes the upload, the envelope is signed and sealed, and every download of it answers 302 to a presigned
 * GET that names the file. Small PDFs are still answered directly.
 */
import { createHash, randomBytes } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_INLINE_BODY_BYTES } from '#shared/http/aws-limits.ts';
import { apiUrl, call, expectErrorShape, newApp, outboxFor } from '#test/support/api.ts';
import { postFile, readyDraft, sigField, uploadByUrl, type EnvelopeBody, type UploadUrl } from '#test/support/envelopes.ts';
import { addImagePage, makePdf } from '#test/support/pdfs.ts';
import { passGates, settle, signing, tokenOf, valuesFor, type ContextBody } from '#test/support/signing.ts';
import { pdfsig, qpdfCheck, tempPdf } from '#test/support/validators.ts';

let token: string;
let bigPdf: Uint8Array;

beforeAll(async () => {
  token = (await newApp('large files')).token;
  // Two text pages and one page with an incompressible 2900 x 2900 RGB image: just over 24 MB.
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]);
  doc.addPage([595, 842]);
  addImagePage(doc, 2900);
  bigPdf = await doc.save();
}, 60_000);

const MB = 1024 * 1024;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const unique = (name: string) => `${name}.${String(Date.now())}.${String(Math.random()).slice(2, 8)}@example.com`;

/** A GET that does not follow a redirect, with the bearer token or none (link routes). */
const unfollowed = (path: string, bearer?: string) => fetch(`${apiUrl()}${path}`, { redirect: 'manual', headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });

/** A 302 to a presigned GET of the local S3 engine, valid 5 minutes, whose answer names the file. */
async function followPresigned(answer: Response, disposition: RegExp): Promise<Uint8Array> {
  expect(answer.status).toBe(302);
  const location = new URL(answer.headers.get('location') ?? '');
  expect(location.origin).not.toBe(new URL(apiUrl()).origin);
  expect(location.searchParams.get('X-Amz-Expires')).toBe('300');
  const object = await fetch(location);
  expect(object.status).toBe(200);
  expect(object.headers.get('content-type')).toBe('application/pdf');
  expect(object.headers.get('content-disposition')).toMatch(disposition);
  return new Uint8Array(await object.arrayBuffer());
}

describe('a 24 MB PDF through a presigned upload, signing, sealing and presigned downloads', () => {
  it('uploads, completes once (a second complete answers the same), seals and serves every download by 302', async () => {
    expect(bigPdf.byteLength).toBeGreaterThan(24 * MB);
    expect(bigPdf.byteLength).toBeLessThan(25 * MB);
    const email = unique('large');
    const created = await call<EnvelopeBody>('POST', '/v1/envelopes', { token, json: { tenantId: 'large', subject: 'Large deal', signers: [{ name: 'Ana Large', email, authMethod: 'none' }], fields: [sigField(0, { page: 3 })] } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id;

    const asked = await call<UploadUrl>('POST', `/v1/envelopes/${id}/document/upload-url`, { token, json: { filename: 'Big deal.pdf', sizeBytes: bigPdf.byteLength } });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const upload = asked.body;
    expect(upload).toMatchObject({ method: 'POST', maxBytes: 26_214_400, fields: expect.objectContaining({ key: `uploads/${id}/${upload.uploadId}.pdf` }) as unknown });
    expect(Date.parse(upload.expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(Date.parse(upload.expiresAt) - Date.now()).toBeLessThanOrEqual(15 * 60_000);

    const early = await call('POST', `/v1/envelopes/${id}/document/upload-url/${upload.uploadId}/complete`, { token });
    expect(early.status).toBe(409);
    expectErrorShape(early.body, 'conflict', 409);

    const stored = await postFile(upload, bigPdf);
    expect(stored.status, await stored.clone().text()).toBe(204);
    const completed = await call('POST', `/v1/envelopes/${id}/document/upload-url/${upload.uploadId}/complete`, { token });
    expect(completed.status, JSON.stringify(completed.body)).toBe(201);
    expect(completed.body).toMatchObject({ documentId: upload.uploadId, name: 'Big deal.pdf', sha256: sha256(bigPdf), pageCount: 3, sizeBytes: bigPdf.byteLength });
    const again = await call('POST', `/v1/envelopes/${id}/document/upload-url/${upload.uploadId}/complete`, { token });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(completed.body);
    // The staged file is gone once its checked copy is committed.
    expect((await fetch(`${upload.url}/${upload.fields.key ?? ''}`)).status).toBe(404);

    const original = await followPresigned(await unfollowed(`/v1/envelopes/${id}/document`, token), /^attachment; filename="Large deal \(original\)\.pdf"/);
    expect(sha256(original)).toBe(sha256(bigPdf));

    const sent = await call<EnvelopeBody>('POST', `/v1/envelopes/${id}/send`, { token });
    expect(sent.status).toBe(200);
    const afterSend = await call('POST', `/v1/envelopes/${id}/document/upload-url`, { token, json: {} });
    expect(afterSend.status).toBe(400);
    expectErrorShape(afterSend.body, 'invalid_state', 400);

    const link = tokenOf(sent.body.signers[0]?.signingUrl);
    await passGates(link, null);
    const rendered = await followPresigned(await unfollowed(`/v1/signing/${link}/document`), /^attachment; filename="Big deal\.pdf"/);
    expect(rendered.byteLength).toBe(bigPdf.byteLength);
    const context = (await signing<ContextBody>('GET', link)).body;
    expect((await signing('POST', link, '/sign', { fields: valuesFor(context) })).status).toBe(200);
    await settle();

    const done = (await call<EnvelopeBody>('GET', `/v1/envelopes/${id}`, { token })).body;
    expect(done.status).toBe('completed');
    const sealed = await followPresigned(await unfollowed(`/v1/envelopes/${id}/document?kind=sealed`, token), /^attachment; filename="Large deal\.pdf"/);
    expect(sha256(sealed)).toBe(done.documentHashFinal);
    expect(Buffer.from(sealed.subarray(0, bigPdf.byteLength)).equals(Buffer.from(bigPdf))).toBe(true);
    const file = tempPdf(sealed);
    const check = qpdfCheck(file);
    expect(check.ok, check.output).toBe(true);
    expect(pdfsig(file)).toMatch(/Signature is Valid/);

    // Over 7 MB the completion email links to the portal, which hands out the presigned URL and records the download.
    const mail = (await outboxFor(email)).find((m) => m.subject === 'Completed: Large deal');
    expect((mail as { attachments?: unknown[] } | undefined)?.attachments).toEqual([]);
    const portal = /https?:\/\/\S+\/download\/(\S+)/.exec(mail?.text ?? '')?.[1] ?? '';
    const portalAnswer = await unfollowed(`/v1/download/${portal}/document`);
    const audit = (await call<EnvelopeBody>('GET', `/v1/envelopes/${id}`, { token })).body.auditLog ?? [];
    expect(audit.at(-1)).toMatchObject({ event: 'document.downloaded' });
    expect(sha256(await followPresigned(portalAnswer, /^attachment; filename="Large deal\.pdf"/))).toBe(done.documentHashFinal);
  }, 300_000);

  it('refuses what S3 refuses (over 25 MB, a changed key), a declared size over 25 MB, and an upload id never issued', async () => {
    const draft = await call<EnvelopeBody>('POST', '/v1/envelopes', { token, json: { tenantId: 'large', subject: 'Too large', signers: [{ name: 'Ben', email: unique('ben') }] } });
    const id = draft.body.id;
    const declared = await call('POST', `/v1/envelopes/${id}/document/upload-url`, { token, json: { sizeBytes: 25 * MB + 1 } });
    expect(declared.status).toBe(413);
    expectErrorShape(declared.body, 'payload_too_large', 413);
    const upload = (await call<UploadUrl>('POST', `/v1/envelopes/${id}/document/upload-url`, { token })).body;
    const tooLarge = await postFile(upload, new Uint8Array(25 * MB + 1).fill(32));
    expect(tooLarge.status).toBe(400);
    expect(await tooLarge.text()).toContain('EntityTooLarge');
    const elsewhere = await postFile({ ...upload, fields: { ...upload.fields, key: `original/${id}/${upload.uploadId}.pdf` } }, bigPdf.subarray(0, 1024));
    expect(elsewhere.status).toBe(403);
    expect((await call('POST', `/v1/envelopes/${id}/document/upload-url/${upload.uploadId}/complete`, { token })).status).toBe(409);
    const notPdf = await postFile(upload, new TextEncoder().encode('not a pdf at all'));
    expect(notPdf.status).toBe(204);
    const refused = await call('POST', `/v1/envelopes/${id}/document/upload-url/${upload.uploadId}/complete`, { token });
    expect(refused.status).toBe(400);
    const unknown = await call('POST', `/v1/envelopes/${id}/document/upload-url/not-an-id/complete`, { token });
    expect(unknown.status).toBe(404);
    expectErrorShape(unknown.body, 'not_found', 404);
    expect((await call<EnvelopeBody>('GET', `/v1/envelopes/${id}`, { token })).body.documents).toEqual([]);
  }, 60_000);

  it('still answers a small PDF directly, as an attachment for the signer too', async () => {
    const draft = await readyDraft(token, 'large');
    const direct = await unfollowed(`/v1/envelopes/${draft.id}/document`, token);
    expect(direct.status).toBe(200);
    expect(direct.headers.get('content-type')).toBe('application/pdf');
    expect(direct.headers.get('content-disposition')).toMatch(/^attachment; filename="Service agreement \(original\)\.pdf"/);
    const sent = await call<EnvelopeBody>('POST', `/v1/envelopes/${draft.id}/send`, { token });
    const link = tokenOf(sent.body.signers[0]?.signingUrl);
    await passGates(link, 'ana@example.com');
    const rendered = await unfollowed(`/v1/signing/${link}/document`);
    expect(rendered.status).toBe(200);
    expect(rendered.headers.get('content-disposition')).toMatch(/^attachment;/);
  }, 60_000);

  it('answers a 4.6 MB original by 302 and a 4.4 MB one inline: no answer carries more than a Lambda response can', async () => {
    const sized = (target: number) => makePdf({ pages: 1, edit: (doc) => { void doc.attach(randomBytes(target - 4000), 'data.bin', { mimeType: 'application/octet-stream' }); } });
    const [over, under] = await Promise.all([sized(Math.round(4.6 * MB)), sized(Math.round(4.4 * MB))]);
    expect(over.byteLength).toBeGreaterThan(MAX_INLINE_BODY_BYTES);
    expect(under.byteLength).toBeLessThanOrEqual(MAX_INLINE_BODY_BYTES);
    for (const [pdf, inline] of [[over, false], [under, true]] as const) {
      const created = await call<EnvelopeBody>('POST', '/v1/envelopes', { token, json: { tenantId: 'large', subject: 'Near the limit', signers: [{ name: 'Ana', email: unique('near'), authMethod: 'none' }], fields: [sigField(0)] } });
      expect((await uploadByUrl(token, created.body.id, pdf, 'Near.pdf')).status).toBe(201);
      const answers = [await unfollowed(`/v1/envelopes/${created.body.id}/document`, token)];
      const sent = await call<EnvelopeBody>('POST', `/v1/envelopes/${created.body.id}/send`, { token });
      const link = tokenOf(sent.body.signers[0]?.signingUrl);
      await passGates(link, null);
      answers.push(await unfollowed(`/v1/signing/${link}/document`));
      for (const answer of answers) {
        if (inline) {
          expect(answer.status).toBe(200);
          expect(sha256(new Uint8Array(await answer.arrayBuffer()))).toBe(sha256(pdf));
        } else {
          expect(sha256(await followPresigned(answer, /filename=/))).toBe(sha256(pdf));
        }
      }
    }
  }, 120_000);

  it('refuses a body over API Gateway\'s 10 MB as it does, one whose event is over Lambda\'s 6 MB as Lambda does, and one over 4 MB itself', async () => {
    const draft = await call<EnvelopeBody>('POST', '/v1/envelopes', { token, json: { tenantId: 'large', subject: 'Bodies', signers: [{ name: 'Ben', email: unique('bodies') }] } });
    const raw = (bytes: number) => call('POST', `/v1/envelopes/${draft.body.id}/document`, { token, raw: { bytes: new Uint8Array(bytes).fill(37), contentType: 'application/pdf' } });
    const gateway = await raw(10 * MB + 1);
    expect(gateway.status).toBe(413);
    expect(Buffer.from(gateway.bytes).toString('utf8')).toBe('HTTP content length exceeded 10485760 bytes.');
    const lambda = await raw(5 * MB);
    expect(lambda.status).toBe(413);
    expect(lambda.body).toEqual({ message: 'Request Too Long' });
    const service = await raw(4 * MB + 1);
    expect(service.status).toBe(413);
    expectErrorShape(service.body, 'payload_too_large', 413);
    expect((await call<EnvelopeBody>('GET', `/v1/envelopes/${draft.body.id}`, { token })).body.documents).toEqual([]);
  }, 60_000);
});
