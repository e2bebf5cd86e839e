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
  private readonly subset: Subset;
  private readonly toUnicode = new Map<number, string>();
  private readonly widths = new Map<number, number>();
  private readonly cids = new Map<string, number>();
  /** CID -> glyph id in the subset; CID 0 is .notdef. */
  private readonly toGlyph: number[] = [0];

  constructor(context: PDFContext, readonly file: FontFile) {
    this.ref = context.nextRef();
    this.subset = (file.font as unknown as { createSubset(): Subset }).createSubset();
  }

  /** The CID that draws glyph `gid` standing for `text` (undefined: for no text of its own, a mark or a glyph in a span). */
  cid(gid: number, text: string | undefined): number {
    const key = `${String(gid)}\u0000${text ?? ''}`;
    let cid = this.cids.get(key);
    if (cid === undefined) {
      cid = this.toGlyph.length;
      this.cids.set(key, cid);
      this.toGlyph.push(this.subset.includeGlyph(gid));
      this.widths.set(cid, this.advance(gid));
      if (text) this.toUnicode.set(cid, text);
    }
    return cid;
  }

  /** The glyph's width as the /W array declares it, in thousandths of an em. */
  advance(gid: number): number {
    const { font } = this.file;
    return Math.round((font.getGlyph(gid).advanceWidth * 1000) / font.unitsPerEm);
  }

  /** Writes the font's objects into the reserved reference. */
  write(context: PDFContext): void {
    const { font } = this.file;
    const name = `${subsetTag()}+${(font.postscriptName || 'Font').replace(/[^\x21-\x7e]|[()<>[\]{}/%#]/g, '')}`;
    const data = this.subset.encode();
    const file = stream(context, data, { Length1: data.length });
    const scale = 1000 / font.unitsPerEm;
    const box = font.bbox;
    const descriptor = context.obj({
      Type: 'FontDescriptor', FontName: name, Flags: 4, ItalicAngle: font.italicAngle,
      FontBBox: [box.minX, box.minY, box.maxX, box.maxY].map((v) => Math.round(v * scale)),
      Ascent: Math.round(font.ascent * scale), Descent: Math.round(font.descent * scale),
      CapHeight: Math.round((font.capHeight || font.ascent) * scale), StemV: 80,
    });
    descriptor.set(PDFName.of('FontFile2'), context.register(file));
    const cidFont = context.obj({
      Type: 'Font', Subtype: 'CIDFontType2', BaseFont: name,
      CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 },
      W: widthArray(this.widths),
    });
    const toGlyph = Buffer.alloc(this.toGlyph.length * 2);
    this.toGlyph.forEach((glyph, cid) => toGlyph.writeUInt16BE(glyph, cid * 2));
    cidFont.set(PDFName.of('CIDToGIDMap'), context.register(stream(context, toGlyph)));
    cidFont.set(PDFName.of('FontDescriptor'), context.register(descriptor));
    const type0 = context.obj({ Type: 'Font', Subtype: 'Type0', BaseFont: name, Encoding: 'Identity-H' });
    type0.set(PDFName.of('DescendantFonts'), context.obj([context.register(cidFont)]));
    type0.set(PDFName.of('ToUnicode'), context.register(stream(context, Buffer.from(toUnicodeCMap(this.toUnicode), 'latin1'))));
    context.assign(this.ref, type0);
  }
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

/** A FlateDecode stream deflated by Node's zlib (pdf-lib would use pure-JS pako). */
export function stream(context: PDFContext, data: Uint8Array, extra: Record<string, number> = {}): PDFRawStream {
  const dict = context.obj({ Filter: 'FlateDecode', ...extra });
  return PDFRawStream.of(dict, deflateSync(data));
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

