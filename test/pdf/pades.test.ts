import { X509Certificate } from 'node:crypto';
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFNumber, PDFRef, PDFString } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { KeyFileSigner } from '../../shared/adapters/local/key-file-signer.ts';
import { appendIncrementalUpdate, openForUpdate } from '../../shared/sealing/incremental.ts';
import { loadPdf } from '../../shared/pdf/load.ts';
import { SignatureTooLargeError, signPdf } from '../../shared/sealing/pades.ts';
import { lastXrefOffset, makePdf } from '../support/pdfs.ts';
import { flipByte, lastSignature, opensslCmsVerify, pdfsig, qpdfCheck, startsWith, tempDir } from './signature-tools.ts';

const SIGNING_TIME = new Date('2026-03-01T12:00:00Z');
let signer: KeyFileSigner;
let certificatePem: string;

beforeAll(async () => {
  signer = await KeyFileSigner.open(tempDir());
  const [der] = await signer.certificateChain();
  certificatePem = new X509Certificate(der!).toString();
});

const seal = (pdf: Uint8Array, contentsBytes?: number) =>
  signPdf(pdf, signer, { signingTime: SIGNING_TIME, reason: 'Sealed by Łukasz for 王', location: 'Berlin', contentsBytes });

/** Every external check a sealed file must pass; returns pdfsig's report for further assertions. */
function expectValidSeal(input: Uint8Array, sealed: Uint8Array): string {
  expect(startsWith(sealed, input)).toBe(true);
  const report = pdfsig(sealed);
  expect(report).toContain('Signature is Valid.');
  expect(report).toContain('Total document signed');
  const check = qpdfCheck(sealed);
  expect(check.output).toContain('No syntax or stream encoding errors found');
  expect(check.output).not.toContain('WARNING');
  expect(check.status).toBe(0);
  const { cms, content, byteRange } = lastSignature(sealed);
  expect(byteRange[0]).toBe(0);
  expect(byteRange[2] + byteRange[3]).toBe(sealed.length);
  expect(opensslCmsVerify(cms, content).ok).toBe(true);
  expect(opensslCmsVerify(cms, content, certificatePem)).toMatchObject({ ok: true });
  return report;
}

/** A classic-xref PDF with one incremental update appended by hand (an /Info dictionary), not by our writer. */
function withHandwrittenUpdate(pdf: Uint8Array): Uint8Array {
  const text = Buffer.from(pdf).toString('latin1');
  const size = Number(/\/Size (\d+)/.exec(text)?.[1]);
  const root = /\/Root (\d+ \d+ R)/.exec(text)?.[1] ?? '';
  const object = `${size} 0 obj\n<< /Title (Draft v2) /Producer (hand) >>\nendobj\n`;
  const xrefAt = pdf.length + object.length;
  const update =
    `${object}xref\n${size} 1\n${String(pdf.length).padStart(10, '0')} 00000 n \n` +
    `trailer\n<< /Size ${size + 1} /Root ${root} /Info ${size} 0 R /Prev ${lastXrefOffset(pdf)} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return new Uint8Array(Buffer.concat([pdf, Buffer.from(update, 'latin1')]));
}

describe('signPdf: the sealed file passes pdfsig, qpdf --check and openssl cms -verify', () => {
  const inputs = [1, 10, 100].flatMap((pages) => [
    { pages, objectStreams: false, xref: 'classic xref table' },
    { pages, objectStreams: true, xref: 'XRef stream + object streams' },
  ]);

  it.each(inputs)('$pages page(s), $xref', async ({ pages, objectStreams }) => {
    const input = await makePdf({ pages, objectStreams });
    expectValidSeal(input, await seal(input));
  });

  it('an input that already ends with a hand-written incremental update', async () => {
    const input = withHandwrittenUpdate(await makePdf({ pages: 3, objectStreams: false }));
    expect(qpdfCheck(input).status).toBe(0);
    expectValidSeal(input, await seal(input));
  });

  it('an XRef-stream input that already has an update (new page content) from our writer', async () => {
    const original = await makePdf({ pages: 2 });
    const { doc, tracker } = await openForUpdate(original);
    doc.getPages()[1]!.drawText('added later', { x: 50, y: 50 });
    const input = appendIncrementalUpdate(original, doc, tracker);
    expectValidSeal(input, await seal(input));
  });

  it('signing a signed file keeps the first signature valid and the second covers everything', async () => {
    const once = await seal(await makePdf({ pages: 2 }));
    const twice = await seal(once);
    const report = expectValidSeal(once, twice);
    const [first, second] = report.split(/Signature #2:/);
    expect(first).toContain('Signature is Valid.');
    expect(first).not.toContain('Total document signed'); // it covers only its own revision now
    expect(second).toContain('Signature Field Name: Signature2');
    expect(second).toContain('Total document signed');
  });
});

describe('signPdf: tampering', () => {
  it('one changed byte in either signed range makes pdfsig reject the signature', async () => {
    const sealed = await seal(await makePdf({ pages: 2, objectStreams: false }));
    const { byteRange } = lastSignature(sealed);
    const headerComment = 10; // inside `%\x81\x81\x81\x81` on line 2: the file still parses
    const signingTimeDigit = Buffer.from(sealed).indexOf('/M (D:2026', byteRange[2], 'latin1') + 8;
    for (const at of [headerComment, signingTimeDigit]) {
      const report = pdfsig(flipByte(sealed, at));
      expect(report).toContain('Signature Validation');
      expect(report).not.toContain('Signature is Valid.');
      expect(report).toMatch(/Digest Mismatch|Signature is Invalid/);
    }
  });
});

describe('signPdf: the signature dictionary and field', () => {
  it('writes /Sig with the PAdES filter, /M, a fixed-size /Contents and an invisible widget on page 1', async () => {
    const sealed = await seal(await makePdf({ pages: 3, objectStreams: false }));
    const doc = await loadPdf(sealed);
    const acroForm = doc.catalog.lookup(PDFName.of('AcroForm'), PDFDict);
    expect(acroForm.get(PDFName.of('SigFlags'))).toEqual(PDFNumber.of(3));
    const fields = acroForm.lookup(PDFName.of('Fields'), PDFArray);
    expect(fields.size()).toBe(1);
    const widgetRef = fields.get(0);
    expect(widgetRef).toBeInstanceOf(PDFRef);
    const widget = doc.context.lookup(widgetRef, PDFDict);
    expect(widget.get(PDFName.of('Subtype'))).toBe(PDFName.of('Widget'));
    expect(widget.get(PDFName.of('FT'))).toBe(PDFName.of('Sig'));
    expect(widget.lookup(PDFName.of('Rect'), PDFArray).asRectangle()).toEqual({ x: 0, y: 0, width: 0, height: 0 });
    expect(doc.getPages()[0]!.node.Annots()?.asArray()).toContain(widgetRef);
    expect(widget.get(PDFName.of('P'))).toBe(doc.getPages()[0]!.ref);
    const sig = widget.lookup(PDFName.of('V'), PDFDict);
    expect(sig.get(PDFName.of('Type'))).toBe(PDFName.of('Sig'));
    expect(sig.get(PDFName.of('Filter'))).toBe(PDFName.of('Adobe.PPKLite'));
    expect(sig.get(PDFName.of('SubFilter'))).toBe(PDFName.of('ETSI.CAdES.detached'));
    expect(sig.lookup(PDFName.of('M'), PDFString).decodeDate()).toEqual(SIGNING_TIME);
    expect(sig.lookup(PDFName.of('Reason'), PDFHexString).decodeText()).toBe('Sealed by Łukasz for 王');
    expect(sig.lookup(PDFName.of('Contents'), PDFHexString).asString()).toHaveLength(2 * 16_384);
  });

  it('throws a clear error when the CMS does not fit contentsBytes', async () => {
    const input = await makePdf();
    const attempt = seal(input, 64);
    await expect(attempt).rejects.toBeInstanceOf(SignatureTooLargeError);
    await expect(attempt).rejects.toThrow(/does not fit the 64 bytes reserved for it: raise contentsBytes/);
  });

  it('refuses a contentsBytes that is not a positive integer', async () => {
    await expect(seal(await makePdf(), 0)).rejects.toThrow(/positive integer/);
  });
});
