import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectErrorShape, newApp } from '#test/support/api.ts';
import { createMultipart, sigField, signer, type EnvelopeBody } from '#test/support/envelopes.ts';
import { cutAt, encryptedFixture, makePdf, PNG_1X1, truncatedAtObjectBoundary } from '#test/support/pdfs.ts';

let token: string;
beforeAll(async () => { token = (await newApp('create')).token; });

const valid = { tenantId: 'acme', subject: 'NDA', signers: [signer('ana@example.com')], fields: [sigField(0)] };

describe('POST /v1/envelopes, multipart', () => {
  it('creates a draft from a data part and the PDF, recording its hash and page count', async () => {
    const pdf = await makePdf({ pages: 3 });
    const res = await createMultipart(token, { ...valid, createdBy: 'user-7', expiresInDays: 5 }, pdf);
    expect(res.status).toBe(201);
    const sha = createHash('sha256').update(pdf).digest('hex');
    expect(res.body).toMatchObject({ status: 'draft', tenantId: 'acme', subject: 'NDA', createdBy: 'user-7', documentHashOriginal: sha });
    expect(res.body.documents).toMatchObject([{ kind: 'original', sha256: sha, pageCount: 3, mimeType: 'application/pdf', purgeStatus: 'active', purge_status: 'active' }]);
    expect(res.body.fields[0]).toMatchObject({ signerId: res.body.signers[0]?.id, documentId: res.body.documents[0]?.id, origin: 'bottom-left' });
    expect(Date.parse(res.body.expiresAt) - Date.now()).toBeGreaterThan(4.9 * 86_400_000);
    expect(res.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
  });

  it('accepts flat form fields with signers and fields as JSON strings, and signerEmail references', async () => {
    const form = new FormData();
    form.append('tenantId', 'acme');
    form.append('subject', 'Flat');
    form.append('expiresInDays', '3');
    form.append('signers', JSON.stringify([signer('ana@example.com'), signer('ben@example.com', 2)]));
    form.append('fields', JSON.stringify([{ ...sigField(0), signerIndex: undefined, signerEmail: 'BEN@example.com' }]));
    form.append('file', new Blob([await makePdf()], { type: 'application/pdf' }), 'a.pdf');
    const res = await call<EnvelopeBody>('POST', '/v1/envelopes', { token, form });
    expect(res.status).toBe(201);
    expect(res.body.fields[0]?.signerId).toBe(res.body.signers[1]?.id);
  });

  it('uses the tenant default expiry (30 days) when expiresInDays is omitted', async () => {
    const res = await createMultipart(token, valid);
    expect(Math.round((Date.parse(res.body.expiresAt) - Date.now()) / 86_400_000)).toBe(30);
  });

  it('stores top-left fields as given and checks them from the top of the page', async () => {
    const ok = await createMultipart(token, { ...valid, fieldOrigin: 'top-left', fields: [sigField(0, { y: 10 })] });
    expect(ok.status).toBe(201);
    expect(ok.body.fields[0]?.origin).toBe('top-left');
    const off = await createMultipart(token, { ...valid, fields: [sigField(0, { origin: 'top-left', y: 830 })] });
    expect(off.status).toBe(400);
    expect(off.body).toMatchObject({ errors: { 'fields[0].x': expect.any(Array) as unknown } });
  });

  const rejects: [string, () => Promise<Uint8Array>, RegExp][] = [
    ['a file that is not a PDF', () => Promise.resolve(PNG_1X1), /not a PDF/],
    ['an encrypted PDF', () => Promise.resolve(encryptedFixture('encrypted.pdf')), /encrypted/],
    ['a PDF cut in half', async () => cutAt(await makePdf({ pages: 3 })), /truncated/],
    ['a PDF cut at an object boundary', async () => truncatedAtObjectBoundary(await makePdf({ pages: 3, objectStreams: false })), /truncated|damaged/],
  ];
  for (const [what, bytes, message] of rejects) {
    it(`answers 400 saying why for ${what}`, async () => {
      const res = await createMultipart(token, valid, await bytes());
      expect(res.status).toBe(400);
      expectErrorShape(res.body, 'validation_error', 400);
      expect(res.body).toMatchObject({ message: expect.stringMatching(message) as unknown, errors: { file: expect.any(Array) as unknown } });
    });
  }

  it('answers 413 for a file over 25 MB: API Gateway refuses the request (over its 10 MB) before the function sees it', async () => {
    const big = new Uint8Array(25 * 1024 * 1024 + 10);
    big.set(Buffer.from('%PDF-1.7\n'));
    const res = await createMultipart(token, valid, big);
    expect(res.status).toBe(413);
    expect(Buffer.from(res.bytes).toString('utf8')).toBe('HTTP content length exceeded 10485760 bytes.');
  });

  it('answers 400 when the file part is missing or the data part is not JSON', async () => {
    const noFile = new FormData();
    noFile.append('data', JSON.stringify(valid));
    expect((await call('POST', '/v1/envelopes', { token, form: noFile })).body).toMatchObject({ status: 400, errors: { file: expect.any(Array) as unknown } });
    const badData = new FormData();
    badData.append('data', '{not json');
    badData.append('file', new Blob([await makePdf()]), 'a.pdf');
    expect((await call('POST', '/v1/envelopes', { token, form: badData })).body).toMatchObject({ status: 400, errors: { data: expect.any(Array) as unknown } });
  });
});

describe('POST /v1/envelopes, JSON', () => {
  it('creates a draft without a document; fields wait for the upload', async () => {
    const res = await call<EnvelopeBody>('POST', '/v1/envelopes', { token, json: valid });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'draft', documentHashOriginal: null, documents: [] });
    expect(res.body.fields[0]?.documentId).toBeNull();
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['tenantId missing', { ...valid, tenantId: undefined }, 'tenantId'],
    ['subject over 255 characters', { ...valid, subject: 'x'.repeat(256) }, 'subject'],
    ['expiresInDays 0', { ...valid, expiresInDays: 0 }, 'expiresInDays'],
    ['expiresInDays not an integer', { ...valid, expiresInDays: 1.5 }, 'expiresInDays'],
    ['no signers', { ...valid, signers: [], fields: [] }, 'signers'],
    ['a signer email that is not an email', { ...valid, signers: [signer('nope')] }, 'signers[0].email'],
    ['an unknown authMethod', { ...valid, signers: [signer('a@example.com', 1, { authMethod: 'fax' })] }, 'signers[0].authMethod'],
    ['sms_otp without a phone', { ...valid, signers: [signer('a@example.com', 1, { authMethod: 'sms_otp' })] }, 'signers[0].phone'],
    ['routingOrder 0', { ...valid, signers: [signer('a@example.com', 0)] }, 'signers[0].routingOrder'],
    ['a field naming no signer', { ...valid, fields: [sigField(3)] }, 'fields[0].signerIndex'],
    ['a field of an unknown type', { ...valid, fields: [sigField(0, { type: 'stamp' })] }, 'fields[0].type'],
    ['a field with zero width', { ...valid, fields: [sigField(0, { w: 0 })] }, 'fields[0].w'],
    ['duplicate signer emails', { ...valid, signers: [signer('a@example.com'), signer('A@example.com')], fields: [] }, 'signers[1].email'],
  ];
  for (const [what, body, path] of invalid) {
    it(`answers 400 naming ${path} for ${what}`, async () => {
      const res = await call('POST', '/v1/envelopes', { token, json: body });
      expect(res.status).toBe(400);
      expectErrorShape(res.body, 'validation_error', 400);
      expect(Object.keys((res.body as { errors: object }).errors)).toContain(path);
    });
  }

  it('answers 400 validation_error for malformed JSON and 415 for another content type', async () => {
    const malformed = await call('POST', '/v1/envelopes', { token, raw: { bytes: Buffer.from('{"tenantId":'), contentType: 'application/json' } });
    expect(malformed.status).toBe(400);
    expectErrorShape(malformed.body, 'validation_error', 400);
    const xml = await call('POST', '/v1/envelopes', { token, raw: { bytes: Buffer.from('<x/>'), contentType: 'application/xml' } });
    expect(xml.status).toBe(415);
  });

  it('answers 401 without a token and creates nothing', async () => {
    const res = await call('POST', '/v1/envelopes', { json: valid });
    expect(res.status).toBe(401);
    const list = await call<{ total: number }>('GET', '/v1/envelopes?tenantId=nobody-else', { token });
    expect(list.body.total).toBe(0);
  });
});
