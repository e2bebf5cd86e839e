/**
 * What the seal does when its evidence cannot be had (the ports fail), and what it keeps of earlier signatures.
 * The choice: a seal that cannot reach its configured level fails with a retryable error; it never lowers it.
 */
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { PDFArray, PDFDict, PDFName, PDFString, PDFHexString, PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTimestampAuthority } from '#shared/adapters/http/timestamp-authority.ts';
import { freePort } from '#local/engines/free-port.ts';
import type { RunningPki } from '#local/engines/local-ca.ts';
import { inspectPdf } from '#shared/pdf/inspect.ts';
import { RevocationUnavailable } from '#shared/pki/dss.ts';
import { signPdf } from '#shared/sealing/pades.ts';
import { sealPdf, type SealInput } from '#shared/sealing/seal.ts';
import { timestampResponse, TimestampUnavailable, tokenFromResponse } from '#shared/pki/tsp.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { testConfig } from '#test/support/config.ts';
import { startTestPki, type TestPki } from '#test/support/local-pki.ts';
import { allSignatures, opensslCmsVerify, pdfsig, qpdfCheck, tempFile } from './signature-tools.ts';

let pki: RunningPki;
let levelInput: TestPki['input'];
const servers: Server[] = [];
beforeAll(async () => {
  ({ pki, input: levelInput } = await startTestPki());
});
afterAll(async () => {
  for (const server of servers) server.close();
  await pki.stop();
});

/** A local HTTP server answering every request with `status` and `body`. */
async function answering(status: number, body: Uint8Array): Promise<string> {
  const server = createServer((_req, res) => { res.writeHead(status, { 'content-type': 'application/timestamp-reply' }); res.end(body); });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return `http://127.0.0.1:${String(typeof address === 'object' && address ? address.port : 0)}/tsa`;
}

const input = (overrides: Partial<SealInput>): SealInput => levelInput('B-LTA', overrides);

describe('the seal never goes below its level', () => {
  it('fails with a retryable TimestampUnavailable when the TSA cannot be reached', async () => {
    const closed = `http://127.0.0.1:${String(await freePort())}/tsa`;
    const evidence = { level: 'B-T' as const, timestamps: new HttpTimestampAuthority(closed, { timeoutMs: 2000 }) };
    const error = await sealPdf(await makePdf(), input({ evidence })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimestampUnavailable);
    expect(error).toMatchObject({ retryable: true, message: expect.stringContaining('could not be reached') as unknown });
  });

  it('fails when the TSA answers with an HTTP error, refuses, or stamps another digest', async () => {
    const refusing = await answering(200, timestampResponse(undefined, 'busy'));
    const broken = await answering(503, new Uint8Array());
    for (const [url, message] of [[refusing, /refused the request.*busy/], [broken, /HTTP 503/]] as const) {
      const evidence = { level: 'B-T' as const, timestamps: new HttpTimestampAuthority(url) };
      await expect(sealPdf(await makePdf(), input({ evidence }))).rejects.toThrow(message);
    }
    const token = await new HttpTimestampAuthority(pki.tsaUrl).timestamp(new Uint8Array(32).fill(1));
    expect(() => tokenFromResponse(timestampResponse(token), new Uint8Array(32).fill(2))).toThrow(/different digest/);
  });

  it('fails with RevocationUnavailable when revocation data cannot be had for B-LT, and asks for every service its level needs', async () => {
    const revocation = { revocation: () => Promise.reject(new RevocationUnavailable('CRL server down')) };
    const evidence = { level: 'B-LT' as const, timestamps: new HttpTimestampAuthority(pki.tsaUrl), revocation };
    await expect(sealPdf(await makePdf(), input({ evidence }))).rejects.toThrow(RevocationUnavailable);
    await expect(sealPdf(await makePdf(), input({ evidence: { level: 'B-T' } }))).rejects.toThrow(/needs a timestamp authority/);
    await expect(sealPdf(await makePdf(), input({ evidence: { level: 'B-LTA', timestamps: evidence.timestamps } }))).rejects.toThrow(/needs a revocation source/);
  });

  it('PADES_LEVEL defaults to the highest TSA_URL allows, and a level without its TSA fails at load', () => {
    expect(testConfig().padesLevel).toBe('B-B');
    expect(testConfig({ TSA_URL: 'https://tsa.example/' }).padesLevel).toBe('B-LTA');
    expect(testConfig({ TSA_URL: 'https://tsa.example/', PADES_LEVEL: 'B-T' }).padesLevel).toBe('B-T');
    expect(() => testConfig({ PADES_LEVEL: 'B-T' })).toThrow(/PADES_LEVEL B-T needs TSA_URL/);
  });
});

describe('earlier signatures', () => {
  it('a sealed PDF sealed again keeps every signature valid for its revision, each still listed in the form', async () => {
    const first = (await sealPdf(await makePdf({ pages: 1 }), input({}))).bytes;
    const second = (await sealPdf(first, input({}))).bytes;
    const signatures = allSignatures(second);
    expect(signatures.map((s) => s.subFilter)).toEqual(['ETSI.CAdES.detached', 'ETSI.RFC3161', 'ETSI.CAdES.detached', 'ETSI.RFC3161']);
    for (const signature of signatures.filter((s) => s.subFilter === 'ETSI.CAdES.detached')) {
      expect(opensslCmsVerify(signature.cms, signature.content, pki.rootPem)).toMatchObject({ ok: true });
    }
    const report = pdfsig(second);
    expect(report.match(/Signature is Valid\./g)?.length).toBe(2);
    expect(report).toContain('Signature #4');
    expect(qpdfCheck(second).status).toBe(0);
    const doc = await PDFDocument.load(second);
    const fields = doc.catalog.lookup(PDFName.of('AcroForm'), PDFDict).lookup(PDFName.of('Fields'), PDFArray);
    expect(fields.asArray().map((f) => (doc.context.lookup(f, PDFDict).get(PDFName.of('T')) as PDFHexString | PDFString).decodeText())).toEqual(['Signature1', 'Signature2', 'Signature3', 'Signature4']);
  });

  it('a signed field of the input stays (in the form, on its page, still valid); the unsigned ones are flattened', async () => {
    const withForm = await makePdf({
      edit: (doc) => {
        const field = doc.getForm().createTextField('company');
        field.setText('ACME Ltd');
        field.addToPage(doc.getPage(0), { x: 50, y: 600, width: 200, height: 24 });
      },
    });
    const signed = await signPdf(withForm, levelInput('B-B').signer, { signingTime: new Date('2026-01-01T00:00:00Z') });
    const sealed = (await sealPdf(signed, input({}))).bytes;
    const report = pdfsig(sealed);
    expect(report.match(/Signature is Valid\./g)?.length).toBe(2);
    const doc = await PDFDocument.load(sealed);
    const fields = doc.catalog.lookup(PDFName.of('AcroForm'), PDFDict).lookup(PDFName.of('Fields'), PDFArray).asArray().map((f) => doc.context.lookup(f, PDFDict));
    expect(fields.map((f) => (f.get(PDFName.of('T')) as PDFHexString | PDFString).decodeText())).toEqual(['Signature1', 'Signature2', 'Signature3']);
    const annots = doc.getPage(0).node.lookup(PDFName.of('Annots'), PDFArray).asArray();
    expect(annots).toContain(doc.context.getObjectRef(fields[0]!));
    expect(execFileSync('pdftotext', [tempFile(sealed, 'mixed.pdf'), '-'], { encoding: 'utf8' })).toContain('ACME Ltd');
  });
});

describe('a certified PDF that permits no change', () => {
  const certified = (p: number) => makePdf({
    edit: (doc) => {
      const signature = doc.context.obj({ Type: 'Sig', Reference: [{ Type: 'SigRef', TransformMethod: 'DocMDP', TransformParams: { Type: 'TransformParams', P: p, V: '1.2' } }] });
      doc.catalog.set(PDFName.of('Perms'), doc.context.obj({ DocMDP: doc.context.register(signature) }));
    },
  });

  it('is refused at upload with a clear message (DocMDP P=1); P=2 (form filling and signing) is accepted', async () => {
    expect(await inspectPdf(await certified(1))).toMatchObject({ ok: false, reason: 'locked', message: expect.stringContaining('no changes permitted (DocMDP P=1)') as unknown });
    expect(await inspectPdf(await certified(2))).toMatchObject({ ok: true });
  });
});
