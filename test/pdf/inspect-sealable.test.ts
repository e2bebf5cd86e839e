/** inspectPdf accepts only what sealing can seal, and the parser behind it (inspect.test.ts: valid PDFs and rejections). */
import { PDFDocument, PDFRawStream, ParseSpeeds } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { inspectPdf } from '../../shared/pdf/inspect.ts';
import { loadPdf } from '../../shared/pdf/load.ts';
import { sealPdf } from '../../shared/sealing/seal.ts';
import { KeyFileSigner } from '../../shared/adapters/local/key-file-signer.ts';
import { pdfsig, startsWith, tempDir } from './signature-tools.ts';
import { PNG_1X1, assemblePdf, makePdf } from '../support/pdfs.ts';

import { bytesOf, prng, rejection, text, treeWithPages } from './inspect-helpers.ts';

describe('inspectPdf accepts only what sealing can seal', () => {
  const sealInput = async (pageCount: number) => ({
    items: [
      { page: 1, rect: { x: 50, y: 50, width: 200, height: 20 }, rotate: 0 as const, value: { kind: 'text' as const, text: 'Agreed' } },
      { page: 1, rect: { x: 50, y: 80, width: 120, height: 40 }, rotate: 0 as const, value: { kind: 'image' as const, png: PNG_1X1 } },
      { page: 1, rect: { x: 50, y: 130, width: 14, height: 14 }, rotate: 0 as const, value: { kind: 'checkbox' as const, checked: true } },
    ],
    certificate: {
      envelopeId: 'e', subject: 'Fuzz', originalSha256: '0'.repeat(64), originalPageCount: pageCount, createdAt: new Date(0).toISOString(),
      completedAt: new Date(0).toISOString(), chainHead: { seq: 3, hash: '0'.repeat(64) }, documents: [], signers: [], events: [],
    },
    signer: await KeyFileSigner.open(tempDir()),
    signingTime: new Date(0),
  });

  it('rejects an XRef stream whose stream keyword is broken, which pdf-lib still loads but no update can follow', async () => {
    const pdf = text(await makePdf({ pages: 1 }));
    const at = pdf.lastIndexOf('stream', pdf.lastIndexOf('endstream') - 1);
    const broken = bytesOf(`${pdf.slice(0, at + 2)})${pdf.slice(at + 2)}`);
    expect(await loadPdf(broken)).toBeInstanceOf(PDFDocument);
    expect(await rejection(broken)).toEqual({
      reason: 'damaged',
      message: 'The PDF is damaged: its last cross-reference section or trailer cannot be read, so it could not be sealed; save it again with a PDF tool',
    });
  });

  it('seals every file it accepts, keeping the original as the prefix (seeded structural mutations)', async () => {
    const withForm = await makePdf({
      pages: 2,
      edit: (doc) => {
        const form = doc.getForm();
        const name = form.createTextField('name');
        name.setText('Prefilled');
        name.addToPage(doc.getPage(0), { x: 50, y: 700, width: 200, height: 24 });
        name.addToPage(doc.getPage(1), { x: 50, y: 700, width: 200, height: 24 });
        const agree = form.createCheckBox('agree');
        agree.addToPage(doc.getPage(0), { x: 50, y: 650, width: 16, height: 16 });
        agree.check();
      },
    });
    const originals = [
      await makePdf({ pages: 2 }), await makePdf({ pages: 2, objectStreams: false }), await makePdf({ pages: 1, rotate: 90, cropBox: [10, 10, 400, 500] }), withForm,
    ];
    const next = prng(7);
    const int = (n: number) => Math.floor(next() * n);
    const KEYWORDS = ['/Pages', '/Kids', '/Count', '/Type', '/Page', '/MediaBox', '/Length', '/Root', '/Size', '/Prev', '/Rotate', '/CropBox'];
    const mutate = (source: Uint8Array): Uint8Array => {
      const b = Buffer.from(source);
      switch (int(5)) {
        case 0: // flipped bytes
          for (let n = 1 + int(6); n > 0; n--) b[int(b.length)] = int(256);
          return b;
        case 1: { // a cut-out run
          const at = int(b.length);
          return Buffer.concat([b.subarray(0, at), b.subarray(Math.min(b.length, at + 1 + int(200)))]);
        }
        case 2: { // a run copied elsewhere
          const at = int(b.length);
          const from = int(b.length);
          return Buffer.concat([b.subarray(0, at), b.subarray(from, from + 1 + int(300)), b.subarray(at)]);
        }
        case 3: { // a digit changed: offsets, lengths, object numbers
          const at = int(b.length);
          const digit = b.subarray(at).findIndex((c) => c >= 48 && c <= 57);
          if (digit >= 0) b[at + digit] = 48 + int(10);
          return b;
        }
        default: { // one key swapped for another
          const from = Buffer.from(KEYWORDS[int(KEYWORDS.length)] ?? '/Type');
          const at = b.indexOf(from, int(b.length));
          return at < 0 ? b : Buffer.concat([b.subarray(0, at), Buffer.from(KEYWORDS[int(KEYWORDS.length)] ?? '/Type'), b.subarray(at + from.length)]);
        }
      }
    };
    let sealed = 0;
    for (let i = 0; i < 240; i++) {
      const bytes = mutate(originals[i % originals.length] ?? new Uint8Array());
      const result = await inspectPdf(bytes);
      if (!result.ok) continue;
      const out = await sealPdf(bytes, await sealInput(result.info.pageCount));
      expect(startsWith(out.bytes, bytes), `mutant ${String(i)}`).toBe(true);
      if (sealed++ < 5) expect(pdfsig(out.bytes), `mutant ${String(i)}`).toContain('Signature is Valid');
    }
    expect(sealed).toBeGreaterThan(20);
  }, 120_000);
});

describe('loadPdf (the parser behind inspectPdf)', () => {
  /** Every stream's raw contents, by object number. */
  const streams = (doc: PDFDocument) =>
    Object.fromEntries(
      doc.context
        .enumerateIndirectObjects()
        .flatMap(([ref, obj]) => (obj instanceof PDFRawStream ? [[ref.objectNumber, text(obj.getContents())]] : [])),
    );

  async function both(pdf: Uint8Array) {
    const settle = (p: Promise<PDFDocument>) => p.then(streams, () => 'threw');
    const stock = PDFDocument.load(pdf, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: true, parseSpeed: ParseSpeeds.Fastest });
    return { ours: await settle(loadPdf(pdf)), stock: await settle(stock) };
  }

  it.each([
    ['LF', 'data\nendstream'],
    ['CRLF', 'data\r\nendstream'],
    ['CR', 'data\rendstream'],
    ['no EOL', 'dataendstream'],
    ['two EOLs', 'data\n\r\nendstream'],
    ['a near-miss keyword', 'endstrea stream-less endstreamendstream'],
    ['empty data', 'endstream'],
  ])('cuts indirect-/Length streams exactly as pdf-lib does (%s)', async (_, tail) => {
    const pdf = assemblePdf([...treeWithPages(['/MediaBox [0 0 9 9]']), `<< /Length 5 0 R >>\nstream\n${tail}`, '4']);
    const { ours, stock } = await both(pdf);
    expect(ours).toEqual(stock);
  });

  it('agrees with pdf-lib on random stream data with embedded keywords', async () => {
    const next = prng(7);
    const pieces = ['stream', 'endstream', '\r', '\n', 'end', 'x', '\0', 'obj'];
    for (let i = 0; i < 200; i++) {
      const data = Array.from({ length: 1 + Math.floor(next() * 12) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
      const pdf = assemblePdf([...treeWithPages(['/MediaBox [0 0 9 9]']), `<< /Length 5 0 R >>\nstream\n${data}\nendstream`, '0']);
      const { ours, stock } = await both(pdf);
      expect(ours, JSON.stringify(data)).toEqual(stock);
    }
  });
});
