/**
 * Every way a signer's attachment is refused, over HTTP on the local stack: content that is not what it is named,
 * a format the field does not accept, a damaged image or PDF, a file over the field's size (declared, and as stored),
 * a field that is not the signer's attachment field, completing before uploading, signing without a required file
 * or naming one that is not the field's, and anything after signing; and the field rules at authoring.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectErrorShape, newApp } from '#test/support/api.ts';
import { createMultipart, sigField } from '#test/support/envelopes.ts';
import { cutAt, makePdf } from '#test/support/pdfs.ts';
import { pngBase64, signing } from '#test/support/signing.ts';
import { askUploadUrl, attach, box, completeUpload, jpegImage, pngImage, postAttachment, sentEnvelopeWithAttachments } from '#test/support/attachments.ts';

let token: string;
beforeAll(async () => {
  token = (await newApp('attachment refusals')).token;
});

interface Refusal { reason: string | null; errors: Record<string, string[]> }

describe('a signer attachment is refused', () => {
  it('by its content, its format, its size and its field; the refused upload is deleted at once', async () => {
    const { link, byLabel, context } = await sentEnvelopeWithAttachments(token, 'Refusals');
    const proof = byLabel('Proof of address');
    const idCard = byLabel('ID card');

    const text = new TextEncoder().encode('just some text, named as if it were a picture\n');
    const disguised = await attach(link, idCard, text, 'photo.png');
    expect(disguised.status).toBe(400);
    expectErrorShape(disguised.body, 'validation_error', 400);
    expect((disguised.body as unknown as Refusal).reason).toBe('attachment_unrecognised');
    expect((await fetch(`${disguised.upload.url}/${disguised.upload.fields.key ?? ''}`)).status).toBe(404);
    expect((await completeUpload(link, disguised.upload.uploadId)).status).toBe(409); // nothing left to complete

    const wrongFormat = await attach(link, proof, pngImage(), 'bill.pdf');
    expect(wrongFormat.status).toBe(400);
    expect((wrongFormat.body as unknown as Refusal).reason).toBe('attachment_not_accepted');

    const png = pngImage(40, 40);
    const brokenPng = await attach(link, idCard, png.subarray(0, png.byteLength - 20), 'broken.png');
    expect(brokenPng.status).toBe(400);
    expect((brokenPng.body as unknown as Refusal).reason).toBe('attachment_damaged');
    const jpg = jpegImage();
    const brokenJpeg = await attach(link, idCard, jpg.subarray(0, Math.floor(jpg.byteLength / 2)), 'broken.jpg');
    expect(brokenJpeg.status).toBe(400);
    expect((brokenJpeg.body as unknown as Refusal).reason).toBe('attachment_damaged');

    const cut = await attach(link, proof, cutAt(await makePdf({ pages: 3 }), 0.6), 'cut.pdf');
    expect(cut.status).toBe(400);
    expect(['truncated', 'damaged']).toContain((cut.body as unknown as Refusal).reason);

    // Over the field's 200 KB: declared (413 at once), and stored anyway (the store's own policy refuses it).
    expect((await askUploadUrl(link, idCard, 'big.png', 200_001)).status).toBe(413);
    const asked = await askUploadUrl(link, idCard, 'big.png');
    expect(asked.body.maxBytes).toBe(200_000);
    expect((await postAttachment(asked.body, new Uint8Array(200_001))).status).toBe(400);
    expect((await completeUpload(link, asked.body.uploadId)).status).toBe(409);

    const signatureField = context.fields.find((f) => f.type === 'signature')?.id ?? '';
    const notAttachment = await askUploadUrl(link, signatureField, 'x.png');
    expect(notAttachment.status).toBe(400);
    expect(notAttachment.body).toMatchObject({ errors: { fieldId: ['is not one of your attachment fields'] } });
    expect((await completeUpload(link, '00000000-0000-7000-8000-000000000000')).status).toBe(409);
    expect((await completeUpload(link, 'not-an-id')).status).toBe(404);
  }, 120_000);

  it('at signing: a required file missing, an unknown one, another field\'s one; and everything after signing', async () => {
    const { link, byLabel, context } = await sentEnvelopeWithAttachments(token, 'Sign refusals');
    const signature = { fieldId: context.fields.find((f) => f.type === 'signature')?.id, signatureImageBase64: pngBase64 };
    const proof = await attach(link, byLabel('Proof of address'), await makePdf(), 'proof.pdf');
    const photo = await attach(link, byLabel('ID card'), pngImage(), 'id.png');
    expect([proof.status, photo.status]).toEqual([201, 201]);

    const missing = await signing('POST', link, '/sign', { fields: [signature, { fieldId: byLabel('Proof of address'), attachmentId: proof.body.id }] });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain('required ID card field');
    const unknown = await signing('POST', link, '/sign', { fields: [signature, { fieldId: byLabel('Proof of address'), attachmentId: proof.body.id }, { fieldId: byLabel('ID card'), attachmentId: '0190f5f2-0000-7000-8000-000000000000' }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ errors: { 'fields[2]': [expect.stringContaining('attachmentId does not name') as unknown] } });
    const swapped = await signing('POST', link, '/sign', { fields: [signature, { fieldId: byLabel('Proof of address'), attachmentId: photo.body.id }, { fieldId: byLabel('ID card'), attachmentId: proof.body.id }] });
    expect(swapped.status).toBe(400);
    const badId = await signing('POST', link, '/sign', { fields: [signature, { fieldId: byLabel('ID card'), attachmentId: 'nope' }] });
    expect(badId.status).toBe(400);

    const signed = await signing('POST', link, '/sign', { fields: [signature, { fieldId: byLabel('Proof of address'), attachmentId: proof.body.id }, { fieldId: byLabel('ID card'), attachmentId: photo.body.id }] });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect((await askUploadUrl(link, byLabel('Anything else'), 'late.png')).status).toBe(410);
    expect((await completeUpload(link, photo.upload.uploadId)).status).toBe(410);
    expect((await call('DELETE', `/v1/signing/${link}/attachments/${photo.body.id}`)).status).toBe(410);
  }, 120_000);

  it('at authoring: a label, known formats, at most 10 MB, and accept only on attachment fields', async () => {
    const create = (field: Record<string, unknown>) => createMultipart(token, { tenantId: 'attach', signers: [{ name: 'Bo', email: 'bo@example.com' }], fields: [sigField(0), { signerIndex: 0, type: 'attachment', ...box, ...field }] });
    const noLabel = await create({ label: null });
    expect(noLabel.status).toBe(400);
    expect(Object.keys((noLabel.body as unknown as Refusal).errors)).toEqual(['fields[1].label']);
    expect((await create({ label: 'Scan', accept: ['gif'] })).status).toBe(400);
    expect((await create({ label: 'Scan', accept: [] })).status).toBe(400);
    expect((await create({ label: 'Scan', maxBytes: 10 * 1024 * 1024 + 1 })).status).toBe(400);
    const onSignature = await createMultipart(token, { tenantId: 'attach', signers: [{ name: 'Bo', email: 'bo@example.com' }], fields: [sigField(0, { accept: ['pdf'] })] });
    expect(onSignature.status).toBe(400);
    expect(Object.keys((onSignature.body as unknown as Refusal).errors)).toEqual(['fields[0].accept']);
    const eleven = Array.from({ length: 11 }, (_, i) => ({ signerIndex: 0, type: 'attachment', label: `File ${String(i)}`, ...box }));
    expect((await createMultipart(token, { tenantId: 'attach', signers: [{ name: 'Bo', email: 'bo@example.com' }], fields: [sigField(0), ...eleven] })).status).toBe(400);
    const ok = await create({ label: 'Scan', accept: ['jpeg'], maxBytes: 5000 });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect((ok.body).fields[1]).toMatchObject({ type: 'attachment', label: 'Scan', accept: ['jpeg'], maxBytes: 5000 });
  }, 60_000);
});
