/**
 * The verifier (shared/verify) against a corpus: our seals at each PAdES level, a seal under a foreign openssl CA with
 * and without its root, a flipped byte, an appended update that changes a page, a removed DSS, a non-PDF and an
 * unsigned PDF; each verdict cross-checked with pdfsig and, for the CMS, openssl.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PDFName, rgb, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendIncrementalUpdate, openForUpdate } from '#shared/sealing/incremental.ts';
import { sealPdf, type PadesLevel } from '#shared/sealing/seal.ts';
import { verifyPdf } from '#shared/verify/verify-document.ts';
import { pemCertificates } from '#shared/verify/verify-report.ts';
import { hex, sha256 } from '#shared/verify/verify-chain.ts';
import { startTestPki, type TestPki } from '#test/support/local-pki.ts';
import { foreignSealedPdf } from '#test/support/foreign-ca.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { allSignatures, flipByte, opensslCmsVerify, pdfsig, tempDir, tempFile } from './signature-tools.ts';

let pki: TestPki;
let serviceRoot: string;
const sealed = new Map<PadesLevel, Uint8Array>();
beforeAll(async () => {
  pki = await startTestPki();
  serviceRoot = hex(await sha256(pki.pki.rootDer));
  const original = await makePdf({ pages: 1 });
  for (const level of ['B-B', 'B-T', 'B-LT', 'B-LTA'] as const) sealed.set(level, (await sealPdf(original, pki.input(level))).bytes);
}, 120_000);
afterAll(async () => { await pki.pki.stop(); });

/** pdfsig with an NSS database trusting `rootPem` (what docs/verification.md tells a third party to run; needs certutil). */
function pdfsigTrusting(bytes: Uint8Array, rootPem: string): string {
  const dir = tempDir();
  const db = `sql:${join(dir, 'nssdb')}`;
  mkdirSync(join(dir, 'nssdb'));
  execFileSync('certutil', ['-N', '-d', db, '--empty-password']);
  execFileSync('certutil', ['-A', '-d', db, '-n', 'root', '-t', 'C,C,C', '-i', tempFile(rootPem, 'root.pem', dir)]);
  const run = spawnSync('pdfsig', ['-nssdir', db, tempFile(bytes, 'file.pdf', dir)], { encoding: 'utf8' });
  return `${run.stdout}${run.stderr}`;
}

const trustService = () => ({ anchors: { service: [serviceRoot], configured: [] } });
const file = (level: PadesLevel): Uint8Array => sealed.get(level)!;

describe('our seals at each PAdES level', () => {
  // B-B and B-T carry no revocation data, and the verifier fetches none: INDETERMINATE TRY_LATER (docs/verification.md).
  it.each([['B-B', 'TRY_LATER'], ['B-T', 'TRY_LATER'], ['B-LT', null], ['B-LTA', null]] as const)('%s: the level detected, sub-indication %s; pdfsig and openssl agree the seal is valid', async (level, subIndication) => {
    const bytes = file(level);
    const report = await verifyPdf(bytes, trustService());
    expect(report, JSON.stringify(report.signatures.map((s) => s.reasons))).toMatchObject({ indication: subIndication ? 'INDETERMINATE' : 'TOTAL_PASSED', subIndication });
    const [seal, ...rest] = report.signatures;
    expect(seal).toMatchObject({ kind: 'seal', padesLevel: level, intact: true, trust: 'service', rootSha256: serviceRoot, signerCommonName: 'E-Signature Service (local seal)' });
    if (subIndication) expect(seal?.reasons[0]).toMatch(/No revocation data is embedded for .*E-Signature Service \(local seal\)/);
    expect(seal?.modifiedAfter.every((m) => m.acceptable)).toBe(true);
    expect(rest.map((s) => s.kind)).toEqual(level === 'B-LTA' ? ['document-timestamp'] : []);
    if (level !== 'B-B') expect(seal?.timestampTime).not.toBeNull();
    if (level === 'B-LT' || level === 'B-LTA') expect(seal?.revocationEmbedded.some((f) => f.source === 'crl' && f.status === 'good')).toBe(true);
    expect(report.sha256).toBe(execFileSync('sha256sum', [], { input: bytes }).toString().slice(0, 64));
    expect(pdfsigTrusting(bytes, pki.pki.rootPem).split('Signature #2')[0]).toMatch(/Signature is Valid\.[\s\S]*Certificate is Trusted/);
    const [first] = allSignatures(bytes);
    expect(opensslCmsVerify(first!.cms, first!.content, pki.pki.rootPem).ok).toBe(true);
  });

  it('the same seal with nothing trusted is INDETERMINATE: NO_CERTIFICATE_CHAIN_FOUND', async () => {
    const report = await verifyPdf(file('B-LTA'));
    expect(report).toMatchObject({ indication: 'INDETERMINATE', subIndication: 'NO_CERTIFICATE_CHAIN_FOUND' });
    expect(report.signatures[0]).toMatchObject({ kind: 'signature', trust: 'untrusted', intact: true });
  });
});

describe('a seal under a foreign openssl CA', () => {
  let bytes: Uint8Array;
  let rootPem: string;
  beforeAll(async () => {
    ({ bytes, rootPem } = await foreignSealedPdf({ revocation: true }));
  });

  it('with its root configured and its CRL in a DSS: TOTAL_PASSED, trust "configured"; openssl verifies the CMS against that root', async () => {
    const anchors = { service: [serviceRoot], configured: await Promise.all(pemCertificates(rootPem).map(async (der) => hex(await sha256(der)))) };
    const report = await verifyPdf(bytes, { anchors });
    expect(report.indication).toBe('TOTAL_PASSED');
    expect(report.signatures[0]).toMatchObject({ kind: 'signature', trust: 'configured', padesLevel: 'B-B', signerCommonName: 'Foreign Seal', keyAlgorithm: 'RSA', keySize: 2048 });
    const [signature] = allSignatures(bytes);
    expect(opensslCmsVerify(signature!.cms, signature!.content, rootPem).ok).toBe(true);
    expect(pdfsigTrusting(bytes, rootPem)).toContain('Certificate is Trusted');
  });

  it('sealed by us afterwards: the earlier signature holds, its later changes covered by the seal', async () => {
    const resealed = (await sealPdf(bytes, pki.input('B-LT'))).bytes;
    const configured = await Promise.all(pemCertificates(rootPem).map(async (der) => hex(await sha256(der))));
    const report = await verifyPdf(resealed, { anchors: { service: [serviceRoot], configured } });
    expect(report.indication, JSON.stringify(report.signatures.map((s) => s.reasons))).toBe('TOTAL_PASSED');
    const [earlier, seal] = report.signatures;
    expect(earlier).toMatchObject({ kind: 'signature', trust: 'configured', intact: true, coversWholeFile: false });
    expect(earlier?.modifiedAfter.map((m) => m.kind)).toEqual(expect.arrayContaining(['page', 'signature', 'dss']));
    expect(earlier?.modifiedAfter.every((m) => m.acceptable)).toBe(true);
    expect(seal).toMatchObject({ kind: 'seal', padesLevel: 'B-LT' });
    expect(pdfsig(resealed).match(/Signature is Valid\./g)).toHaveLength(2);
  });

  it('without it: INDETERMINATE NO_CERTIFICATE_CHAIN_FOUND, the signature itself intact (pdfsig: valid, issuer not trusted)', async () => {
    const report = await verifyPdf(bytes, trustService());
    expect(report).toMatchObject({ indication: 'INDETERMINATE', subIndication: 'NO_CERTIFICATE_CHAIN_FOUND' });
    expect(report.signatures[0]?.intact).toBe(true);
    const text = pdfsig(bytes);
    expect(text).toContain('Signature is Valid.');
    expect(text).not.toContain('Certificate is Trusted');
    expect(pdfsigTrusting(bytes, pki.pki.rootPem)).toContain("Certificate issuer isn't Trusted"); // our root is not theirs
  });
});

describe('tampered files', () => {
  it('a byte flipped inside the signed range: TOTAL_FAILED HASH_FAILURE, as pdfsig and openssl say', async () => {
    const bytes = file('B-T');
    const [signature] = allSignatures(bytes);
    const tampered = flipByte(bytes, Math.floor(signature!.byteRange[1] / 2));
    const report = await verifyPdf(tampered, trustService());
    expect(report).toMatchObject({ indication: 'TOTAL_FAILED', subIndication: 'HASH_FAILURE' });
    expect(report.signatures[0]?.intact).toBe(false);
    expect(pdfsig(tampered)).toMatch(/Digest Mismatch/);
    const [after] = allSignatures(tampered);
    expect(opensslCmsVerify(after!.cms, after!.content).ok).toBe(false);
  });

  it('an appended update that changes page content: TOTAL_FAILED SIG_CONSTRAINTS_FAILURE, the changes listed', async () => {
    const { doc, tracker } = await openForUpdate(file('B-LTA'));
    const font = await doc.embedFont(StandardFonts.Helvetica);
    doc.getPage(0).drawText('Amount: 1,000,000', { x: 50, y: 50, size: 12, font, color: rgb(0, 0, 0) });
    const changed = appendIncrementalUpdate(file('B-LTA'), doc, tracker);
    const report = await verifyPdf(changed, trustService());
    expect(report).toMatchObject({ indication: 'TOTAL_FAILED', subIndication: 'SIG_CONSTRAINTS_FAILURE' });
    const seal = report.signatures[0];
    expect(seal?.intact).toBe(true);
    expect(seal?.modifiedAfter.filter((m) => !m.acceptable).map((m) => m.kind)).toEqual(expect.arrayContaining(['page', 'content']));
    expect(seal?.modifiedAfter.filter((m) => m.acceptable).map((m) => m.kind)).toEqual(expect.arrayContaining(['dss', 'document-timestamp']));
    // pdfsig: each signature is still valid over its own range, but neither covers the whole document any more
    const text = pdfsig(changed);
    expect(text).toContain('Signature is Valid.');
    expect(text).not.toContain('Total document signed');
  });

  it('the DSS removed by a later update: still intact, the level falls back to B-T, INDETERMINATE TRY_LATER', async () => {
    const { doc, tracker } = await openForUpdate(file('B-LT'));
    doc.catalog.delete(PDFName.of('DSS'));
    const stripped = appendIncrementalUpdate(file('B-LT'), doc, tracker);
    const report = await verifyPdf(stripped, trustService());
    expect(report, JSON.stringify(report.signatures[0]?.modifiedAfter)).toMatchObject({ indication: 'INDETERMINATE', subIndication: 'TRY_LATER' });
    expect(report.signatures[0]).toMatchObject({ padesLevel: 'B-T', revocationEmbedded: [], intact: true });
    expect(report.signatures[0]?.modifiedAfter.every((m) => m.acceptable)).toBe(true);
    expect(pdfsig(stripped)).toContain('Signature is Valid.');
  });
});

describe('files without a seal', () => {
  it('a non-PDF: TOTAL_FAILED FORMAT_FAILURE (pdfsig cannot open it either)', async () => {
    const bytes = new TextEncoder().encode('this is a text file, not a PDF\n'.repeat(20));
    const report = await verifyPdf(bytes);
    expect(report).toMatchObject({ indication: 'TOTAL_FAILED', subIndication: 'FORMAT_FAILURE', signatures: [] });
    expect(report.error).toMatch(/not a PDF/);
    expect(pdfsig(bytes)).toMatch(/Couldn't open|Error|error/);
  });

  it('an unsigned PDF: INDETERMINATE SIGNED_DATA_NOT_FOUND (pdfsig: no signatures)', async () => {
    const bytes = await makePdf({ pages: 1 });
    const report = await verifyPdf(bytes);
    expect(report).toMatchObject({ indication: 'INDETERMINATE', subIndication: 'SIGNED_DATA_NOT_FOUND', signatures: [] });
    expect(pdfsig(bytes)).toMatch(/does not contain any signatures/);
  });
});
