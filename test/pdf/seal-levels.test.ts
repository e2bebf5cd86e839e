/**
 * Seals at every PAdES level against the local CA and timestamp authority (the engine `npm start` runs), each
 * checked by every independent validator Debian has: pdfsig, qpdf, openssl (cms, ts, verify -crl_check), mutool.
 */
import { createHash } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { PDFArray, PDFDict, PDFName, PDFRawStream } from 'pdf-lib';
import * as pkijs from 'pkijs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEAL_KEY_SPECS } from '#shared/adapters/seal-key-spec.ts';
import type { RunningPki } from '#local/engines/local-ca.ts';
import { loadPdf } from '#shared/pdf/load.ts';
import { sealPdf } from '#shared/sealing/seal.ts';
import { startTestPki, type TestPki } from '#test/support/local-pki.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { allSignatures, mutoolShow, mutoolVerify, opensslCmsVerify, opensslTsVerify, opensslVerifyWithCrl, pdfsig, qpdfCheck, startsWith } from './signature-tools.ts';

let pki: RunningPki;
let sealInput: TestPki['input'];
beforeAll(async () => {
  const started = await startTestPki();
  ({ pki, input: sealInput } = started);
});
afterAll(async () => { await pki.stop(); });

const sha256 = (bytes: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(bytes).digest());

/** The token of the signature-time-stamp attribute, and the digest it must stamp (the signature value's SHA-256). */
function signatureTimestamp(cms: Uint8Array): { token: Uint8Array; digest: Uint8Array } | undefined {
  const signed = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(cms).content });
  const info = signed.signerInfos[0];
  const attribute = info?.unsignedAttrs?.attributes.find((a) => a.type === '1.2.840.113549.1.9.16.2.14');
  const value = attribute?.values[0] as { toBER(): ArrayBuffer } | undefined;
  if (!info || !value) return undefined;
  return { token: new Uint8Array(value.toBER()), digest: sha256(new Uint8Array(info.signature.valueBlock.valueHexView)) };
}

/** The DSS's certificates and CRLs, decoded. */
async function dss(pdf: Uint8Array): Promise<{ certs: Uint8Array[]; crls: Uint8Array[] }> {
  const doc = await loadPdf(pdf);
  const store = doc.catalog.lookupMaybe(PDFName.of('DSS'), PDFDict);
  const streams = (key: string) => (store?.lookupMaybe(PDFName.of(key), PDFArray)?.asArray() ?? [])
    .map((ref) => new Uint8Array(inflateSync((doc.context.lookup(ref) as PDFRawStream).contents)));
  return { certs: streams('Certs'), crls: streams('CRLs') };
}

describe.each(SEAL_KEY_SPECS)('B-LTA with %s keys (seal, timestamp authority and root)', (spec) => {
  let keyed: TestPki;
  beforeAll(async () => { keyed = await startTestPki(spec); });
  afterAll(async () => { await keyed.pki.stop(); });

  it('signature with a timestamp, a DSS with chains and CRLs, a document timestamp; every validator agrees', async () => {
    const { pki } = keyed;
    const input = await makePdf({ pages: 2 });
    const { bytes, level } = await sealPdf(input, keyed.input('B-LTA'));
    expect(level).toBe('B-LTA');
    expect(startsWith(bytes, input)).toBe(true);
    const [seal, stamp, ...more] = allSignatures(bytes);
    expect(more).toEqual([]);
    expect(seal?.subFilter).toBe('ETSI.CAdES.detached');
    expect(stamp?.subFilter).toBe('ETSI.RFC3161');
    // openssl: the seal against the local root, its signature timestamp, the document timestamp
    expect(opensslCmsVerify(seal!.cms, seal!.content, pki.rootPem)).toMatchObject({ ok: true });
    const timestamp = signatureTimestamp(seal!.cms);
    expect(timestamp).toBeDefined();
    expect(opensslTsVerify(timestamp!.token, timestamp!.digest, pki.rootPem)).toMatchObject({ ok: true });
    expect(opensslTsVerify(stamp!.cms, sha256(stamp!.content), pki.rootPem)).toMatchObject({ ok: true });
    // the DSS: seal, TSA and root certificates, and a CRL that checks both leaves
    const store = await dss(bytes);
    expect(store.certs.length).toBe(3);
    expect(store.crls.length).toBeGreaterThanOrEqual(1);
    for (const cert of store.certs.filter((c) => !Buffer.from(c).equals(Buffer.from(pki.rootDer)))) {
      expect(opensslVerifyWithCrl(cert, store.crls[0]!, pki.rootPem)).toMatchObject({ ok: true });
    }
    // poppler: the seal is valid; the document timestamp covers the whole file (pdfsig 22 cannot verify RFC 3161 itself)
    const report = pdfsig(bytes);
    expect(report).toContain('Signature is Valid.');
    expect(report).toContain('Signer Certificate Common Name: E-Signature Service (local seal)');
    expect(report.split('Signature #2')[1]).toContain('Total document signed');
    const check = qpdfCheck(bytes);
    expect(check.status, check.output).toBe(0);
    expect(check.output).not.toMatch(/WARNING/);
    // MuPDF: the seal's signature is valid (it calls the DSS and timestamp revisions "edits since signing")
    expect(mutoolVerify(bytes)).toMatch(/The signature is valid/);
    expect(mutoolShow(bytes, 'trailer/Root/DSS')).toMatch(/\/Certs\s*\[/);
  });
});

describe('sealPdf at each PAdES level, against the local CA', () => {
  it('B-T carries a signature timestamp and nothing after the signature; B-B neither', async () => {
    const input = await makePdf({ pages: 1 });
    const bt = await sealPdf(input, sealInput('B-T'));
    const [signature, ...rest] = allSignatures(bt.bytes);
    expect(rest).toEqual([]);
    expect(signatureTimestamp(signature!.cms)).toBeDefined();
    expect(pdfsig(bt.bytes)).toContain('Total document signed');
    const bb = await sealPdf(input, sealInput('B-B'));
    expect(signatureTimestamp(allSignatures(bb.bytes)[0]!.cms)).toBeUndefined();
    const report = pdfsig(bb.bytes);
    expect(report).toContain('Signature is Valid.');
    expect(report).toContain('Total document signed');
  });

  it('B-LT adds the DSS and stops there', async () => {
    const { bytes } = await sealPdf(await makePdf({ pages: 1 }), sealInput('B-LT'));
    expect(allSignatures(bytes).map((s) => s.subFilter)).toEqual(['ETSI.CAdES.detached']);
    expect((await dss(bytes)).crls.length).toBeGreaterThanOrEqual(1);
    expect(qpdfCheck(bytes).status).toBe(0);
  });
});
