import { X509Certificate, createHash, randomBytes } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import * as pkijs from 'pkijs';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectErrorShape, newApp, outboxFor } from '#test/support/api.ts';
import { createWithPdf, sigField, signer, type EnvelopeBody } from '#test/support/envelopes.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { passGates, settle, signing, tokenOf, valuesFor, type ContextBody } from '#test/support/signing.ts';
import { pdfsig, pdftotext, qpdfCheck, tempPdf } from '#test/support/validators.ts';
import { allSignatures, opensslCmsVerify, opensslTsVerify } from '#test/pdf/signature-tools.ts';

let token: string;
beforeAll(async () => { token = (await newApp('sealing')).token; });

const unique = (name: string) => `${name}.${String(Date.now())}.${String(Math.random()).slice(2, 8)}@example.com`;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Creates, sends and signs an envelope with every signer (authMethod none), then lets sealing finish. */
async function signedEnvelope(pdf: Uint8Array, emails: string[]): Promise<EnvelopeBody> {
  // Over a request's 4 MB the PDF goes by presigned upload, as it must on AWS.
  const created = await createWithPdf(token, {
    tenantId: 'seal', subject: 'Supply contract', signers: emails.map((e, i) => signer(e, i + 1, { authMethod: 'none', name: i === 0 ? 'Łukasz Żółć' : 'Wang Xiaoming 王小明' })),
    fields: emails.flatMap((_, i) => [sigField(i), { signerIndex: i, type: 'text', page: 1, x: 72, y: 300 + i * 40, w: 250, h: 20 }, { signerIndex: i, type: 'date', page: 1, x: 350, y: 300 + i * 40, w: 100, h: 20 }]),
  }, pdf);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const sent = await call<EnvelopeBody>('POST', `/v1/envelopes/${created.body.id}/send`, { token });
  for (let group = 0; group < emails.length; group++) {
    await settle();
    const current = (await call<EnvelopeBody>('GET', `/v1/envelopes/${created.body.id}`, { token })).body;
    const link = group === 0 ? sent.body.signers[0]?.signingUrl : /https?:\/\/\S+\/sign\/\S+/.exec((await outboxFor(emails[group] ?? '')).at(-1)?.text ?? '')?.[0];
    expect(current.status).not.toBe('completed');
    const t = tokenOf(link);
    await passGates(t, null);
    const context = (await signing<ContextBody>('GET', t)).body;
    const values = valuesFor(context).map((v) => (v.textValue === 'ACME Corp.' ? { ...v, textValue: `Clause agreed by ${emails[group] ?? ''}` } : v));
    expect((await signing('POST', t, '/sign', { fields: values })).status).toBe(200);
  }
  await settle();
  return (await call<EnvelopeBody>('GET', `/v1/envelopes/${created.body.id}`, { token })).body;
}

describe('sealing a completed envelope', () => {
  it('completes with a B-LTA sealed PDF that pdfsig, qpdf, openssl (against the local root) and pdftotext accept, with every field and the audit certificate', async () => {
    const original = await makePdf({ pages: 2, size: [612, 792] });
    const [a, b] = [unique('seal-a'), unique('seal-b')];
    const envelope = await signedEnvelope(original, [a, b]);
    expect(envelope.status).toBe('completed');
    expect(envelope.documentHashFinal).toMatch(/^[0-9a-f]{64}$/);
    const sealedDoc = envelope.documents.find((d) => d.kind === 'sealed');
    expect(sealedDoc).toMatchObject({ sha256: envelope.documentHashFinal, purgeStatus: 'active', purge_status: 'active', retentionUntil: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) as unknown });
    expect(envelope.auditLog?.slice(-2).map((e) => e.event)).toEqual(['envelope.sealed', 'envelope.completed']);
    expect((await call('GET', `/v1/envelopes/${envelope.id}/audit/verify`, { token })).body).toMatchObject({ valid: true });

    const download = await call('GET', `/v1/envelopes/${envelope.id}/document?kind=sealed`, { token });
    expect(download.status).toBe(200);
    const sealed = download.bytes;
    expect(sha256(sealed)).toBe(envelope.documentHashFinal);
    expect(Buffer.from(sealed.subarray(0, original.length)).equals(Buffer.from(original))).toBe(true);

    const file = tempPdf(sealed);
    const verdict = pdfsig(file);
    expect(verdict).toContain('Signature is Valid.');
    expect(verdict.split('Signature #2')[1]).toContain('Total document signed'); // the document timestamp covers everything
    const root = await call('GET', '/_local/pki/root.pem');
    expect(root.status).toBe(200);
    const rootPem = Buffer.from(root.bytes).toString('utf8');
    const [seal, stamp] = allSignatures(sealed);
    expect(opensslCmsVerify(seal!.cms, seal!.content, rootPem)).toMatchObject({ ok: true });
    // sealed with the default key type: ECDSA P-256, signed as ecdsa-with-SHA256
    const signedData = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(seal!.cms).content });
    expect(signedData.signerInfos[0]?.signatureAlgorithm.algorithmId).toBe('1.2.840.10045.4.3.2');
    const sealCertificate = new X509Certificate(new Uint8Array((signedData.certificates?.[0] as pkijs.Certificate).toSchema().toBER()));
    expect(sealCertificate.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(opensslTsVerify(stamp!.cms, createHash('sha256').update(stamp!.content).digest(), rootPem)).toMatchObject({ ok: true });
    expect(qpdfCheck(file)).toMatchObject({ ok: true });
    const text = pdftotext(file);
    expect(text).toContain(`Clause agreed by ${a}`);
    expect(text).toContain('Audit certificate');
    expect(text).toContain('Łukasz Żółć');
    expect(text).toContain('王小明');
    expect(text).toContain(envelope.id);
    expect(text).toContain('PAdES B-LTA');
    expect(text).toMatch(/Audit chain head\s+event #\d+\s+[0-9a-f]{64}/);
    expect((await PDFDocument.load(sealed)).getPageCount()).toBeGreaterThan(2);

    for (const address of [a, b]) {
      const mail = (await outboxFor(address)).find((m) => m.subject === 'Completed: Supply contract') as { attachments?: { filename: string; size: number }[] } | undefined;
      expect(mail?.attachments).toEqual([{ filename: 'Supply contract.pdf', contentType: 'application/pdf', size: sealed.length }]);
    }
    const tampered = Buffer.from(sealed);
    const at = Math.floor(original.length / 2);
    tampered[at] = tampered[at]! ^ 0x01;
    expect(pdfsig(tempPdf(tampered))).not.toContain('Signature is Valid.');
  }, 60_000);

  it('sends a download-portal link instead of an attachment over 7 MB; the portal serves and records the download', async () => {
    const big = await makePdf({ pages: 1, size: [612, 792], edit: (doc) => { void doc.attach(randomBytes(7.5 * 1024 * 1024), 'data.bin', { mimeType: 'application/octet-stream' }); } });
    const email = unique('big');
    const envelope = await signedEnvelope(big, [email]);
    expect(envelope.status).toBe('completed');
    const mail = (await outboxFor(email)).find((m) => m.subject === 'Completed: Supply contract');
    const link = /https?:\/\/\S+\/download\/(\S+)/.exec(mail?.text ?? '')?.[1];
    expect(link).toBeTruthy();
    expect((mail as { attachments?: unknown[] } | undefined)?.attachments).toEqual([]);
    const status = await call('GET', `/v1/download/${link ?? ''}`);
    expect(status.body).toMatchObject({ envelopeId: envelope.id, available: true });
    const pdf = await call('GET', `/v1/download/${link ?? ''}/document`);
    expect(pdf.status).toBe(200);
    expect(sha256(pdf.bytes)).toBe(envelope.documentHashFinal);
    const after = (await call<EnvelopeBody>('GET', `/v1/envelopes/${envelope.id}`, { token })).body;
    expect(after.auditLog?.at(-1)).toMatchObject({ event: 'document.downloaded', actor: `signer:${after.signers[0]?.id ?? ''}` });
    const bad = await call('GET', '/v1/download/not-a-token');
    expect(bad.status).toBe(401);
    expectErrorShape(bad.body, 'unauthorized', 401);
  }, 90_000);
});
