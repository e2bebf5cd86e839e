/**
 * The verifier on a signature another tool made: @signpdf (adbe.pkcs7.detached, a key certified by an openssl CA),
 * with and without its root trusted and revocation data, sealed by us afterwards, changed after signing by an update
 * that is neither validation data nor a timestamp, and with a byte flipped; cross-checked with pdfsig and openssl.
 */
import { PDFArray, PDFName, PDFString } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendIncrementalUpdate, openForUpdate } from '#shared/sealing/incremental.ts';
import { sealPdf } from '#shared/sealing/seal.ts';
import { hex, sha256 } from '#shared/verify/verify-chain.ts';
import { verifyPdf } from '#shared/verify/verify-document.ts';
import { foreignCa, type ForeignCa } from '#test/support/foreign-ca.ts';
import { startTestPki, type TestPki } from '#test/support/local-pki.ts';
import { allSignatures, flipByte, opensslCmsVerify, pdfsig } from './signature-tools.ts';

let ca: ForeignCa;
let signed: Uint8Array;
let root: string;
beforeAll(async () => {
  ca = foreignCa();
  root = hex(await sha256(ca.chain[1]!));
  signed = await ca.signedWithSignpdf();
}, 60_000);

/** What `--trust root.pem` gives: the root's fingerprint, and its certificate (@signpdf leaves the root out of the CMS). */
const trusting = () => ({ anchors: { service: [], configured: [root] }, anchorCertificates: [ca.chain[1]!] });
const reasons = (report: Awaited<ReturnType<typeof verifyPdf>>) => JSON.stringify(report.signatures.map((s) => s.reasons));

describe('a PDF signed with @signpdf', () => {
  it('nothing trusted: INDETERMINATE NO_CERTIFICATE_CHAIN_FOUND (its root is not even in the file), intact over the whole file; pdfsig and openssl agree the signature is valid', async () => {
    const report = await verifyPdf(signed);
    expect(report).toMatchObject({ indication: 'INDETERMINATE', subIndication: 'NO_CERTIFICATE_CHAIN_FOUND' });
    expect(report.signatures).toHaveLength(1);
    expect(report.signatures[0]).toMatchObject({
      kind: 'signature', subFilter: 'adbe.pkcs7.detached', padesLevel: null, intact: true, coversWholeFile: true, modifiedAfter: [],
      trust: 'untrusted', signerCommonName: 'Foreign Seal', issuer: 'O=Elsewhere, CN=Foreign Test Root', keyAlgorithm: 'RSA', keySize: 2048, digestAlgorithm: 'SHA-256',
    });
    expect(report.signatures[0]?.reasons[0]).toMatch(/an issuer is missing from the file/);
    expect(pdfsig(signed)).toContain('Signature is Valid.');
    const [signature] = allSignatures(signed);
    expect(opensslCmsVerify(signature!.cms, signature!.content, ca.rootPem).ok).toBe(true);
  });

  it('its root trusted (--trust), no revocation data: INDETERMINATE TRY_LATER, trust "configured"', async () => {
    const report = await verifyPdf(signed, trusting());
    expect(report, reasons(report)).toMatchObject({ indication: 'INDETERMINATE', subIndication: 'TRY_LATER' });
    expect(report.signatures[0]).toMatchObject({ trust: 'configured', rootSha256: root, revocationEmbedded: [] });
    expect(report.signatures[0]?.reasons[0]).toMatch(/No revocation data is embedded for O=Elsewhere, CN=Foreign Seal/);
  });

  it('its root trusted and its CA\'s CRL added in a DSS: TOTAL_PASSED, the DSS an acceptable change', async () => {
    const report = await verifyPdf(await ca.withCrl(signed), trusting());
    expect(report.indication, reasons(report)).toBe('TOTAL_PASSED');
    const [signature] = report.signatures;
    expect(signature).toMatchObject({ coversWholeFile: false, intact: true });
    expect(signature?.revocationEmbedded).toContainEqual(expect.objectContaining({ certificate: 'O=Elsewhere, CN=Foreign Seal', source: 'crl', status: 'good' }));
    expect(signature?.modifiedAfter.map((m) => [m.kind, m.acceptable])).toEqual(expect.arrayContaining([['dss', true]]));
    expect(signature?.modifiedAfter.every((m) => m.acceptable)).toBe(true);
  });

  it('an annotation added afterwards by an incremental update: TOTAL_FAILED SIG_CONSTRAINTS_FAILURE, modifiedAfter lists it', async () => {
    const { doc, tracker } = await openForUpdate(signed);
    const note = doc.context.register(doc.context.obj({ Type: 'Annot', Subtype: 'Text', Rect: [50, 50, 70, 70], Contents: PDFString.of('Paid in full') }));
    const page = doc.getPage(0).node;
    const annots = page.lookupMaybe(PDFName.of('Annots'), PDFArray) ?? doc.context.obj([]);
    annots.push(note);
    page.set(PDFName.of('Annots'), annots);
    const changed = appendIncrementalUpdate(signed, doc, tracker);
    const report = await verifyPdf(changed, trusting());
    expect(report).toMatchObject({ indication: 'TOTAL_FAILED', subIndication: 'SIG_CONSTRAINTS_FAILURE' });
    const [signature] = report.signatures;
    expect(signature?.intact).toBe(true);
    expect(signature?.modifiedAfter).toContainEqual(expect.objectContaining({ kind: 'annotation', description: 'annotation added', object: note.toString(), acceptable: false }));
    expect(signature?.reasons[0]).toMatch(/changed after this signature, and not only by validation data or timestamps: .*annotation added/);
    const text = pdfsig(changed); // pdfsig does not judge the change: valid, only not over the whole file
    expect(text).toContain('Signature is Valid.');
    expect(text).toContain('Not total document signed');
  });

  it('a byte flipped inside the signed range: TOTAL_FAILED HASH_FAILURE, as pdfsig says', async () => {
    const [signature] = allSignatures(signed);
    const tampered = flipByte(signed, Math.floor(signature!.byteRange[1] / 2));
    const report = await verifyPdf(tampered, trusting());
    expect(report).toMatchObject({ indication: 'TOTAL_FAILED', subIndication: 'HASH_FAILURE' });
    expect(report.signatures[0]?.intact).toBe(false);
    expect(pdfsig(tampered)).toMatch(/Digest Mismatch/);
  });

  describe('sealed by us at B-LTA afterwards', () => {
    let pki: TestPki;
    beforeAll(async () => { pki = await startTestPki(); });
    afterAll(async () => { await pki.pki.stop(); });

    it('both pass: the seal vouches for its own changes, the DSS holds the @signpdf signer\'s CRL too', async () => {
      const sealed = (await sealPdf(await ca.withCrl(signed), pki.input('B-LTA'))).bytes;
      const report = await verifyPdf(sealed, { anchors: { service: [hex(await sha256(pki.pki.rootDer))], configured: [root] } });
      expect(report.indication, reasons(report)).toBe('TOTAL_PASSED');
      expect(report.signatures.map((s) => [s.kind, s.padesLevel])).toEqual([['signature', null], ['seal', 'B-LTA'], ['document-timestamp', null]]);
      expect(report.signatures[0]?.modifiedAfter.every((m) => m.acceptable)).toBe(true);
      expect(pdfsig(sealed).match(/Signature is Valid\./g)).toHaveLength(2);
    });
  });
});
