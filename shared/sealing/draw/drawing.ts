/**
 * Everything the seal draws into one document: a canvas per page, the embedded fonts, the images. Nothing is
 * written into the document until finish(), which paints each canvas onto its page as one zlib-deflated stream.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { PDFName, PDFRawStream, type PDFDocument, type PDFPage, type PDFRef } from 'pdf-lib';
import { DocumentFonts } from '../text/embed.ts';
import { Canvas, namesInUse, paintOnPage } from './canvas.ts';
import { pngPixels } from './png-pixels.ts';

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

/** Colour as the image, alpha (when any pixel is not opaque) as its soft mask. */
function embedPng(doc: PDFDocument, bytes: Uint8Array): { ref: PDFRef; width: number; height: number } {
  const { width, height, rgb, alpha } = pngPixels(bytes);
  const { context } = doc;
  const image = (colorSpace: string, pixelsOf: Buffer) =>
    PDFRawStream.of(context.obj({ Type: 'XObject', Subtype: 'Image', Width: width, Height: height, ColorSpace: colorSpace, BitsPerComponent: 8, Filter: 'FlateDecode' }), deflateSync(pixelsOf, { level: pixelsOf.length > FAST_DEFLATE_BYTES ? 1 : 6 }));
  const main = image('DeviceRGB', rgb);
  if (alpha) main.dict.set(PDFName.of('SMask'), context.register(image('DeviceGray', alpha)));
  return { ref: context.register(main), width, height };
}

/** Past this size pixels are deflated at level 1: a drawn signature's flat colour compresses as well, in a third of the time. */
const FAST_DEFLATE_BYTES = 16_384;
