/**
 * What a signer's file is, told by its content (never by its name or the browser's type), and whether it is whole:
 * a PDF goes through the same intake checks as an envelope's original (shared/pdf/inspect.ts); a PNG is decoded by
 * pngjs (every chunk's CRC, the zlib stream, the filters); a JPEG by jpeg-js (every marker segment and the entropy-coded
 * data). Both decoders are bounded by pixels before they allocate, so a small file declaring a huge canvas is refused.
 */
import type { PdfRejection } from '#shared/pdf/inspect.ts';
import type { AttachmentFormat } from '../kernel/model.ts';
import { MIME_TYPES } from './attachment-formats.ts';

export type AttachmentRefusal = 'attachment_unrecognised' | 'attachment_not_accepted' | 'attachment_damaged' | PdfRejection;

export type ContentCheck =
  | { ok: true; format: AttachmentFormat; mimeType: string }
  | { ok: false; reason: AttachmentRefusal; message: string };


/** An image may have at most this many pixels: a 40 MP photo decodes to 160 MB of RGBA, within the function's memory. */
export const MAX_ATTACHMENT_MEGAPIXELS = 40;
const MAX_DECODE_MB = 256;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => prefix.every((b, i) => bytes[i] === b);

/** The format the bytes claim by their signature: a PDF's header may follow up to 1 KB of junk, as readers allow. */
export function sniffFormat(bytes: Uint8Array): AttachmentFormat | null {
  if (startsWith(bytes, PNG_SIGNATURE)) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (Buffer.from(bytes.subarray(0, 1024)).includes('%PDF-', 0, 'latin1')) return 'pdf';
  return null;
}

async function checkPng(bytes: Uint8Array): Promise<string | null> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length < 24 || buffer.toString('latin1', 12, 16) !== 'IHDR') return 'is not a whole PNG image (no header chunk)';
  const width = buffer.readUInt32BE(16);
  const height = buffer.readUInt32BE(20);
  if (width === 0 || height === 0) return 'is a PNG image without pixels';
  if (width * height > MAX_ATTACHMENT_MEGAPIXELS * 1_000_000) return `is an image over ${String(MAX_ATTACHMENT_MEGAPIXELS)} megapixels`;
  const { PNG } = await import('pngjs');
  try {
    PNG.sync.read(buffer);
    return null;
  } catch (error) {
    return `is a damaged PNG image (${(error as Error).message})`;
  }
}

async function checkJpeg(bytes: Uint8Array): Promise<string | null> {
  const { default: jpeg } = await import('jpeg-js');
  try {
    const image = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: false, tolerantDecoding: false, maxResolutionInMP: MAX_ATTACHMENT_MEGAPIXELS, maxMemoryUsageInMB: MAX_DECODE_MB });
    return image.width > 0 && image.height > 0 ? null : 'is a JPEG image without pixels';
  } catch (error) {
    const message = (error as Error).message;
    return /maxResolutionInMP|memory/i.test(message) ? `is an image over ${String(MAX_ATTACHMENT_MEGAPIXELS)} megapixels` : `is a damaged JPEG image (${message})`;
  }
}

/** Checks a signer's file against the field's accepted formats; never throws. Active content in a PDF is always refused: the file comes from a signer, not the application. */
export async function checkAttachmentContent(bytes: Uint8Array, accept: readonly AttachmentFormat[]): Promise<ContentCheck> {
  const format = sniffFormat(bytes);
  if (!format) return { ok: false, reason: 'attachment_unrecognised', message: 'The file is not a PDF, PNG or JPEG (judged by its content, not its name)' };
  if (!accept.includes(format)) return { ok: false, reason: 'attachment_not_accepted', message: `The file is a ${format.toUpperCase()}; this field accepts ${accept.map((f) => f.toUpperCase()).join(', ')}` };
  if (format === 'pdf') {
    const { inspectPdf } = await import('#shared/pdf/inspect.ts');
    const inspection = await inspectPdf(bytes, { allowActiveContent: false });
    return inspection.ok ? { ok: true, format, mimeType: MIME_TYPES.pdf } : { ok: false, reason: inspection.reason, message: inspection.message };
  }
  // Each decoder is loaded for the format it reads, like the PDF checks: no signing route's cold start pays for them.
  const problem = format === 'png' ? await checkPng(bytes) : await checkJpeg(bytes);
  return problem ? { ok: false, reason: 'attachment_damaged', message: `The file ${problem}` } : { ok: true, format, mimeType: MIME_TYPES[format] };
}
