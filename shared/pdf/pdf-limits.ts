/**
 * What an uploaded PDF may cost us, and the refusals intake answers with (decision 46). Every refusal names its reason
 * (a stable code clients can tell apart) and says in its message which limit or defect it is.
 *
 * The limits keep one upload well inside the 1 GB of the functions that take PDFs (the heap of a process at rest,
 * about 200 MB, plus the upload, its copies, and what pdf.js holds while it reads text): `npm run bench` measures
 * the peak while a bomb and a large real PDF go through intake.
 */

/** Pages of one document; an envelope or template holds at most MAX_ENVELOPE_PAGES together (shared/kernel/model.ts). */
export const MAX_PAGES = 2_000;

/**
 * The bytes a document's streams may decode to, all together. A text-heavy 2,000-page contract decodes to about
 * 40 MB; scanned images are not counted (shared/pdf/streams.ts), as nothing here decodes them. This bounds the time
 * spent inflating (about a second of zlib) and the fonts pdf.js keeps for the whole document while it reads text.
 */
export const MAX_DECODED_BYTES = 256 * 1024 * 1024;

/**
 * One stream that pdf.js reads (page content, a font, a form): it holds the whole of it while it reads, in a buffer
 * grown by doubling, so this bounds what one page costs. Real page contents are a few MB at most.
 */
export const MAX_STREAM_BYTES = 64 * 1024 * 1024;

/** One object stream (or cross-reference stream) decoded while the file is parsed: real ones hold a few hundred objects. */
export const MAX_OBJECT_STREAM_BYTES = 32 * 1024 * 1024;

/** Indirect objects: about 50 a page for a rich 2,000-page document; each costs pdf-lib a few hundred bytes. */
export const MAX_OBJECTS = 500_000;

/** Wall-clock time to read a document's text, well inside the 29 s an API request may take. */
export const TEXT_TIME_LIMIT_MS = 20_000;

export type PdfRejection =
  | 'empty' | 'not_pdf' | 'encrypted' | 'truncated' | 'damaged' | 'no_pages' | 'locked'
  | 'page_limit' | 'decoded_size_limit' | 'object_limit' | 'time_limit' | 'active_content';

/** A refusal raised anywhere in PDF intake; inspectPdf and the text index turn it into a 400 with its reason. */
export class PdfRefused extends Error {
  constructor(
    readonly reason: PdfRejection,
    message: string,
  ) {
    super(message);
    this.name = 'PdfRefused';
  }
}

const mb = (bytes: number) => `${String(Math.round(bytes / 1024 / 1024))} MB`;

export const refused = {
  empty: () => new PdfRefused('empty', 'The file is empty'),
  notPdf: () => new PdfRefused('not_pdf', 'The file is not a PDF (no %PDF header)'),
  encrypted: () =>
    new PdfRefused('encrypted', 'The PDF is encrypted or password-protected; upload an unprotected copy'),
  truncated: (what: string) => new PdfRefused('truncated', `The PDF is truncated or incomplete (${what})`),
  damaged: (what: string) => new PdfRefused('damaged', `The PDF is damaged: ${what}`),
  noPages: () => new PdfRefused('no_pages', 'The PDF has no pages'),
  locked: () => new PdfRefused('locked', 'The PDF is certified with no changes permitted (DocMDP P=1): it cannot be signed or sealed without breaking its certification; upload a copy that is not locked'),
  pages: (count: number | string) =>
    new PdfRefused('page_limit', `The PDF has ${String(count)} pages; a document may have at most ${String(MAX_PAGES)}`),
  decoded: (limit: number, what: 'document' | 'stream' | 'object stream') =>
    new PdfRefused('decoded_size_limit', what === 'document'
      ? `The PDF is refused: its compressed streams decompress to more than ${mb(limit)} together, the limit for one document`
      : `The PDF is refused: one of its ${what}s decompresses to more than ${mb(limit)}, the limit for one ${what}`),
  objects: () => new PdfRefused('object_limit', `The PDF has more than ${String(MAX_OBJECTS)} objects, the limit for one document`),
  time: (limitMs: number) =>
    new PdfRefused('time_limit', `Reading the PDF's text took longer than ${String(limitMs / 1000)} s, the limit for one document`),
  activeContent: (what: string) =>
    new PdfRefused('active_content', `The PDF contains ${what}, which this application does not accept; remove it and upload the document again`),
};
