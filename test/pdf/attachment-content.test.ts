/** A signer's file is judged by its content: what it claims by its first bytes, then whether it reads whole. */
import { describe, expect, it } from 'vitest';
import { checkAttachmentContent, sniffFormat } from '#shared/attachments/attachment-content.ts';
import { cutAt, makePdf, withTrailing } from '#test/support/pdfs.ts';
import { jpegImage, pngImage } from '#test/support/attachment-files.ts';

const ALL = ['pdf', 'png', 'jpeg'] as const;
const text = (s: string) => new TextEncoder().encode(s);

describe('sniffFormat', () => {
  it('tells PDF, PNG and JPEG by their first bytes, a PDF header after junk too, and nothing else', async () => {
    expect(sniffFormat(pngImage())).toBe('png');
    expect(sniffFormat(jpegImage())).toBe('jpeg');
    expect(sniffFormat(await makePdf())).toBe('pdf');
    expect(sniffFormat(new Uint8Array([...text('junk before the header\n'), ...(await makePdf())]))).toBe('pdf');
    expect(sniffFormat(text('a text file named photo.png'))).toBeNull();
    expect(sniffFormat(text('GIF89a......'))).toBeNull();
    expect(sniffFormat(new Uint8Array(0))).toBeNull();
  });
});

describe('checkAttachmentContent', () => {
  it('accepts whole files of an accepted format, with their MIME type', async () => {
    expect(await checkAttachmentContent(pngImage(), ALL)).toEqual({ ok: true, format: 'png', mimeType: 'image/png' });
    expect(await checkAttachmentContent(jpegImage(), ALL)).toEqual({ ok: true, format: 'jpeg', mimeType: 'image/jpeg' });
    expect(await checkAttachmentContent(await makePdf({ pages: 2 }), ['pdf'])).toEqual({ ok: true, format: 'pdf', mimeType: 'application/pdf' });
  });

  it('refuses text named as an image, and a real format the field does not accept', async () => {
    expect(await checkAttachmentContent(text('hello'), ALL)).toMatchObject({ ok: false, reason: 'attachment_unrecognised' });
    expect(await checkAttachmentContent(pngImage(), ['pdf', 'jpeg'])).toMatchObject({ ok: false, reason: 'attachment_not_accepted' });
    expect(await checkAttachmentContent(await makePdf(), ['png'])).toMatchObject({ ok: false, reason: 'attachment_not_accepted' });
  });

  it('refuses images that do not decode: cut short, a broken checksum, a header and nothing else', async () => {
    const png = pngImage(50, 50);
    expect(await checkAttachmentContent(png.subarray(0, png.byteLength - 30), ALL)).toMatchObject({ ok: false, reason: 'attachment_damaged' });
    const flipped = new Uint8Array(png);
    flipped[40] = (flipped[40] ?? 0) ^ 0xff; // inside the first IDAT: its CRC no longer matches
    expect(await checkAttachmentContent(flipped, ALL)).toMatchObject({ ok: false, reason: 'attachment_damaged' });
    expect(await checkAttachmentContent(png.subarray(0, 33), ALL)).toMatchObject({ ok: false, reason: 'attachment_damaged' });
    const jpg = jpegImage(64, 64);
    expect(await checkAttachmentContent(jpg.subarray(0, jpg.byteLength / 2), ALL)).toMatchObject({ ok: false, reason: 'attachment_damaged' });
    expect(await checkAttachmentContent(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0]), ALL)).toMatchObject({ ok: false, reason: 'attachment_damaged' });
  });

  it('refuses an image declaring more than 40 megapixels before decoding it', async () => {
    const png = new Uint8Array(pngImage(4, 4));
    new DataView(png.buffer).setUint32(16, 10_000); // IHDR width
    new DataView(png.buffer).setUint32(20, 10_000); // IHDR height
    expect(await checkAttachmentContent(png, ALL)).toMatchObject({ ok: false, reason: 'attachment_damaged', message: expect.stringContaining('megapixels') as unknown });
  });

  it('checks a PDF as an original is checked: cut short, or with JavaScript, is refused', async () => {
    const cut = await checkAttachmentContent(cutAt(await makePdf({ pages: 3 }), 0.5), ALL);
    expect(cut.ok).toBe(false);
    const withScript = await makePdf({ edit: (doc) => { doc.addJavaScript('hello', 'app.alert("hi")'); } });
    expect(await checkAttachmentContent(withScript, ALL)).toMatchObject({ ok: false, reason: 'active_content' });
    expect((await checkAttachmentContent(withTrailing(await makePdf(), '\n'), ALL)).ok).toBe(true);
  });
});
