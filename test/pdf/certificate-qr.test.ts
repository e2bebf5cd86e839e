/**
 * The audit certificate prints the verification address and draws it as a QR code in vector paths: the rectangles in
 * the page's content stream, read back onto a grid, are the QR code of that address; poppler prints the address.
 */
import { inflateSync } from 'node:zlib';
import { PDFArray, PDFName, PDFRawStream, type PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qrModules } from '#shared/sealing/audit-certificate-qr.ts';
import { loadPdf } from '#shared/pdf/load.ts';
import { sealPdf } from '#shared/sealing/seal.ts';
import { startTestPki, type TestPki } from '#test/support/local-pki.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { pdftotext, tempPdf } from '#test/support/validators.ts';

let pki: TestPki;
beforeAll(async () => { pki = await startTestPki(); });
afterAll(async () => { await pki.pki.stop(); });

const URL_ = 'https://sign.example.com/verify#0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c';

/** The decoded content of a page (its streams joined). */
function pageContent(doc: PDFDocument, index: number): string {
  const contents = doc.getPage(index).node.get(PDFName.of('Contents'));
  const refs = contents instanceof PDFArray ? contents.asArray() : [contents];
  return refs.map((ref) => {
    const stream = doc.context.lookup(ref);
    if (!(stream instanceof PDFRawStream)) return '';
    const filtered = stream.dict.get(PDFName.of('Filter'));
    return Buffer.from(filtered ? inflateSync(stream.contents) : stream.contents).toString('latin1');
  }).join('\n');
}

/** The filled rectangles of the black `re ... f` group, back onto a module grid. */
function gridFrom(content: string): boolean[][] {
  const group = /0 0 0 rg\n((?:[\d.]+ [\d.]+ [\d.]+ [\d.]+ re\n)+)f/.exec(content)?.[1] ?? '';
  const rects = group.trim().split('\n').map((line) => line.split(' ').slice(0, 4).map(Number) as [number, number, number, number]);
  const module = Math.min(...rects.map((r) => r[3]));
  const left = Math.min(...rects.map((r) => r[0]));
  const top = Math.max(...rects.map((r) => r[1] + r[3]));
  const count = Math.round((Math.max(...rects.map((r) => r[0] + r[2])) - left) / module);
  const grid = Array.from({ length: count }, () => Array.from({ length: count }, () => false));
  for (const [x, y, w] of rects) {
    const row = Math.round((top - y) / module) - 1;
    const cells = grid[row] ?? [];
    for (let c = Math.round((x - left) / module); c < Math.round((x + w - left) / module); c++) cells[c] = true;
  }
  return grid;
}

describe('the verification address on the audit certificate', () => {
  it('prints the address and draws its QR code as vector rectangles, module for module', async () => {
    const base = pki.input('B-B');
    const { bytes } = await sealPdf(await makePdf({ pages: 1 }), { ...base, certificate: { ...base.certificate, verifyUrl: URL_ } });
    const doc = await loadPdf(bytes);
    const last = doc.getPageCount() - 1;
    const grid = gridFrom(pageContent(doc, last));
    const expected = qrModules(URL_);
    expect(grid.length).toBe(expected.length);
    expect(grid).toEqual(expected);
    expect(expected.length).toBeGreaterThanOrEqual(25); // a real code, not a placeholder
    expect(pdftotext(tempPdf(bytes)).replace(/\s+/g, '')).toContain(URL_);
  });

  it('draws nothing without an address (callers that predate it)', async () => {
    const { bytes } = await sealPdf(await makePdf({ pages: 1 }), pki.input('B-B'));
    const doc = await loadPdf(bytes);
    expect(pageContent(doc, doc.getPageCount() - 1)).not.toMatch(/0 0 0 rg\n[\d.]+ [\d.]+ [\d.]+ [\d.]+ re/);
  });
});
