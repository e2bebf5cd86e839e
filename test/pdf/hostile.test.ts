/**
 * The hostile-PDF corpus at the intake function (inspection, limits, text index): each file refused with its reason,
 * in bounded memory. Over HTTP: test/e2e/hostile-pdfs.test.ts. Memory and time are measured by `npm run bench`.
 */
import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '#shared/kernel/errors.ts';
import { assertDocumentLimits } from '#shared/envelopes/envelope-documents.ts';
import { checkOriginal, type IntakePolicy } from '#shared/envelopes/upload-actions.ts';
import { extractTextIndex } from '#shared/pdf/text-extraction.ts';
import { decodeSync, OverCap } from '#shared/pdf/decode.ts';
import { inspectPdf } from '#shared/pdf/inspect.ts';
import { buildPdf, heavyPagesPdf, HOSTILE, objectStreamBombPdf, pagesPdf, stream, zeroBomb } from '#test/fixtures/hostile/generate.ts';

const MB = 1024 * 1024;
const ids = { envelopeId: 'env', documentId: 'doc', now: new Date('2026-01-01T00:00:00Z'), order: 1 };
const strict: IntakePolicy = { allowActiveContent: false, others: [] };

/** What intake answers for the bytes: accepted (its page count), or the refusal's reason. */
async function intake(bytes: Uint8Array, policy = strict): Promise<{ pageCount: number } | { reason: string | null; message: string }> {
  try {
    return { pageCount: (await checkOriginal({ bytes, filename: 'x.pdf' }, ids, 'file', policy)).document.pageCount };
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return { reason: err.reason, message: err.message };
  }
}

describe('the hostile-PDF corpus at intake', () => {
  for (const item of HOSTILE) {
    it(`refuses ${item.name} with ${item.reason}`, async () => {
      expect(item.status).toBe(400); // a ValidationError
      expect(await intake(item.bytes())).toMatchObject({ reason: item.reason });
    });
  }

  it('builds its bombs small: 2 GB of zeros in about 2 MB, 512 MB in about 0.5 MB', () => {
    const big = HOSTILE.find((h) => h.name === 'bomb-2gb')?.bytes() ?? new Uint8Array();
    expect(big.length).toBeLessThan(2.2 * MB);
    expect(zeroBomb(64 * MB).length).toBeLessThan(70_000);
  });

  it('names the limit in its messages', async () => {
    expect(await intake(HOSTILE[0]?.bytes() ?? new Uint8Array())).toMatchObject({ message: expect.stringContaining('more than 64 MB, the limit for one stream') as unknown });
    expect(await intake(heavyPagesPdf(5, 56 * MB))).toMatchObject({ reason: 'decoded_size_limit', message: expect.stringContaining('more than 256 MB together') as unknown });
    expect(await intake(objectStreamBombPdf(64 * MB))).toMatchObject({ reason: 'decoded_size_limit', message: expect.stringContaining('one of its object streams') as unknown });
    expect(await intake(pagesPdf(2_001))).toMatchObject({ reason: 'page_limit', message: expect.stringContaining('at most 2000') as unknown });
  });
});

describe('PDF intake limits', () => {
  it('accepts 2,000 pages and refuses 2,001 from the declared count, before walking the tree', async () => {
    expect((await inspectPdf(pagesPdf(2_000))).ok).toBe(true);
    expect(await inspectPdf(pagesPdf(2_001))).toMatchObject({ ok: false, reason: 'page_limit' });
  });

  it('refuses a page tree with more than 2,000 pages even when its /Count says fewer', async () => {
    const lying = Buffer.from(pagesPdf(2_001)).toString('latin1').replace('/Count 2001', '/Count    1'); // offsets unchanged
    expect(await inspectPdf(new Uint8Array(Buffer.from(lying, 'latin1')))).toMatchObject({ ok: false, reason: 'page_limit' });
  });

  it('refuses a document that would take the envelope past 10,000 pages, with its own reason', async () => {
    const others = Array.from({ length: 5 }, () => ({ sizeBytes: 1000, pageCount: 2_000 }));
    expect(await intake(pagesPdf(1), { allowActiveContent: false, others })).toMatchObject({ reason: 'total_page_limit', message: expect.stringContaining('at most 10000') as unknown });
    expect(await intake(pagesPdf(1), { allowActiveContent: false, others: others.slice(1) })).toEqual({ pageCount: 1 });
    expect(() => { assertDocumentLimits([...others, { sizeBytes: 1, pageCount: 1 }]); }).toThrow(ValidationError);
  });

  it('accepts active content when the application allows it', async () => {
    for (const name of ['javascript-open-action', 'javascript-name-tree', 'launch-action']) {
      const bytes = HOSTILE.find((h) => h.name === name)?.bytes() ?? new Uint8Array();
      expect(await intake(bytes, { allowActiveContent: true, others: [] }), name).toEqual({ pageCount: 1 });
    }
  });

  it('finds JavaScript in a page\'s additional actions (/AA), its script in a stream', async () => {
    const annotated = buildPdf({
      objects: [
        '<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [4 0 R] /AA << /O << /S /JavaScript /JS 5 0 R >> >> >>',
        '<< /Type /Annot /Subtype /Link /Rect [0 0 10 10] /A << /S /URI /URI (https://example.com) >> >>',
        stream('', Buffer.from('app.alert(1)')),
      ],
    });
    expect(await intake(annotated)).toMatchObject({ reason: 'active_content' });
  });

  it('does not count a Flate image nothing reads for text, but counts the same stream used as page content', async () => {
    const image = stream('/Type /XObject /Subtype /Image /Width 16384 /Height 16384 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode', zeroBomb(256 * MB + 8 * MB));
    const page = (contents: string) => buildPdf({
      objects: [
        '<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${contents} /Resources << /XObject << /Im1 4 0 R >> >> >>`,
        image, stream('', Buffer.from('q 612 0 0 792 0 0 cm /Im1 Do Q')),
      ],
    });
    expect(await intake(page('5 0 R'))).toEqual({ pageCount: 1 });
    expect(await intake(page('4 0 R'))).toMatchObject({ reason: 'decoded_size_limit' });
  });

  it('refuses a predictor whose rows no image has (pdf.js would allocate a row of hundreds of MB first)', async () => {
    const data = zeroBomb(8 * MB).subarray(0, 100);
    const content = stream('/Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 268435455 >>', data);
    expect(await intake(pagesPdf(1, { content }))).toMatchObject({ reason: 'damaged' });
  });

  it('refuses a stream read as content but compressed as an image (pdf.js would run a JPEG decoder on it)', async () => {
    expect(await intake(pagesPdf(1, { content: stream('/Filter /DCTDecode', Buffer.from([0xff, 0xd8, 0xff, 0xd9])) }))).toMatchObject({ reason: 'damaged' });
  });

  it('refuses a corrupt Flate stream (pdf.js would read past what zlib refuses) and accepts a truncated one', async () => {
    const corrupt = Buffer.from([0x78, 0x9c, 0xff, 0xff, 0xff, 0xff, 0xff]);
    expect(await intake(pagesPdf(1, { content: stream('/Filter /FlateDecode', corrupt) }))).toMatchObject({ reason: 'damaged' });
    const whole = zeroBomb(8 * MB);
    const truncated = whole.subarray(0, whole.length - 6); // no final block, no checksum
    expect(await intake(pagesPdf(1, { content: stream('/Filter /FlateDecode', truncated) }))).toEqual({ pageCount: 1 });
  });
});

describe('pdf.js reads only the objects that were checked', () => {
  it('ignores an object the cross-reference table places inside another stream\'s data', async () => {
    const hidden = 'BT /F1 24 Tf 72 700 Td (Hidden) Tj ET';
    const inner = `3 0 obj\n<< /Length ${String(hidden.length)} >>\nstream\n${hidden}\nendstream\nendobj\n`;
    const built = Buffer.from(pagesPdf(1, { content: '<< >>' })).toString('latin1'); // object 3: what pdf-lib sees
    // Object 5 (the page) is followed by a stream holding the hidden object; the table is redirected to it.
    const carrier = `6 0 obj\n<< /Length ${String(inner.length)} >>\nstream\n${inner}\nendstream\nendobj\n`;
    const xrefAt = built.lastIndexOf('\nxref\n') + 1;
    const hiddenAt = xrefAt + carrier.indexOf(inner);
    const table = built.slice(xrefAt).replace('0 6\n', '0 7\n').replace('/Size 6', '/Size 7');
    const rows = table.split('\n');
    rows[5] = `${String(hiddenAt).padStart(10, '0')} 00000 n `; // object 3
    rows.splice(8, 0, `${String(xrefAt).padStart(10, '0')} 00000 n `); // object 6
    const startxref = xrefAt + carrier.length;
    const file = `${built.slice(0, xrefAt)}${carrier}${rows.join('\n').replace(/startxref\n\d+/, `startxref\n${String(startxref)}`)}`;
    const bytes = new Uint8Array(Buffer.from(file, 'latin1'));
    const direct = await extractTextIndex(bytes); // what pdf.js makes of the upload itself
    expect(JSON.stringify(direct.pages)).toContain('Hidden');
    const inspection = await inspectPdf(bytes);
    if (!inspection.ok) throw new Error(inspection.message);
    expect(JSON.stringify((await extractTextIndex(inspection.checked)).pages)).not.toContain('Hidden');
  });
});

describe('bounded decoders', () => {
  it('counts LZW and RunLength output as pdf.js produces it, and stops at the cap', () => {
    const lzw = Buffer.from([0x80, 0x0b, 0x60, 0x50, 0x22, 0x0c, 0x0c, 0x85, 0x01]); // the PDF reference's example: "-----A---B"
    expect(decodeSync('LZWDecode', lzw, 100).length).toBe(10);
    expect(() => decodeSync('LZWDecode', lzw, 9)).toThrow(OverCap);
    const runs = Buffer.from([129, 0x41, 1, 0x42, 0x43, 128]); // 128 x "A", then "BC", then end
    expect(decodeSync('RunLengthDecode', runs, 1000).length).toBe(130);
    expect(() => decodeSync('RunLengthDecode', runs, 129)).toThrow(OverCap);
  });

  it('decodes ASCIIHex and ASCII85 in a filter chain', () => {
    expect(Buffer.from(decodeSync('ASCIIHexDecode', Buffer.from('48 65 6C6C6F>'), 100)).toString()).toBe('Hello');
    expect(Buffer.from(decodeSync('ASCII85Decode', Buffer.from('87cURDZ~>'), 100)).toString()).toBe('Hello');
    expect(decodeSync('ASCII85Decode', Buffer.from('zz~>'), 100).length).toBe(8);
  });
});

describe('text extraction never throws a library error', () => {
  it('turns what pdf.js cannot open into damaged, and stops at its time limit', async () => {
    const noRoot = HOSTILE.find((h) => h.name === 'no-root')?.bytes() ?? new Uint8Array();
    await expect(extractTextIndex(noRoot)).rejects.toMatchObject({ name: 'PdfRefused', reason: 'damaged' });
    await expect(extractTextIndex(pagesPdf(3), { timeLimitMs: 0 })).rejects.toMatchObject({ reason: 'time_limit' });
    expect((await extractTextIndex(pagesPdf(3))).pages).toHaveLength(3);
  });
});
