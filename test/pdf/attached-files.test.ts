/** Signers' files embedded as associated files in an incremental update: poppler finds them whole, the original stays a prefix. */
import { createHash } from 'node:crypto';
import { PDFArray, PDFDict, PDFName } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { embedAttachments } from '#shared/sealing/attached-files.ts';
import { appendIncrementalUpdate, openForUpdate } from '#shared/sealing/incremental.ts';
import { loadPdf } from '#shared/pdf/load.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { qpdfCheck, tempPdf } from '#test/support/validators.ts';
import { detachAll, detachList, jpegImage, pngImage } from '#test/support/attachment-files.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const at = new Date('2026-03-01T10:00:00Z');

async function embedded(original: Uint8Array, files: { name: string; bytes: Uint8Array; mimeType: string }[]): Promise<Uint8Array> {
  const { doc, tracker } = await openForUpdate(original);
  embedAttachments(doc, files.map((f) => ({ ...f, createdAt: at, description: `${f.name}: added by Ana` })));
  return appendIncrementalUpdate(original, doc, tracker);
}

describe('embedAttachments', () => {
  it('adds each file to /EmbeddedFiles and /AF with relationship Supplement, in an update after the original bytes', async () => {
    const original = await makePdf({ pages: 2 });
    const pdf = await makePdf();
    const png = pngImage(30, 20);
    const jpg = jpegImage(20, 20);
    const updated = await embedded(original, [
      { name: 'Utility bill.pdf', bytes: pdf, mimeType: 'application/pdf' }, { name: 'Pässe scan.png', bytes: png, mimeType: 'image/png' }, { name: 'id.jpg', bytes: jpg, mimeType: 'image/jpeg' },
    ]);
    expect(Buffer.from(updated.subarray(0, original.byteLength)).equals(Buffer.from(original))).toBe(true);
    const file = tempPdf(updated);
    expect(qpdfCheck(file).ok).toBe(true);
    expect(detachList(file)).toEqual(['Utility bill.pdf', 'Pässe scan.png', 'id.jpg']);
    const saved = detachAll(file);
    expect(sha256(saved.get('Utility bill.pdf') ?? new Uint8Array())).toBe(sha256(pdf));
    expect(sha256(saved.get('Pässe scan.png') ?? new Uint8Array())).toBe(sha256(png));
    expect(sha256(saved.get('id.jpg') ?? new Uint8Array())).toBe(sha256(jpg));

    const doc = await loadPdf(updated);
    const associated = doc.catalog.lookup(PDFName.of('AF'), PDFArray);
    expect(associated.size()).toBe(3);
    const spec = associated.lookup(1, PDFDict);
    expect(spec.get(PDFName.of('AFRelationship'))).toBe(PDFName.of('Supplement'));
    const stream = spec.lookup(PDFName.of('EF'), PDFDict).lookup(PDFName.of('F'));
    expect(String((stream as unknown as { dict: PDFDict }).dict.get(PDFName.of('Subtype')))).toBe('/image#2Fpng');
  });

  it('keeps the files a document already embeds, and changes nothing when there are none', async () => {
    const withOwn = await makePdf({ edit: (doc) => { void doc.attach(new TextEncoder().encode('terms'), 'terms.txt', { mimeType: 'text/plain' }); } });
    const updated = await embedded(withOwn, [{ name: 'scan.png', bytes: pngImage(), mimeType: 'image/png' }]);
    expect(detachList(tempPdf(updated)).sort()).toEqual(['scan.png', 'terms.txt']);
    const { doc, tracker } = await openForUpdate(withOwn);
    embedAttachments(doc, []);
    expect(appendIncrementalUpdate(withOwn, doc, tracker)).toEqual(withOwn);
  });
});
