/**
 * The DSS of a sealed PDF as a strict validator reads it, against the local CA: revocation data issued after the
 * signature timestamp (even when the container's CRL cache holds an older one), no entry stored twice by a re-seal,
 * and the validation data of an earlier signer's certificate too, so the whole document is LTV.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { P12Signer } from '@signpdf/signer-p12';
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import * as pkijs from 'pkijs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpRevocationSource } from '#shared/adapters/http/revocation-source.ts';
import { CERTIFICATE_FILE, KEY_FILE, KeyFileSigner } from '#shared/adapters/local/key-file-signer.ts';
import type { RunningPki } from '#local/engines/local-ca.ts';
import type { RevocationSource } from '#shared/ports/services.ts';
import { loadPdf } from '#shared/pdf/load.ts';
import { buildDeps } from '#shared/deps.ts';
import { signPdf } from '#shared/sealing/pades.ts';
import { sealPdf } from '#shared/sealing/seal.ts';
import { tstInfoOf } from '#shared/pki/tsp.ts';
import { testConfig } from '#test/support/config.ts';
import { startTestPki, type TestPki } from '#test/support/local-pki.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { allSignatures, opensslVerifyAt, opensslVerifyWithCrl } from './signature-tools.ts';

let pki: RunningPki;
let started: TestPki;
beforeAll(async () => { started = await startTestPki(); ({ pki } = started); });
afterAll(async () => { await pki.stop(); });

/** The DSS's entries, decoded. */
async function dss(pdf: Uint8Array): Promise<{ certs: Uint8Array[]; crls: Uint8Array[] }> {
  const doc = await loadPdf(pdf);
  const store = doc.catalog.lookupMaybe(PDFName.of('DSS'), PDFDict);
  const streams = (key: string) => (store?.lookupMaybe(PDFName.of(key), PDFArray)?.asArray() ?? [])
    .map((ref) => decodePDFRawStream(doc.context.lookup(ref) as PDFRawStream).decode());
  return { certs: streams('Certs'), crls: streams('CRLs') };
}

/** The genTime of the seal's signature timestamp (an unsigned attribute of its CMS). */
function signatureTime(cms: Uint8Array): Date {
  const signed = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(cms).content });
  const value = signed.signerInfos[0]?.unsignedAttrs?.attributes.find((a) => a.type === '1.2.840.113549.1.9.16.2.14')?.values[0] as { toBER(): ArrayBuffer };
  return tstInfoOf(new Uint8Array(value.toBER())).genTime;
}

const thisUpdate = (crl: Uint8Array): Date => pkijs.CertificateRevocationList.fromBER(crl).thisUpdate.value;
const distinctCount = (items: Uint8Array[]): number => new Set(items.map((item) => Buffer.from(item).toString('base64'))).size;
const isRoot = (cert: Uint8Array): boolean => Buffer.from(cert).equals(Buffer.from(pki.rootDer));

describe('the DSS of a B-LTA seal', () => {
  it('holds only CRLs issued at or after the signature timestamp, though the cache held an older one; openssl -crl_check_all agrees', async () => {
    const revocation = new HttpRevocationSource();
    const [leaf, issuer] = await started.signer.certificateChain();
    await revocation.revocation(leaf!, issuer!); // the container's cache now holds a CRL issued before the seal
    await new Promise((resolve) => setTimeout(resolve, 1100 - (Date.now() % 1000))); // the next second: the CRL's time and the timestamp's differ
    const input = started.input('B-LTA');
    const { bytes } = await sealPdf(await makePdf({ pages: 1 }), { ...input, evidence: { ...input.evidence!, revocation } });
    const [seal, stamp] = allSignatures(bytes);
    const signedAt = signatureTime(seal!.cms);
    const store = await dss(bytes);
    expect(store.crls.length).toBeGreaterThanOrEqual(1);
    for (const crl of store.crls) expect(thisUpdate(crl).getTime()).toBeGreaterThanOrEqual(signedAt.getTime());
    // at the document timestamp's time (the archive's evidence), every chain checks with the embedded CRLs alone
    const archivedAt = tstInfoOf(stamp!.cms).genTime;
    for (const cert of store.certs.filter((c) => !isRoot(c))) expect(opensslVerifyAt(cert, store.crls, pki.rootPem, archivedAt)).toMatchObject({ ok: true });
  });

  it('a sealed PDF sealed again stores each certificate and CRL once', async () => {
    const first = (await sealPdf(await makePdf({ pages: 1 }), started.input('B-LTA'))).bytes;
    const second = (await sealPdf(first, started.input('B-LTA'))).bytes;
    const store = await dss(second);
    expect(store.certs).toHaveLength(3); // seal, timestamp authority, root
    expect(distinctCount(store.certs)).toBe(store.certs.length);
    expect(distinctCount(store.crls)).toBe(store.crls.length);
  });

  it("adds an earlier signer's certificate and a CRL for it; a self-signed earlier signer is skipped without failing", async () => {
    const other = await KeyFileSigner.open(mkdtempSync(join(tmpdir(), 'esign-other-')), { certify: (key, chain) => pki.sealChain(key, chain) });
    const [otherCert] = await other.certificateChain();
    const selfSigned = await KeyFileSigner.open(mkdtempSync(join(tmpdir(), 'esign-self-')));
    const [selfCert] = await selfSigned.certificateChain();
    let pdf = await signPdf(await makePdf({ pages: 1 }), other, { signingTime: new Date('2026-02-01T00:00:00Z') });
    pdf = await signPdf(pdf, selfSigned, { signingTime: new Date('2026-02-02T00:00:00Z') });
    const { bytes } = await sealPdf(pdf, started.input('B-LTA'));
    const store = await dss(bytes);
    const held = store.certs.map((c) => Buffer.from(c));
    expect(held).toContainEqual(Buffer.from(otherCert!));
    expect(held).toContainEqual(Buffer.from(selfCert!));
    expect(store.crls.some((crl) => opensslVerifyWithCrl(otherCert!, crl, pki.rootPem).ok)).toBe(true);
  });
});

describe('a PDF another tool signed (@signpdf, a key the local CA certified)', () => {
  // RSA keys throughout: @signpdf's P12 signer (node-forge) reads no EC key and no certificate an EC key signed.
  let rsa: TestPki;
  beforeAll(async () => { rsa = await startTestPki('RSA_2048'); });
  afterAll(async () => { await rsa.pki.stop(); });

  it("seals with the other tool's certificate and a CRL for it in the DSS", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'esign-peer-'));
    const peer = await KeyFileSigner.open(dir, { certify: (key, chain) => rsa.pki.sealChain(key, chain), keySpec: 'RSA_2048' });
    const [peerCert] = await peer.certificateChain();
    const p12 = join(dir, 'peer.p12');
    execFileSync('openssl', ['pkcs12', '-export', '-inkey', join(dir, KEY_FILE), '-in', join(dir, CERTIFICATE_FILE), '-out', p12, '-passout', 'pass:', '-keypbe', 'PBE-SHA1-3DES', '-certpbe', 'PBE-SHA1-3DES', '-macalg', 'sha1'], { stdio: 'ignore' });
    const doc = await PDFDocument.load(await makePdf({ pages: 1 }));
    pdflibAddPlaceholder({ pdfDoc: doc, reason: 'Approved', contactInfo: 'peer@example.com', name: 'Peer', location: 'Elsewhere' });
    const unsigned = await doc.save({ useObjectStreams: false });
    const signed = new Uint8Array(await new SignPdf().sign(Buffer.from(unsigned), new P12Signer(execFileSync('cat', [p12]))));
    const { bytes } = await sealPdf(signed, rsa.input('B-LTA'));
    const store = await dss(bytes);
    expect(store.certs.map((c) => Buffer.from(c))).toContainEqual(Buffer.from(peerCert!));
    expect(store.crls.some((crl) => opensslVerifyWithCrl(peerCert!, crl, rsa.pki.rootPem).ok)).toBe(true);
  });
});

describe('REVOCATION_GRACE_SECONDS', () => {
  it('asks for revocation data issued that long after the signature timestamp, waiting for it first (never longer than the grace)', async () => {
    const http = new HttpRevocationSource();
    const asked: (Date | undefined)[] = [];
    // records what the seal asks for, and answers with the CRL of now (the test's sleep does not wait)
    const revocation: RevocationSource = { revocation: (certificate, issuer, options) => { asked.push(options?.issuedAfter); return http.revocation(certificate, issuer); } };
    const slept: number[] = [];
    const sleep = (ms: number) => { slept.push(ms); return Promise.resolve(); };
    const input = started.input('B-LTA');
    const { bytes } = await sealPdf(await makePdf({ pages: 1 }), { ...input, evidence: { ...input.evidence!, revocation, revocationGraceSeconds: 30, sleep } });
    const expected = signatureTime(allSignatures(bytes)[0]!.cms).getTime() + 30_000;
    expect(asked.length).toBeGreaterThan(0);
    for (const at of asked) expect(at?.getTime()).toBe(expected);
    expect(slept).toHaveLength(1);
    expect(slept[0]).toBeGreaterThan(0);
    expect(slept[0]).toBeLessThanOrEqual(30_000);
  });

  it('defaults to 0 and is a whole number of seconds up to 120, checked at load', () => {
    expect(testConfig().revocationGraceSeconds).toBe(0);
    expect(testConfig({ REVOCATION_GRACE_SECONDS: '120' }).revocationGraceSeconds).toBe(120);
    expect(() => testConfig({ REVOCATION_GRACE_SECONDS: '121' })).toThrow(/REVOCATION_GRACE_SECONDS must be at most 120/);
    expect(() => testConfig({ REVOCATION_GRACE_SECONDS: '-1' })).toThrow(/REVOCATION_GRACE_SECONDS must be a whole number/);
    expect(buildDeps(testConfig({ TSA_URL: 'https://tsa.example/', REVOCATION_GRACE_SECONDS: '7' })).sealEvidence).toMatchObject({ level: 'B-LTA', revocationGraceSeconds: 7 });
  });
});
