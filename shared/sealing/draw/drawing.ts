/**
 * Everything the seal draws into one document: a canvas per page, the embedded fonts, the images. Nothing is
 * written into the document until finish(), which paints each canvas onto its page as one zlib-deflated stream.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { PDFName, PDFRawStream, type PDFDocument, type PDFPage, type PDFRef } from 'pdf-lib';
import { PNG } from 'pngjs';
import { DocumentFonts } from '../text/embed.ts';
import { Canvas, namesInUse, paintOnPage } from './canvas.ts';

export class SealDrawing {
  readonly fonts: DocumentFonts;
  private readonly canvases = new Map<PDFPage, Canvas>();
  private readonly images = new Map<string, { ref: PDFRef; width: number; height: number }>();

  constructor(readonly doc: PDFDocument) {
    this.fonts = new DocumentFonts(doc.context);
  }

  /** The canvas drawn over `page` (created on first use). */
  canvas(page: PDFPage): Canvas {
    let canvas = this.canvases.get(page);
    if (!canvas) this.canvases.set(page, (canvas = new Canvas(this.fonts, namesInUse(page))));
    return canvas;
  }

  /** A canvas of its own, for a form XObject. */
  detachedCanvas(): Canvas {
    return new Canvas(this.fonts);
  }

  /** One image XObject per distinct PNG (the same signature is often placed on many pages), alpha as a soft mask. */
  png(bytes: Uint8Array): { ref: PDFRef; width: number; height: number } {
    const key = createHash('sha256').update(bytes).digest('hex');
    let image = this.images.get(key);
    if (!image) this.images.set(key, (image = embedPng(this.doc, bytes)));
    return image;
  }

  /** Paints every canvas onto its page and writes the fonts. Call once, after the last drawing. */
  finish(): void {
    const { context } = this.doc;
    const push = context.register(PDFRawStream.of(context.obj({}), new Uint8Array(Buffer.from('q\n', 'latin1'))));
    for (const [page, canvas] of this.canvases) paintOnPage(page, canvas, context, push);
    this.fonts.write();
  }
}

/** pngjs decodes with Node's zlib (pdf-lib's embedPng inflates and deflates with pure-JS pako). */
function embedPng(doc: PDFDocument, bytes: Uint8Array): { ref: PDFRef; width: number; height: number } {
  const { width, height, data } = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const pixels = width * height;
  const rgb = Buffer.allocUnsafe(pixels * 3);
  const alpha = Buffer.allocUnsafe(pixels);
  let opaque = true;
  for (let i = 0; i < pixels; i++) {
    rgb[i * 3] = data[i * 4] ?? 0;
    rgb[i * 3 + 1] = data[i * 4 + 1] ?? 0;
    rgb[i * 3 + 2] = data[i * 4 + 2] ?? 0;
    alpha[i] = data[i * 4 + 3] ?? 255;
    if (alpha[i] !== 255) opaque = false;
  }
  const { context } = doc;
  const image = (colorSpace: string, pixelsOf: Buffer) =>
    PDFRawStream.of(context.obj({ Type: 'XObject', Subtype: 'Image', Width: width, Height: height, ColorSpace: colorSpace, BitsPerComponent: 8, Filter: 'FlateDecode' }), deflateSync(pixelsOf));
  const main = image('DeviceRGB', rgb);
  if (!opaque) main.dict.set(PDFName.of('SMask'), context.register(image('DeviceGray', alpha)));
  return { ref: context.register(main), width, height };
}
