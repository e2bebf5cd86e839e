import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, PDFRawStream, PDFRef } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { appendIncrementalUpdate, changedObjects, openForUpdate, trackChanges } from '../../shared/sealing/incremental.ts';
import { loadPdf } from '../../shared/pdf/load.ts';
import { readLastXref as readPreviousXref } from '../../shared/pdf/xref.ts';
import { assemblePdf, encryptedFixture, lastXrefOffset, makePdf } from '../support/pdfs.ts';
import { qpdfCheck, startsWith } from './signature-tools.ts';

const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString('latin1');
const refs = (doc: PDFDocument, tracker: ReturnType<typeof trackChanges>): string[] =>
  changedObjects(doc, tracker).map(([ref]) => ref.toString());

/** qpdf follows the cross-reference chain (unlike pdf-lib, which reads front to back): it must find nothing wrong. */
function expectQpdfClean(bytes: Uint8Array): void {
  const { status, output } = qpdfCheck(bytes);
  expect(output).not.toContain('WARNING');
  expect(status).toBe(0);
}

describe('trackChanges / changedObjects', () => {
  it('reports nothing for an untouched document, and appending then returns the original bytes', async () => {
    const original = await makePdf({ pages: 3 });
    const { doc, tracker } = await openForUpdate(original);
    expect(changedObjects(doc, tracker)).toEqual([]);
    expect(appendIncrementalUpdate(original, doc, tracker)).toBe(original);
  });

  it('reports only the objects that changed or are new', async () => {
    const { doc, tracker } = await openForUpdate(await makePdf({ pages: 3, objectStreams: false }));
    const page = doc.getPages()[1]!;
    page.node.set(PDFName.of('Rotate'), PDFNumber.of(90));
    const added = doc.context.register(doc.context.obj({ Title: PDFHexString.fromText('x') }));
    expect(refs(doc, tracker)).toEqual([page.ref.toString(), added.toString()]);
  });

  it('sees a change deep inside a direct dictionary, and a stream whose dict or data changed', async () => {
    const { doc, tracker } = await openForUpdate(await makePdf({ pages: 2, objectStreams: false }));
    const [first, second] = doc.getPages();
    first!.node.lookup(PDFName.of('Resources'), PDFDict).set(PDFName.of('Marker'), PDFNumber.of(1));
    second!.drawText('x'); // a new content stream, and the page's /Contents changes
    expect(refs(doc, tracker)).toContain(first!.ref.toString());
    expect(refs(doc, tracker)).toContain(second!.ref.toString());
    const streams = changedObjects(doc, tracker).filter(([, o]) => o instanceof PDFRawStream);
    expect(streams).toEqual([]); // pdf-lib's new stream is not a raw stream; no existing raw stream changed

    const { doc: again, tracker: t2 } = await openForUpdate(await makePdf({ pages: 1, objectStreams: false, edit: (d) => { d.getPages()[0]!.drawText('y'); } }));
    const contents = again.getPages()[0]!.node.get(PDFName.of('Contents'));
    const ref = contents instanceof PDFArray ? contents.get(0) : contents;
    if (!(ref instanceof PDFRef)) throw new Error('expected a reference to the content stream');
    const stream = again.context.lookup(ref);
    if (!(stream instanceof PDFRawStream)) throw new Error('expected the content stream');
    stream.dict.set(PDFName.of('Marker'), PDFNumber.of(2));
    expect(refs(again, t2)).toEqual([ref.toString()]);
    again.context.assign(ref, PDFRawStream.of(stream.dict, new Uint8Array([0x20])));
    expect(refs(again, t2)).toEqual([ref.toString()]);
  });

  it('refuses encrypted PDFs and bytes other than the tracked ones', async () => {
    const encrypted = encryptedFixture('encrypted-owner-only.pdf');
    const locked = await PDFDocument.load(encrypted, { ignoreEncryption: true, updateMetadata: false });
    expect(() => trackChanges(locked, encrypted)).toThrow(/encrypted/);
    const original = await makePdf();
    const { doc, tracker } = await openForUpdate(original);
    doc.getPages()[0]!.node.set(PDFName.of('Rotate'), PDFNumber.of(90));
    expect(() => appendIncrementalUpdate(new Uint8Array(original.length), doc, tracker)).toThrow(/not the bytes/);
  });
});

describe('appendIncrementalUpdate', () => {
  it('after a classic table: appends the changed objects, an xref table and a trailer with /Prev', async () => {
    const original = await makePdf({ pages: 3, objectStreams: false });
    const { doc, tracker } = await openForUpdate(original);
    const page = doc.getPages()[2]!;
    page.node.set(PDFName.of('Rotate'), PDFNumber.of(180));
    const updated = appendIncrementalUpdate(original, doc, tracker);
    expect(startsWith(updated, original)).toBe(true);
    const update = text(updated.subarray(original.length));
    expect(update.match(/\d+ \d+ obj/g)).toEqual([`${page.ref.objectNumber} 0 obj`]);
    expect(update).toMatch(new RegExp(`^xref\\n${page.ref.objectNumber} 1\\n\\d{10} 00000 n \\n`, 'm'));
    expect(update).toContain(`/Prev ${lastXrefOffset(original)}`);
    expect(update).toMatch(/\/Size \d+/);
    expect(update).not.toContain('/Type /XRef');
    expectQpdfClean(updated);
    expect((await loadPdf(updated)).getPages()[2]!.getRotation().angle).toBe(180);
  });

  it('after an XRef stream: writes an XRef stream, and new objects never reuse object-stream numbers', async () => {
    const original = await makePdf({ pages: 3 });
    const { size } = readPreviousXref(original);
    const { doc, tracker } = await openForUpdate(original);
    const info = doc.context.register(doc.context.obj({ Title: PDFHexString.fromText('Hello') }));
    doc.context.trailerInfo.Info = info;
    const updated = appendIncrementalUpdate(original, doc, tracker);
    expect(startsWith(updated, original)).toBe(true);
    expect(info.objectNumber).toBeGreaterThanOrEqual(size); // pdf-lib alone would have picked a number below /Size
    const update = text(updated.subarray(original.length));
    expect(update).toMatch(/\/Type \/XRef/);
    expect(update).toMatch(/\/W \[ 1 \d 1 \]/);
    expect(update).toContain(`/Prev ${lastXrefOffset(original)}`);
    expect(update).not.toMatch(/^xref$/m);
    expect(readPreviousXref(updated)).toMatchObject({ kind: 'stream', size: size + 2 });
    expectQpdfClean(updated);
    expect((await loadPdf(updated)).getTitle()).toBe('Hello');
  });

  it('numbers new objects above every reference, so a dangling one never comes to mean a new object', async () => {
    // The page names font 9 0 R, which the file does not have: a new object numbered 9 would become that font.
    const original = assemblePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << /Font << /F1 9 0 R >> >> >>',
    ]);
    const { doc, tracker } = await openForUpdate(original);
    const added = doc.context.register(doc.context.obj({ Title: PDFHexString.fromText('New') }));
    expect(added.objectNumber).toBeGreaterThan(9);
    const updated = appendIncrementalUpdate(original, doc, tracker);
    expect(readPreviousXref(updated).size).toBe(added.objectNumber + 1);
    expect((await loadPdf(updated)).context.lookup(PDFRef.of(9))).toBeUndefined();
  });

  it('chains updates: each /Prev points at the previous section and the file stays valid', async () => {
    let bytes = await makePdf({ pages: 2, objectStreams: false });
    const offsets: number[] = [];
    for (const angle of [90, 180, 270]) {
      offsets.push(lastXrefOffset(bytes));
      const { doc, tracker } = await openForUpdate(bytes);
      doc.getPages()[0]!.node.set(PDFName.of('Rotate'), PDFNumber.of(angle));
      bytes = appendIncrementalUpdate(bytes, doc, tracker);
      expect(text(bytes)).toContain(`/Prev ${offsets[offsets.length - 1]}`);
    }
    expect(text(bytes).match(/^xref$/gm)).toHaveLength(4);
    expectQpdfClean(bytes);
    expect((await loadPdf(bytes)).getPages()[0]!.getRotation().angle).toBe(270);
  });

  it('keeps /Root, /Info and /ID of the original trailer', async () => {
    const original = await makePdf({ objectStreams: false, edit: (d) => { d.setTitle('Kept'); } });
    const withId = text(original).replace(/trailer\n<<\n/, 'trailer\n<<\n/ID [<00112233445566778899AABBCCDDEEFF> <00112233445566778899AABBCCDDEEFF>]\n');
    const input = new Uint8Array(Buffer.from(withId, 'latin1')); // the trailer follows the table: offsets still hold
    const { doc, tracker } = await openForUpdate(input);
    doc.getPages()[0]!.node.set(PDFName.of('Rotate'), PDFNumber.of(90));
    const update = text(appendIncrementalUpdate(input, doc, tracker).subarray(input.length));
    const trailer = /trailer\n([\s\S]*?)startxref/.exec(update)?.[1] ?? '';
    expect(trailer).toMatch(/\/Root \d+ 0 R/);
    expect(trailer).toMatch(/\/Info \d+ 0 R/);
    expect(trailer).toContain('/ID [ <00112233445566778899AABBCCDDEEFF> <00112233445566778899AABBCCDDEEFF> ]');
  });

  it('starts the update on a new line when the original ends right after %%EOF (as pdf-lib writes)', async () => {
    const original = await makePdf({ objectStreams: false });
    expect(text(original).endsWith('%%EOF')).toBe(true);
    const { doc, tracker } = await openForUpdate(original);
    doc.getPages()[0]!.node.set(PDFName.of('Rotate'), PDFNumber.of(90));
    const updated = appendIncrementalUpdate(original, doc, tracker);
    expect(text(updated.subarray(original.length - 5, original.length + 2))).toMatch(/^%%EOF\n\d/);
    expectQpdfClean(updated);
  });

  it('counts offsets from the %PDF header when the file has junk before it (as its own offsets do)', async () => {
    for (const objectStreams of [false, true]) {
      const original = new Uint8Array(Buffer.concat([Buffer.from('JUNK LINE\n'), await makePdf({ pages: 2, objectStreams })]));
      const { doc, tracker } = await openForUpdate(original);
      expect(tracker.previous.base).toBe(10);
      doc.getPages()[0]!.node.set(PDFName.of('Rotate'), PDFNumber.of(90));
      expectQpdfClean(appendIncrementalUpdate(original, doc, tracker));
    }
  });
});
