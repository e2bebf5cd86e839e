import { createHash } from 'node:crypto';
import { PDFDocument, PDFName, PDFNumber, PDFRef } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { inspectPdf, type PdfInspection } from '../../shared/pdf/inspect.ts';
import { PNG_1X1, assemblePdf, cutAt, encryptedFixture, lastXrefOffset, makePdf, truncatedAtObjectBoundary, truncatedBeforeObject, withTrailing } from '../support/pdfs.ts';

import { accepted, bytesOf, prng, randomBytes, rejection, text, treeWithPages } from './inspect-helpers.ts';

const A4 = { x: 0, y: 0, width: 595, height: 842 };

describe('inspectPdf: valid PDFs', () => {
  it('records page count, geometry, size and the SHA-256 of the exact bytes', async () => {
    const pdf = await makePdf();
    const info = await accepted(pdf);
    expect(info).toEqual({
      pageCount: 1,
      pages: [{ box: A4, rotate: 0 }],
      sha256: createHash('sha256').update(pdf).digest('hex'),
      sizeBytes: pdf.length,
    });
    expect(info.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('hashes only the bytes of a view, not the rest of its underlying buffer', async () => {
    const pdf = await makePdf();
    const padded = new Uint8Array(pdf.length + 200);
    padded.set(pdf, 100);
    const view = padded.subarray(100, 100 + pdf.length);
    expect((await accepted(view)).sha256).toBe(createHash('sha256').update(pdf).digest('hex'));
  });

  it.each([
    ['XRef stream + object streams', true],
    ['classic xref table', false],
  ])('reads each page size in order (%s)', async (_, objectStreams) => {
    const sizes: [number, number][] = [[200, 300], [612, 792], [842, 595]];
    const info = await accepted(await makePdf({ sizes, objectStreams }));
    expect(info.pageCount).toBe(3);
    expect(info.pages.map((p) => p.box)).toEqual(sizes.map(([width, height]) => ({ x: 0, y: 0, width, height })));
  });

  it.each([
    [90, 90],
    [180, 180],
    [270, 270],
    [-90, 270],
    [450, 90],
    [-720, 0],
    [45, 0], // not a multiple of 90: ignored, as pdf.js does
  ])('normalises /Rotate %d to %d', async (rotate, expected) => {
    const info = await accepted(await makePdf({ rotate }));
    expect(info.pages[0]).toEqual({ box: A4, rotate: expected });
  });

  it('uses the crop box, clipped to the media box', async () => {
    expect((await accepted(await makePdf({ cropBox: [10, 20, 100, 200] }))).pages[0]?.box).toEqual({
      x: 10,
      y: 20,
      width: 100,
      height: 200,
    });
    const partlyOutside = await accepted(await makePdf({ cropBox: [-50, 800, 100, 100] }));
    expect(partlyOutside.pages[0]?.box).toEqual({ x: 0, y: 800, width: 50, height: 42 });
  });

  it('falls back to the media box when the crop box lies outside it or is malformed', async () => {
    const outside = await makePdf({ cropBox: [1000, 1000, 10, 10] });
    expect((await accepted(outside)).pages[0]?.box).toEqual(A4);
    const malformed = assemblePdf(treeWithPages(['/MediaBox [0 0 300 400] /CropBox [0 0 100]']));
    expect((await accepted(malformed)).pages[0]?.box).toEqual({ x: 0, y: 0, width: 300, height: 400 });
  });

  it('normalises rectangles given by other corners than lower-left/upper-right', async () => {
    const pdf = assemblePdf(treeWithPages(['/MediaBox [612 792 0 0] /CropBox [500 10 100 700]']));
    expect((await accepted(pdf)).pages[0]?.box).toEqual({ x: 100, y: 10, width: 400, height: 690 });
  });

  it('inherits /MediaBox, /CropBox and /Rotate from the page tree', async () => {
    const inherited = '/MediaBox [0 0 300 300] /CropBox [5 5 105 205] /Rotate -270';
    const pdf = assemblePdf(treeWithPages(['', '/Rotate 180 /MediaBox [0 0 100 100]'], inherited));
    const info = await accepted(pdf);
    expect(info.pages).toEqual([
      { box: { x: 5, y: 5, width: 100, height: 200 }, rotate: 90 },
      { box: { x: 5, y: 5, width: 95, height: 95 }, rotate: 180 },
    ]);
  });

  it('walks nested page-tree nodes in document order', async () => {
    const pdf = assemblePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R 6 0 R] /Count 3 /MediaBox [0 0 100 100] >>',
      '<< /Type /Pages /Parent 2 0 R /Kids [4 0 R 5 0 R] /Count 2 /Rotate 90 >>',
      '<< /Type /Page /Parent 3 0 R /MediaBox [0 0 10 10] >>',
      '<< /Type /Page /Parent 3 0 R >>',
      '<< /Type /Page /Parent 2 0 R >>',
    ]);
    const info = await accepted(pdf);
    expect(info.pages.map((p) => [p.box.width, p.rotate])).toEqual([
      [10, 90],
      [100, 90],
      [100, 0],
    ]);
  });

  // How fast, and in how much memory, is measured by test/bench/inspect-bench.ts (`npx tsx test/bench/inspect-bench.ts`), not here.
  it('inspects all 500 pages of a 500-page document', async () => {
    const pdf = await makePdf({ pages: 500, size: [612, 792] });
    const info = await accepted(pdf);
    expect(info.pageCount).toBe(500);
    expect(info.pages).toHaveLength(500);
    expect(info.pages[499]).toEqual({ box: { x: 0, y: 0, width: 612, height: 792 }, rotate: 0 });
  });

  it('tolerates a few hundred bytes of trailing whitespace or garbage after %%EOF', async () => {
    const pdf = withTrailing(await makePdf(), '\r\n' + '\0'.repeat(300) + 'mailer padding\n');
    expect((await accepted(pdf)).pageCount).toBe(1);
  });

  it('tolerates junk before the %PDF header (offsets counted from the header)', async () => {
    const pdf = new Uint8Array(Buffer.concat([Buffer.from('X'.repeat(300)), await makePdf({ objectStreams: false })]));
    expect((await accepted(pdf)).pageCount).toBe(1);
  });

  it('does not mistake an /Encrypt outside the trailer for encryption', async () => {
    const pdf = await makePdf({
      edit: (doc) => {
        doc.setTitle('/Encrypt');
        doc.getPages()[0]?.node.set(PDFName.of('Encrypt'), PDFNumber.of(1));
      },
    });
    expect((await accepted(pdf)).pageCount).toBe(1);
  });

  it('reads streams with an indirect /Length (parsed without the byte-by-byte fallback)', async () => {
    const content = 'q 1 0 0 1 0 0 cm Q\n'.repeat(50);
    const pdf = assemblePdf([
      ...treeWithPages(['/MediaBox [0 0 200 200] /Contents 4 0 R']),
      `<< /Length 5 0 R >>\nstream\n${content}\nendstream`,
      String(content.length),
    ]);
    expect((await accepted(pdf)).pages[0]?.box).toEqual({ x: 0, y: 0, width: 200, height: 200 });
  });
});

describe('inspectPdf: rejections', () => {
  it('rejects empty bytes', async () => {
    expect(await rejection(new Uint8Array())).toEqual({ reason: 'empty', message: 'The file is empty' });
  });

  it.each([
    ['random garbage', randomBytes(4096, 1)],
    ["a PNG's bytes", PNG_1X1],
    ['text', bytesOf('hello, world\n')],
    ['a %PDF header after the first KB', bytesOf(' '.repeat(2000) + '%PDF-1.7\n')],
  ])('rejects %s as not a PDF', async (_, bytes) => {
    expect(await rejection(bytes)).toEqual({ reason: 'not_pdf', message: 'The file is not a PDF (no %PDF header)' });
  });

  it.each([
    ['XRef stream', true],
    ['classic xref', false],
  ])('rejects a PDF cut in half (%s)', async (_, objectStreams) => {
    const pdf = await makePdf({ pages: 3, objectStreams });
    expect(await rejection(cutAt(pdf))).toEqual({
      reason: 'truncated',
      message: 'The PDF is truncated or incomplete (no end-of-file marker)',
    });
  });

  it.each([
    ['XRef stream', true],
    ['classic xref', false],
  ])('rejects a PDF cut at the object boundary before its xref, which pdf-lib loads (%s)', async (_, objectStreams) => {
    const cut = truncatedAtObjectBoundary(await makePdf({ pages: 3, objectStreams }));
    expect((await PDFDocument.load(cut, { updateMetadata: false })).getPageCount()).toBe(3); // the trap
    expect((await rejection(cut)).reason).toBe('truncated');
  });

  it('rejects a PDF cut before its last page object, which pdf-lib loads with a page missing', async () => {
    const cut = truncatedBeforeObject(await makePdf({ pages: 3, objectStreams: false }), 1);
    expect((await PDFDocument.load(cut, { updateMetadata: false })).getPageCount()).toBe(2); // the trap
    expect((await rejection(cut)).reason).toBe('truncated');
  });

  it.each([
    ['XRef stream', true],
    ['classic xref', false],
  ])('rejects every proper prefix of a PDF (%s)', async (_, objectStreams) => {
    const pdf = await makePdf({ pages: 2, objectStreams });
    const results = await Promise.all(Array.from({ length: pdf.length }, (_, n) => inspectPdf(pdf.subarray(0, n))));
    expect(results.filter((r) => r.ok)).toEqual([]);
  });

  it('rejects more than 1 KB of trailing garbage (only the tail is searched for %%EOF)', async () => {
    const pdf = withTrailing(await makePdf(), randomBytes(2048, 2));
    expect((await rejection(pdf)).reason).toBe('truncated');
  });

  it('rejects a startxref that points past the end of the file as truncated', async () => {
    const pdf = await makePdf({ objectStreams: false });
    const broken = bytesOf(text(pdf).replace(/startxref\s+\d+/, 'startxref\n99999999'));
    expect(await rejection(broken)).toEqual({
      reason: 'truncated',
      message: 'The PDF is truncated or incomplete (the cross-reference table is missing)',
    });
  });

  it('rejects a startxref that does not point at a cross-reference section as damaged', async () => {
    const pdf = await makePdf({ objectStreams: false });
    const broken = bytesOf(text(pdf).replace(/startxref\s+\d+/, `startxref\n${String(lastXrefOffset(pdf) - 20)}`));
    expect(await rejection(broken)).toEqual({
      reason: 'damaged',
      message: 'The PDF is damaged: its cross-reference offset (startxref) does not point to a cross-reference table',
    });
  });

  it.each(['encrypted.pdf', 'encrypted-owner-only.pdf'] as const)('rejects %s (qpdf, AES)', async (name) => {
    expect(await rejection(encryptedFixture(name))).toEqual({
      reason: 'encrypted',
      message: 'The PDF is encrypted or password-protected; upload an unprotected copy',
    });
  });

  it('rejects /Encrypt in a classic trailer', async () => {
    const objects = [...treeWithPages(['/MediaBox [0 0 10 10]']), '<< /Filter /Standard /V 1 /R 2 /O <00> /U <00> /P -4 >>'];
    expect((await rejection(assemblePdf(objects, { trailer: '/Encrypt 4 0 R' }))).reason).toBe('encrypted');
  });

  it('rejects a PDF without pages', async () => {
    expect(await rejection(await makePdf({ pages: 0 }))).toEqual({ reason: 'no_pages', message: 'The PDF has no pages' });
  });

  it('rejects a page tree whose /Count disagrees with its pages', async () => {
    const pdf = await makePdf({ pages: 2, edit: (doc) => { doc.catalog.Pages().set(PDFName.of('Count'), PDFNumber.of(3)); } });
    expect(await rejection(pdf)).toEqual({
      reason: 'damaged',
      message: 'The PDF is damaged: it declares 3 pages but 2 were found',
    });
  });

  it('rejects a page tree that refers to a missing page (pdf-lib would silently skip it)', async () => {
    const pdf = await makePdf({ pages: 2, edit: (doc) => { doc.catalog.Pages().Kids().push(PDFRef.of(999)); } });
    expect(await rejection(pdf)).toEqual({ reason: 'damaged', message: 'The PDF is damaged: page 3 is missing' });
  });

  const catalog = '<< /Type /Catalog /Pages 2 0 R >>';
  it.each([
    ['a Kids loop', [catalog, '<< /Type /Pages /Kids [2 0 R] /Count 1 >>'], 'its page tree refers to the same object twice'],
    [
      'a /Parent loop',
      [catalog, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 3 0 R /MediaBox [0 0 9 9] >>'],
      'the /Parent links of page 1 form a loop',
    ],
    [
      'a kid that is not a page',
      [catalog, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Foo 1 >>'],
      'its page tree contains an object that is not a page',
    ],
    ['a page without a MediaBox', treeWithPages(['']), 'page 1 has no valid page size (MediaBox)'],
    ['a zero-area MediaBox', treeWithPages(['/MediaBox [0 0 0 842]']), 'page 1 has no valid page size (MediaBox)'],
    ['a catalog without a page tree', ['<< /Type /Catalog >>'], 'it has no page tree'],
    ['a /Root that is not a catalog', ['<< /Foo /Bar >>', '<< /Type /Pages /Kids [] /Count 0 >>'], 'it has no page tree'],
    ['an unparseable object', [...treeWithPages(['/MediaBox [0 0 9 9]']), '<< /Broken ) >>'], 'some of its objects could not be read'],
  ])('rejects %s as damaged, without throwing', async (_, objects, what) => {
    expect(await rejection(assemblePdf(objects))).toEqual({ reason: 'damaged', message: `The PDF is damaged: ${what}` });
  });

  it('rejects a trailer whose /Root leads nowhere', async () => {
    const pdf = assemblePdf(['<< /Type /Pages /Kids [] /Count 0 >>'], { root: 9 });
    expect(await rejection(pdf)).toEqual({ reason: 'damaged', message: 'The PDF is damaged: it has no document catalog' });
  });

  it('never throws and never leaks internals, whatever the bytes (seeded mutations)', async () => {
    const originals = [await makePdf({ pages: 2 }), await makePdf({ pages: 2, objectStreams: false, rotate: 90 })];
    const next = prng(42);
    const reasons = new Set<string>();
    for (let i = 0; i < 400; i++) {
      const bytes = Uint8Array.from(originals[i % 2] ?? []);
      for (let flips = 1 + Math.floor(next() * 4); flips > 0; flips--) {
        bytes[Math.floor(next() * bytes.length)] = Math.floor(next() * 256);
      }
      const result: PdfInspection = await inspectPdf(bytes);
      reasons.add(result.ok ? 'ok' : result.reason);
      if (!result.ok) expect(result.message).not.toMatch(/Error|\bat \w|\.[jt]s\b|PDF[A-Z]|line:|offset=/);
    }
    expect(reasons.has('ok')).toBe(true);
    expect(reasons.has('damaged')).toBe(true);
  });
});
