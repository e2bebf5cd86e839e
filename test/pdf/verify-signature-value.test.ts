/**
 * The verifier checks a CAdES signature over its signed attributes itself (the message digest already compared,
 * so the PDF is hashed once per range): a changed signature value must still fail, a sound one pass, and a
 * revision's unchanged streams must compare equal whether or not they share the file's bytes.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pkijs from 'pkijs';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { KeyFileSigner } from '#shared/adapters/local/key-file-signer.ts';
import { signPdf } from '#shared/sealing/pades.ts';
import { hex, sha256 } from '#shared/verify/verify-chain.ts';
import { knowingFileDigest, verifyPdf, webCryptoRanges, type VerifyOptions } from '#shared/verify/verify-document.ts';
import { sha256RangesOnce } from '#shared/verify/node-digests.ts';
import { sha256RangesInOnePass } from '#shared/verify/wasm-digests.ts';
import { changesBetween, loadRevision, parsePdf, sameBytes } from '#shared/verify/verify-pdf.ts';
import { makePdf } from '#test/support/pdfs.ts';

let signed: Uint8Array;
let options: VerifyOptions;
beforeAll(async () => {
  const signer = await KeyFileSigner.open(join(mkdtempSync(join(tmpdir(), 'verify-value-')), 'key'));
  signed = await signPdf(await makePdf({ pages: 2 }), signer, { signingTime: new Date(), name: 'Test' });
  const chain = await signer.certificateChain();
  options = { anchors: { service: [], configured: await Promise.all(chain.map(async (der) => hex(await sha256(der)))) }, anchorCertificates: chain, now: new Date() };
});

/** `pdf` with one hex digit of the signature value (inside /Contents) changed. */
async function withSignatureValueChanged(pdf: Uint8Array): Promise<Uint8Array> {
  const [signature] = parsePdf(pdf, await loadRevision(pdf)).signatures;
  if (!signature) throw new Error('no signature');
  const info = pkijs.ContentInfo.fromBER(signature.contents.slice().buffer);
  const value = Buffer.from(new pkijs.SignedData({ schema: info.content }).signerInfos[0]?.signature.valueBlock.valueHexView ?? []).toString('hex');
  const text = Buffer.from(pdf).toString('latin1');
  const at = text.indexOf(value) + value.length - 4; // in the signature's last bytes
  expect(at).toBeGreaterThan(0);
  const changed = Buffer.from(pdf);
  changed[at] = changed[at] === 0x30 ? 0x31 : 0x30;
  return new Uint8Array(changed);
}

describe('the signature value', () => {
  it('a sound signature passes, intact', async () => {
    const report = await verifyPdf(signed, options);
    expect(report.signatures[0]).toMatchObject({ indication: 'TOTAL_PASSED', intact: true });
  });

  it('a changed signature value: TOTAL_FAILED SIG_CRYPTO_FAILURE, though the signed bytes are intact', async () => {
    const report = await verifyPdf(await withSignatureValueChanged(signed), options);
    expect(report.signatures[0]).toMatchObject({ indication: 'TOTAL_FAILED', subIndication: 'SIG_CRYPTO_FAILURE', intact: true });
  });
});

describe('revisions', () => {
  it('load as pdf-lib loads them, with stream data shared with the file', async () => {
    const mine = await loadRevision(signed);
    const theirs = await PDFDocument.load(signed, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false });
    const objects = (doc: PDFDocument) => doc.context.enumerateIndirectObjects().map(([ref, object]) => `${ref.toString()} ${object.toString()}`);
    expect(objects(mine)).toEqual(objects(theirs));
    expect(changesBetween(mine, theirs, () => false)).toEqual([]);
  });

  it('compare stream bytes by content when they are not the same bytes of one file', () => {
    const file = new Uint8Array([1, 2, 3, 4, 1, 2, 3, 5]);
    expect(sameBytes(file.subarray(0, 3), file.subarray(0, 3))).toBe(true);
    expect(sameBytes(file.subarray(0, 3), file.subarray(4, 7))).toBe(true);
    expect(sameBytes(file.subarray(0, 4), file.subarray(4, 8))).toBe(false);
    expect(sameBytes(file.subarray(0, 4), file.subarray(4, 7))).toBe(false);
  });
});

describe("Node's and hash-wasm's range hashing", () => {
  it('gives each range the SHA-256 its pieces have, shared prefix or not', async () => {
    const bytes = new Uint8Array(Array.from({ length: 5000 }, (_, i) => (i * 7) % 251));
    const ranges: [number, number][][] = [[[0, 5000]], [[0, 1200], [1300, 2000]], [[0, 3000], [3100, 5000]], [[10, 20]], [[0, 0], [4000, 4100]], [[0, 1200], [1250, 1300]]];
    const expected = ranges.map((pieces) => new Uint8Array(createHash('sha256').update(Buffer.concat(pieces.map(([s, e]) => bytes.subarray(s, e)))).digest()));
    expect(await sha256RangesOnce(bytes, ranges)).toEqual(expected);
    expect(await sha256RangesInOnePass(bytes, ranges)).toEqual(expected);
    expect(await sha256RangesInOnePass(bytes, [])).toEqual([]);
  });

  it('reports what WebCrypto reports, for a sound file and for a changed byte', async () => {
    const changed = Uint8Array.from(signed);
    changed[100] = (changed[100] ?? 0) ^ 1;
    for (const file of [signed, changed]) {
      const [web, node, wasm] = await Promise.all([
        verifyPdf(file, { ...options, sha256Ranges: webCryptoRanges }), verifyPdf(file, { ...options, sha256Ranges: sha256RangesOnce }), verifyPdf(file, options),
      ]);
      expect({ ...node, verifiedAt: '' }).toEqual({ ...web, verifiedAt: '' });
      expect({ ...wasm, verifiedAt: '' }).toEqual({ ...web, verifiedAt: '' });
    }
    expect((await verifyPdf(changed, { ...options, sha256Ranges: sha256RangesOnce })).signatures[0]?.subIndication).toBe('HASH_FAILURE');
  });
});

describe('a file digest the caller already has (the /verify page)', () => {
  it('is taken for the whole file, and every range is still hashed', async () => {
    const digest = new Uint8Array(createHash('sha256').update(signed).digest());
    const known = await verifyPdf(signed, { ...options, sha256Ranges: knowingFileDigest(digest) });
    expect({ ...known, verifiedAt: '' }).toEqual({ ...(await verifyPdf(signed, options)), verifiedAt: '' });
    const told = await verifyPdf(signed, { ...options, sha256Ranges: knowingFileDigest(new Uint8Array(32)) });
    expect(told.sha256).toBe('0'.repeat(64));
    expect(told.signatures[0]).toMatchObject({ indication: 'TOTAL_PASSED', intact: true });
  });
});
