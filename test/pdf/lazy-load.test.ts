import { Buffer } from 'node:buffer';
import { PDFHexString, PDFName, PDFNumber, PDFRef, type PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { isLazy, loadPdfForUpdate } from '#shared/pdf/lazy-load.ts';
import { loadPdf } from '#shared/pdf/load.ts';
import { appendIncrementalUpdate, trackChanges, writeUpdate } from '#shared/sealing/incremental.ts';
import { addSignatureField } from '#shared/sealing/pades.ts';
import { assemblePdf, makePdf } from '#test/support/pdfs.ts';

const parsed = (doc: PDFDocument) => doc.context.enumerateIndirectObjects().length;

/** What the seal does to a document: a page drawn on, the Info dictionary dated, a signature field added. */
function edit(doc: PDFDocument): void {
  doc.getPages()[1]?.drawText('Signed');
  doc.setTitle('Sealed');
  addSignatureField(doc, { kind: 'timestamp', contentsBytes: 64 });
}

function updateOf(doc: PDFDocument, bytes: Uint8Array): Buffer {
  const tracker = trackChanges(doc, bytes);
  edit(doc);
  return Buffer.concat(writeUpdate(doc, tracker)?.chunks ?? []);
}

describe('loadPdfForUpdate: objects parsed on first lookup, where the cross-reference tables allow', () => {
  it('parses only what is looked up, and the update it leads to is the one a whole parse leads to (tables, XRef and object streams)', async () => {
    for (const objectStreams of [false, true]) {
      const bytes = await makePdf({ pages: 3, objectStreams, edit: (d) => { for (const page of d.getPages()) page.drawText('Original'); } });
      const [lazy, whole] = [await loadPdfForUpdate(bytes), await loadPdf(bytes)];
      expect([isLazy(lazy), isLazy(whole)]).toEqual([true, false]);
      expect(parsed(lazy)).toBeLessThan(parsed(whole)); // the catalog and the page tree; no content stream or font
      expect(updateOf(lazy, bytes).toString('latin1')).toBe(updateOf(whole, bytes).toString('latin1'));
    }
  });

  it('follows /Prev: an object an update replaced is read as the update wrote it', async () => {
    const original = await makePdf({ pages: 2, objectStreams: false });
    const first = await loadPdfForUpdate(original);
    const tracker = trackChanges(first, original);
    first.getPages()[0]?.node.set(PDFName.of('Rotate'), PDFNumber.of(90));
    const updated = appendIncrementalUpdate(original, first, tracker);
    const again = await loadPdfForUpdate(updated);
    expect(isLazy(again)).toBe(true);
    expect(again.getPages().map((page) => page.getRotation().angle)).toEqual([90, 0]);
  });

  it('numbers new objects above every reference, also those in objects it never parsed', async () => {
    // Object 4 is never looked up, and names 12 0 R, which the file does not have.
    const bytes = assemblePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << /Font << /F1 4 0 R >> >> >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Widths 12 0 R >>',
    ]);
    const doc = await loadPdfForUpdate(bytes);
    expect(isLazy(doc)).toBe(true);
    trackChanges(doc, bytes);
    expect(doc.context.enumerateIndirectObjects().map(([ref]) => ref.objectNumber)).not.toContain(4);
    expect(doc.context.register(doc.context.obj({ Title: PDFHexString.fromText('New') })).objectNumber).toBeGreaterThan(12);

    // In an object stream: an object nothing refers to names 40 0 R.
    const compressed = await makePdf({ pages: 1, edit: (d) => { d.context.register(d.context.obj({ Dangling: PDFRef.of(40) })); } });
    const again = await loadPdfForUpdate(compressed);
    expect(isLazy(again)).toBe(true);
    trackChanges(again, compressed);
    expect(again.context.register(again.context.obj({})).objectNumber).toBeGreaterThan(40);
  });

  it('parses the whole file when its tables cannot be trusted: offsets that miss their objects, no catalog, a hybrid file', async () => {
    const table = Buffer.from(await makePdf({ pages: 2, objectStreams: false }));
    const firstObject = table.indexOf('1 0 obj');
    const shifted = Buffer.concat([table.subarray(0, firstObject), Buffer.from('\n'), table.subarray(firstObject)]); // every offset one short
    const noCatalog = assemblePdf(['<< /Type /Pages /Kids [] /Count 0 >>', '<< /Type /Catalog /Pages 1 0 R >>'], { root: 1 });
    const hybrid = assemblePdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>'], { trailer: '/XRefStm 0' });
    for (const bytes of [shifted, noCatalog, hybrid]) {
      const [doc, whole] = await Promise.all([loadPdfForUpdate(bytes), loadPdf(bytes)]);
      expect(isLazy(doc)).toBe(false);
      expect(doc.getPageCount()).toBe(whole.getPageCount());
    }
    expect((await loadPdfForUpdate(shifted)).getPageCount()).toBe(2);
  });

  it('reads each object where the tables or the streams say, as the whole parse reads it', async () => {
    for (const objectStreams of [false, true]) {
      const bytes = await makePdf({ pages: 2, objectStreams, edit: (d) => { d.setTitle('Kept'); } });
      const [lazy, whole] = [await loadPdfForUpdate(bytes), await loadPdf(bytes)];
      for (const [ref, object] of whole.context.enumerateIndirectObjects()) {
        expect(lazy.context.lookup(PDFRef.of(ref.objectNumber, ref.generationNumber))?.toString(), ref.toString()).toBe(object.toString());
      }
      expect(parsed(lazy)).toBe(parsed(whole));
    }
  });
});
