/**
 * Signer attachments on the local stack: a signer adds a PDF and a PNG through presigned uploads (one replaced, one
 * removed), signs naming them, and the sealed PDF embeds them as associated files under the seal, which poppler,
 * qpdf and the audit certificate confirm; the owner lists and downloads them byte for byte.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiUrl, call, newApp } from '#test/support/api.ts';
import type { EnvelopeBody } from '#test/support/envelopes.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { pngBase64, settle, signing } from '#test/support/signing.ts';
import { pdfsig, pdftotext, qpdfCheck, tempPdf } from '#test/support/validators.ts';
import { attach, detachAll, detachList, jpegImage, pngImage, sentEnvelopeWithAttachments, type SentWithAttachments, type SignerAttachment } from '#test/support/attachments.ts';

let token: string;
let sentWithAttachments: (subject: string) => Promise<SentWithAttachments>;
beforeAll(async () => {
  token = (await newApp('attachments')).token;
  sentWithAttachments = (subject) => sentEnvelopeWithAttachments(token, subject);
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
type Context = SentWithAttachments['context'];
describe('a signer attaches a PDF and a PNG, signs, and the sealed PDF carries both under the seal', () => {
  it('embeds the submitted files as associated files, lists them on the certificate, and serves them to the owner', async () => {
    const { id, link, context, byLabel } = await sentWithAttachments('Lease with attachments');
    expect(context.fields.find((f) => f.label === 'ID card')).toMatchObject({ type: 'attachment', accept: ['png', 'jpeg'], maxBytes: 200_000 });
    expect(context.fields.find((f) => f.label === 'Anything else')).toMatchObject({ accept: ['pdf', 'png', 'jpeg'], maxBytes: 10 * 1024 * 1024 });
    const pdf = await makePdf({ pages: 2 });
    const png = pngImage(80, 60);

    const proof = await attach(link, byLabel('Proof of address'), pdf, 'Utility bill.pdf');
    expect(proof.status, JSON.stringify(proof.body)).toBe(201);
    expect(proof.body).toMatchObject({ name: 'Utility bill.pdf', format: 'pdf', mimeType: 'application/pdf', sizeBytes: pdf.byteLength, sha256: sha256(pdf) });
    const again = await call('POST', `/v1/signing/${link}/attachments/upload-url/${proof.upload.uploadId}/complete`);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(proof.body);
    expect((await fetch(`${proof.upload.url}/${proof.upload.fields.key ?? ''}`)).status).toBe(404); // the staged upload is gone

    // A JPEG first, then replaced by the PNG: one attachment for the field.
    const first = await attach(link, byLabel('ID card'), jpegImage(), 'id-front.jpg');
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.format).toBe('jpeg');
    const id2 = await attach(link, byLabel('ID card'), png, 'Passport scan.png');
    expect(id2.status, JSON.stringify(id2.body)).toBe(201);
    // Added, then removed before signing.
    const extra = await attach(link, byLabel('Anything else'), pngImage(8, 8), 'extra.png');
    expect(extra.status).toBe(201);
    expect((await call('DELETE', `/v1/signing/${link}/attachments/${extra.body.id}`)).status).toBe(204);
    expect((await call('DELETE', `/v1/signing/${link}/attachments/${extra.body.id}`)).status).toBe(404);
    const listed = (await signing<Context>('GET', link)).body.attachments;
    expect(listed.map((a) => a.id).sort()).toEqual([proof.body.id, id2.body.id].sort());

    const signed = await signing('POST', link, '/sign', { fields: [
      { fieldId: context.fields.find((f) => f.type === 'signature')?.id, signatureImageBase64: pngBase64 },
      { fieldId: byLabel('Proof of address'), attachmentId: proof.body.id },
      { fieldId: byLabel('ID card'), attachmentId: `att_${id2.body.id}` },
    ] });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    await settle();

    const done = (await call<EnvelopeBody>('GET', `/v1/envelopes/${id}`, { token })).body;
    expect(done.status).toBe('completed');
    const added = (done.auditLog ?? []).filter((e) => e.event === 'signer.attachment_added');
    expect(added.map((e) => e.detail?.name)).toEqual(['Utility bill.pdf', 'id-front.jpg', 'Passport scan.png', 'extra.png']);
    expect((done.auditLog ?? []).filter((e) => e.event === 'signer.attachment_removed')).toHaveLength(1);

    const list = await call<{ attachments: (SignerAttachment & { signerId: string; submitted: boolean; purgeStatus: string; retentionUntil: string | null })[] }>('GET', `/v1/envelopes/${id}/attachments`, { token });
    expect(list.status).toBe(200);
    expect(list.body.attachments.map((a) => [a.name, a.sizeBytes, a.sha256, a.submitted, a.purgeStatus])).toEqual([
      ['Utility bill.pdf', pdf.byteLength, sha256(pdf), true, 'active'], ['Passport scan.png', png.byteLength, sha256(png), true, 'active'],
    ]);
    expect(list.body.attachments.every((a) => a.retentionUntil !== null)).toBe(true);
    for (const [attachment, bytes, type] of [[proof.body, pdf, 'application/pdf'], [id2.body, png, 'image/png']] as const) {
      const answer = await fetch(`${apiUrl()}/v1/envelopes/${id}/attachments/${attachment.id}`, { headers: { authorization: `Bearer ${token}` } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe(type);
      expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
      expect(sha256(new Uint8Array(await answer.arrayBuffer()))).toBe(sha256(bytes));
    }
    expect((await call('GET', `/v1/envelopes/${id}/attachments/${extra.body.id}`, { token })).status).toBe(404);

    const sealedAnswer = await fetch(`${apiUrl()}/v1/envelopes/${id}/document?kind=sealed`, { headers: { authorization: `Bearer ${token}` } });
    const sealed = new Uint8Array(await sealedAnswer.arrayBuffer());
    expect(sha256(sealed)).toBe(done.documentHashFinal);
    const file = tempPdf(sealed);
    expect(detachList(file).sort()).toEqual(['Passport scan.png', 'Utility bill.pdf']);
    const files = detachAll(file);
    expect(sha256(files.get('Utility bill.pdf') ?? new Uint8Array())).toBe(sha256(pdf));
    expect(sha256(files.get('Passport scan.png') ?? new Uint8Array())).toBe(sha256(png));
    expect(pdfsig(file)).toMatch(/Signature is Valid/);
    expect(pdfsig(file)).toMatch(/Total document signed/);
    const check = qpdfCheck(file);
    expect(check.ok, check.output).toBe(true);
    const text = pdftotext(file).replace(/\s+/g, ' ');
    expect(text).toContain('Attachments (2)');
    for (const [name, bytes] of [['Utility bill.pdf', pdf], ['Passport scan.png', png]] as const) {
      expect(text).toContain(name);
      expect(text).toContain(`${bytes.byteLength.toLocaleString('en-US')} bytes`);
      expect(text).toContain(sha256(bytes));
    }
    // The signer's link is used: no more files.
    const late = await signing('POST', link, '/attachments/upload-url', { fieldId: byLabel('Anything else') });
    expect(late.status).toBe(410);
    expect((await call('DELETE', `/v1/signing/${link}/attachments/${proof.body.id}`)).status).toBe(410);
  }, 180_000);
});

