/**
 * Fonts embedded in one document as subsets: each face a Type0 font with Identity-H encoding over a CIDFontType2,
 * so the shaper's glyphs (conjuncts, contextual forms, ligatures) are drawn as shaped, not re-derived from
 * characters. A CID is a glyph *with the text it stands for*: one glyph drawn for two texts (Arabic and Persian
 * yeh share their final form) gets two CIDs, each with its own ToUnicode entry, both mapped to the one glyph.
 * Every font the seal draws with is embedded (PDF/A and even spacing in every viewer); streams deflate with zlib.
 */
import { randomInt } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { PDFName, PDFRawStream, PDFString, type PDFContext, type PDFRef } from 'pdf-lib';
import type { FontFile } from './catalog.ts';

interface Subset {
  includeGlyph(glyph: number): number;
  encode(): Uint8Array;
}

export class EmbeddedFace {
  readonly ref: PDFRef;
  private readonly toUnicode = new Map<number, string>();
  private readonly widths = new Map<number, number>();
  private readonly cids = new Map<string, number>();
  /** CID -> glyph id in the font file; CID 0 is .notdef. */
  private readonly toGlyph: number[] = [0];

  constructor(context: PDFContext, readonly file: FontFile) {
    this.ref = context.nextRef();
  }

  /** The CID that draws glyph `gid` standing for `text` (undefined: for no text of its own, a mark or a glyph in a span). */
  cid(gid: number, text: string | undefined): number {
    const key = `${String(gid)}\u0000${text ?? ''}`;
    let cid = this.cids.get(key);
    if (cid === undefined) {
      cid = this.toGlyph.length;
      this.cids.set(key, cid);
      this.toGlyph.push(gid);
      this.widths.set(cid, this.advance(gid));
      if (text) this.toUnicode.set(cid, text);
    }
    return cid;
  }

  /** The glyph's width as the /W array declares it, in thousandths of an em. */
  advance(gid: number): number {
    return advanceOf(this.file, gid);
  }

  /** Writes the font's objects into the reserved reference. */
  write(context: PDFContext): void {
    const { font } = this.file;
    const name = `${subsetTag()}+${(font.postscriptName || 'Font').replace(/[^\x21-\x7e]|[()<>[\]{}/%#]/g, '')}`;
    const { file, subsetGlyph } = subsetOf(this.file, this.toGlyph);
    const scale = 1000 / font.unitsPerEm;
    const box = font.bbox;
    const descriptor = context.obj({
      Type: 'FontDescriptor', FontName: name, Flags: 4, ItalicAngle: font.italicAngle,
      FontBBox: [box.minX, box.minY, box.maxX, box.maxY].map((v) => Math.round(v * scale)),
      Ascent: Math.round(font.ascent * scale), Descent: Math.round(font.descent * scale),
      CapHeight: Math.round((font.capHeight || font.ascent) * scale), StemV: 80,
    });
    descriptor.set(PDFName.of('FontFile2'), context.register(PDFRawStream.of(context.obj({ Filter: 'FlateDecode', Length1: file.length }), file.deflated)));
    const cidFont = context.obj({
      Type: 'Font', Subtype: 'CIDFontType2', BaseFont: name,
      CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 },
      W: widthArray(this.widths),
    });
    const toGlyph = Buffer.alloc(this.toGlyph.length * 2);
    this.toGlyph.forEach((glyph, cid) => toGlyph.writeUInt16BE(subsetGlyph.get(glyph) ?? 0, cid * 2));
    cidFont.set(PDFName.of('CIDToGIDMap'), context.register(stream(context, toGlyph)));
    cidFont.set(PDFName.of('FontDescriptor'), context.register(descriptor));
    const type0 = context.obj({ Type: 'Font', Subtype: 'Type0', BaseFont: name, Encoding: 'Identity-H' });
    type0.set(PDFName.of('DescendantFonts'), context.obj([context.register(cidFont)]));
    type0.set(PDFName.of('ToUnicode'), context.register(stream(context, Buffer.from(toUnicodeCMap(this.toUnicode), 'latin1'))));
    context.assign(this.ref, type0);
  }
}

const advances = new WeakMap<FontFile, Map<number, number>>();

/** Advance widths by glyph, kept per font file: fontkit builds a glyph object on every getGlyph(). */
function advanceOf(file: FontFile, gid: number): number {
  let widths = advances.get(file);
  if (!widths) advances.set(file, (widths = new Map<number, number>()));
  let width = widths.get(gid);
  if (width === undefined) widths.set(gid, (width = Math.round((file.font.getGlyph(gid).advanceWidth * 1000) / file.font.unitsPerEm)));
  return width;
}

interface EncodedSubset {
  file: { deflated: Uint8Array; length: number };
  /** Glyph id in the font file -> glyph id in the subset. */
  subsetGlyph: Map<number, number>;
}

/**
 * Encoded subsets by face and glyph set: encoding and deflating one costs milliseconds, and the certificate pages
 * of one seal and the next mostly use the same glyphs (the Latin text faces always take all of printable ASCII,
 * so that documents in ASCII share one subset).
 */
const subsets = new Map<string, EncodedSubset>();
const SUBSET_CACHE = 32;
const ASCII = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).join('');

function subsetOf(file: FontFile, glyphs: number[]): EncodedSubset {
  const base = /NotoSans_[47]00/.test(file.path) ? file.font.glyphsForString(ASCII).map((g) => g.id) : [];
  const set = [...new Set([0, ...base, ...glyphs])].sort((a, b) => a - b);
  const key = `${file.path}\u0000${set.join(',')}`;
  let cached = subsets.get(key);
  if (!cached) {
    const subset = (file.font as unknown as { createSubset(): Subset }).createSubset();
    const subsetGlyph = new Map(set.map((gid) => [gid, subset.includeGlyph(gid)]));
    const data = subset.encode();
    cached = { file: { deflated: deflateSync(data, { level: 1 }), length: data.length }, subsetGlyph };
    if (subsets.size >= SUBSET_CACHE) subsets.delete(subsets.keys().next().value ?? '');
    subsets.set(key, cached);
  }
  return cached;
}

/** The faces one document draws with. */
export class DocumentFonts {
  private readonly faces = new Map<string, EmbeddedFace>();

  constructor(private readonly context: PDFContext) {}

  face(file: FontFile): EmbeddedFace {
    let face = this.faces.get(file.path);
    if (!face) this.faces.set(file.path, (face = new EmbeddedFace(this.context, file)));
    return face;
  }

  /** Writes every face used; call once, after the last drawing. */
  write(): void {
    for (const face of this.faces.values()) face.write(this.context);
  }
}

/** Past this size a stream is deflated at level 1: font subsets compress a few percent less, in a third of the time. */
const FAST_DEFLATE_BYTES = 16_384;

/** A FlateDecode stream deflated by Node's zlib (pdf-lib would use pure-JS pako). */
export function stream(context: PDFContext, data: Uint8Array, extra: Record<string, number> = {}): PDFRawStream {
  const dict = context.obj({ Filter: 'FlateDecode', ...extra });
  return PDFRawStream.of(dict, deflateSync(data, { level: data.length > FAST_DEFLATE_BYTES ? 1 : 6 }));
}

/** A subset's name starts with a six-letter tag (ISO 32000-1 §9.6.4), which pdffonts and PDF/A checks expect. */
const subsetTag = (): string => Array.from({ length: 6 }, () => String.fromCharCode(65 + randomInt(26))).join('');

/** /W as runs of consecutive CIDs: [first [w1 w2 ...] first [...] ...]. */
function widthArray(widths: Map<number, number>): (number | number[])[] {
  const out: (number | number[])[] = [];
  let run: number[] = [];
  let first = -1;
  let last = -2;
  for (const cid of [...widths.keys()].sort((a, b) => a - b)) {
    if (cid !== last + 1 && run.length > 0) {
      out.push(first, run);
      run = [];
    }
    if (run.length === 0) first = cid;
    run.push(widths.get(cid) ?? 0);
    last = cid;
  }
  if (run.length > 0) out.push(first, run);
  return out;
}

const hex4 = (n: number): string => n.toString(16).padStart(4, '0');
const utf16Hex = (text: string): string => Array.from({ length: text.length }, (_, i) => hex4(text.charCodeAt(i))).join('');

function toUnicodeCMap(map: Map<number, string>): string {
  const entries = [...map.entries()].sort(([a], [b]) => a - b);
  const blocks: string[] = [];
  for (let i = 0; i < entries.length; i += 100) {
    const chunk = entries.slice(i, i + 100);
    blocks.push(`${String(chunk.length)} beginbfchar\n${chunk.map(([cid, text]) => `<${hex4(cid)}> <${utf16Hex(text)}>`).join('\n')}\nendbfchar`);
  }
  return [
    '/CIDInit /ProcSet findresource begin', '12 dict begin', 'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def', '/CMapName /Adobe-Identity-UCS def', '/CMapType 2 def',
    '1 begincodespacerange', '<0000> <FFFF>', 'endcodespacerange', ...blocks,
    'endcmap', 'CMapName currentdict /CMap defineresource pop', 'end', 'end',
  ].join('\n');
}

