/**
 * PDFs with text at known places, for text-anchor tests (pdf-lib, generated in memory).
 */
import { PDFDocument, StandardFonts, degrees, rgb, type PDFFont } from 'pdf-lib';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import { addImagePage } from './pdfs.ts';

export type FontName = 'helvetica' | 'helveticaBold' | 'times' | 'courier' | 'dejavu';

export interface Text {
  text: string;
  /** User-space origin of the first glyph (left edge, on the baseline); without it, where the previous text ended. */
  x?: number;
  y?: number;
  size?: number;
  font?: FontName;
  /** Baseline direction in degrees, counter-clockwise, as pdf-lib's drawText takes it. */
  rotate?: number;
  white?: boolean;
}

export interface TextPage {
  texts: Text[];
  size?: [number, number];
  /** /Rotate of the page. */
  rotate?: 0 | 90 | 180 | 270;
  cropBox?: [number, number, number, number];
}

export interface Fonts {
  font(name: FontName): PDFFont;
  /** How far `text` advances as pdf-lib draws it: glyph by glyph (its widthOfTextAtSize applies kerning pairs drawText ignores). */
  advance(name: FontName, text: string, size: number): number;
}

/** A PDF with `pages`, and the fonts it was drawn with (to compute where a glyph landed). */
export async function textPdf(pages: TextPage[]): Promise<{ bytes: Uint8Array; fonts: Fonts }> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const fonts = await embedFonts(doc);
  for (const spec of pages) {
    const page = doc.addPage(spec.size ?? [595, 842]);
    if (spec.rotate) page.setRotation(degrees(spec.rotate));
    if (spec.cropBox) page.setCropBox(...spec.cropBox);
    let end = { x: 0, y: 0 };
    for (const t of spec.texts) {
      const [x, y, size, font] = [t.x ?? end.x, t.y ?? end.y, t.size ?? 12, t.font ?? 'helvetica'];
      page.drawText(t.text, { x, y, size, font: fonts.font(font), rotate: degrees(t.rotate ?? 0), color: t.white ? rgb(1, 1, 1) : rgb(0, 0, 0) });
      end = { x: x + fonts.advance(font, t.text, size), y }; // unrotated text only
    }
  }
  return { bytes: await doc.save(), fonts };
}

async function embedFonts(doc: PDFDocument): Promise<Fonts> {
  // DejaVu Sans, whole (no subset), through fontkit 2 behind pdf-lib's Fontkit interface: text for pdf.js to find.
  doc.registerFontkit({ create: (bytes: Uint8Array) => fontkit.create(Buffer.from(bytes)) } as unknown as Parameters<PDFDocument['registerFontkit']>[0]);
  const dejavu = await doc.embedFont(readFileSync(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')), { subset: false });
  const table: Record<FontName, PDFFont> = {
    helvetica: await doc.embedFont(StandardFonts.Helvetica),
    helveticaBold: await doc.embedFont(StandardFonts.HelveticaBold),
    times: await doc.embedFont(StandardFonts.TimesRoman),
    courier: await doc.embedFont(StandardFonts.Courier),
    dejavu,
  };
  return {
    font: (name) => table[name],
    advance: (name, text, size) => Array.from(text).reduce((sum, char) => sum + table[name].widthOfTextAtSize(char, size), 0),
  };
}

const WORDS = 'the parties agree that this contract binds each signer to the terms set out in every annex hereto'.split(' ');

/**
 * A contract-like document: `pages` A4 pages of `lines` lines of about 90 characters (10 pt Helvetica), the last
 * line of each page ending in `/sig<page>/`; with `imageSide`, each page also carries an incompressible image
 * (132 makes about 50 KB a page: 500 pages, 25 MB).
 */
export async function contractPdf(pages: number, opts: { lines?: number; imageSide?: number } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    if (opts.imageSide) addImagePage(doc, opts.imageSide);
    const page = opts.imageSide ? doc.getPage(p) : doc.addPage([595, 842]);
    const lines = opts.lines ?? 60;
    for (let l = 0; l < lines; l++) {
      let line = '';
      for (let w = p * 7 + l; line.length < 85; w++) line += `${WORDS[w % WORDS.length] ?? ''} `;
      if (l === lines - 1) line += `/sig${String(p + 1)}/`;
      page.drawText(line, { x: 50, y: 800 - l * 12.5, size: 10, font });
    }
  }
  return doc.save();
}
