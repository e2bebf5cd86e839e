/**
 * PDF fixture builders for tests (pdf-lib, generated in memory).
 * The encrypted fixtures are static files under test/fixtures (see encryptedFixture()).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { PDFDocument, PDFName, PDFNumber, concatTransformationMatrix, drawObject, popGraphicsState, pushGraphicsState } from 'pdf-lib';

export interface MakePdfOptions {
  /** Number of pages (default 1). */
  pages?: number;
  /** Size of every page in points (default A4 paper, 595 x 842). */
  size?: [number, number];
  /** Per-page sizes; overrides `pages` and `size` when given. */
  sizes?: [number, number][];
  /** /Rotate written on every page (any number: pdf-lib writes it as-is). */
  rotate?: number;
  /** Crop box [x, y, width, height] written on every page. */
  cropBox?: [number, number, number, number];
  /** false: classic xref table, no object streams; true (pdf-lib's default): XRef stream + object streams. */
  objectStreams?: boolean;
  /** Last chance to edit the document before it is saved. */
  edit?: (doc: PDFDocument) => void;
}

const A4: [number, number] = [595, 842];

/** A valid PDF built with pdf-lib. */
export async function makePdf(opts: MakePdfOptions = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const sizes = opts.sizes ?? Array.from({ length: opts.pages ?? 1 }, () => opts.size ?? A4);
  for (const size of sizes) {
    const page = doc.addPage(size);
    // Written raw: page.setRotation() refuses angles that are not multiples of 90.
    if (opts.rotate !== undefined) page.node.set(PDFName.of('Rotate'), PDFNumber.of(opts.rotate));
    if (opts.cropBox) page.setCropBox(...opts.cropBox);
  }
  opts.edit?.(doc);
  return doc.save({ useObjectStreams: opts.objectStreams ?? true, addDefaultPage: false });
}

const latin1 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

/** Offset given by the file's last `startxref`: where its last cross-reference section starts. */
export function lastXrefOffset(pdf: Uint8Array): number {
  const match = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(latin1(pdf.subarray(Math.max(0, pdf.length - 1024))));
  if (!match?.[1]) throw new Error('not a complete PDF: no startxref at the end');
  return Number(match[1]);
}

/**
 * The PDF cut exactly at the object boundary where its last cross-reference section begins
 * (before `xref`, or before the `N 0 obj` holding the XRef stream): every object survives but
 * there is no xref, trailer or %%EOF. pdf-lib loads such a file without complaint.
 */
export function truncatedAtObjectBoundary(pdf: Uint8Array): Uint8Array {
  return pdf.slice(0, lastXrefOffset(pdf));
}

/**
 * The PDF cut just before the `n`-th last indirect object (`N G obj` at a line start), so that
 * object and everything after it are gone. With a classic-xref PDF from makePdf, n = 1 drops the last page.
 */
export function truncatedBeforeObject(pdf: Uint8Array, n: number): Uint8Array {
  const starts = [...latin1(pdf).matchAll(/(?<=[\r\n])\d+ \d+ obj\b/g)].map((m) => m.index);
  const cut = starts[starts.length - n];
  if (cut === undefined) throw new Error(`the PDF has fewer than ${String(n)} objects`);
  return pdf.slice(0, cut);
}

/** The first `fraction` of the bytes (default: half). */
export function cutAt(pdf: Uint8Array, fraction = 0.5): Uint8Array {
  return pdf.slice(0, Math.floor(pdf.length * fraction));
}

/** The PDF followed by `extra` (e.g. trailing whitespace or garbage as some producers and mailers add). */
export function withTrailing(pdf: Uint8Array, extra: string | Uint8Array): Uint8Array {
  const tail = typeof extra === 'string' ? Buffer.from(extra, 'latin1') : extra;
  return new Uint8Array(Buffer.concat([pdf, tail]));
}

export interface AssembleOptions {
  /** Object number of the catalog (default 1). */
  root?: number;
  /** Extra trailer entries, e.g. "/Encrypt 9 0 R". */
  trailer?: string;
}

/**
 * A classic-xref PDF written by hand from object bodies: objects[i] becomes object i + 1
 * (`${i + 1} 0 obj\n${body}\nendobj`), with a correct xref table, trailer and %%EOF.
 * For structures pdf-lib will not produce: loops, indirect /Length, odd EOLs, broken trees.
 * Bodies are latin1, so binary stream data can be written as \xNN characters.
 */
export function assemblePdf(objects: string[], opts: AssembleOptions = {}): Uint8Array {
  let out = '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n';
  const offsets = objects.map((body, i) => {
    const at = out.length;
    out += `${String(i + 1)} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xrefAt = out.length;
  const entries = offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n \n`).join('');
  out += `xref\n0 ${String(objects.length + 1)}\n0000000000 65535 f \n${entries}`;
  out += `trailer\n<< /Size ${String(objects.length + 1)} /Root ${String(opts.root ?? 1)} 0 R ${opts.trailer ?? ''} >>\n`;
  out += `startxref\n${String(xrefAt)}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

export type EncryptedFixture = 'encrypted.pdf' | 'encrypted-owner-only.pdf';

/**
 * Static encrypted fixtures, made once from `makePdf()` output with qpdf 11:
 *   encrypted.pdf:            qpdf --encrypt user-secret owner-secret 256 -- plain.pdf encrypted.pdf
 *   encrypted-owner-only.pdf: qpdf --encrypt "" owner-secret 128 --use-aes=y -- plain.pdf encrypted-owner-only.pdf
 */
export function encryptedFixture(name: EncryptedFixture): Uint8Array {
  return new Uint8Array(readFileSync(fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url))));
}

/** The first bytes of a real PNG file (signature + IHDR + IDAT + IEND of a 1x1 image). */
export const PNG_1X1 = new Uint8Array(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  ),
);

/**
 * Appends a page carrying one incompressible `side` x `side` RGB image (random bytes), for large-file benchmarks:
 * 500 pages of side 132 make about 25 MB.
 */
export function addImagePage(doc: PDFDocument, side: number): void {
  const image = doc.context.stream(randomBytes(side * side * 3), {
    Type: 'XObject', Subtype: 'Image', Width: side, Height: side, ColorSpace: 'DeviceRGB', BitsPerComponent: 8,
  });
  const page = doc.addPage([595, 842]);
  page.node.setXObject(PDFName.of('Im0'), doc.context.register(image));
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(400, 0, 0, 400, 97, 221), drawObject('Im0'), popGraphicsState());
}
