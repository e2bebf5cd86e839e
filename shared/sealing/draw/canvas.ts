/**
 * What the seal draws on a page (or into a form XObject), written as one content stream deflated by Node's zlib,
 * with its own resource names. Text comes as shaped lines: each line is a marked-content span whose /ActualText
 * is the logical text, so extraction and search give back what was typed whatever the glyphs and their order.
 */
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFRef, PDFStream, type PDFContext, type PDFPage } from 'pdf-lib';
import type { DocumentFonts, EmbeddedFace } from '../text/embed.ts';
import { stream } from '../text/embed.ts';
import type { GlyphRun, ShapedLine } from '../text/layout.ts';

export interface Rgb { r: number; g: number; b: number }
export const rgb = (r: number, g: number, b: number): Rgb => ({ r, g, b });

const n = (value: number): string => (Math.abs(value) < 1e-9 ? '0' : String(Math.round(value * 1000) / 1000));
const color = (c: Rgb): string => `${n(c.r)} ${n(c.g)} ${n(c.b)}`;
const hex4 = (v: number): string => v.toString(16).padStart(4, '0');

export class Canvas {
  private readonly ops: string[] = [];
  private readonly fontNames = new Map<EmbeddedFace, string>();
  private readonly xobjectNames = new Map<PDFRef, string>();
  private readonly used: Set<string>;

  /** `taken`: resource names already in use where this canvas is painted; ours never reuse one. */
  constructor(private readonly fonts: DocumentFonts, taken: ReadonlySet<string> = new Set()) {
    this.used = new Set(taken);
  }

  get empty(): boolean { return this.ops.length === 0; }

  raw(...ops: string[]): this { this.ops.push(...ops); return this; }
  save(): this { return this.raw('q'); }
  restore(): this { return this.raw('Q'); }
  transform(a: number, b: number, c: number, d: number, e: number, f: number): this { return this.raw(`${[a, b, c, d, e, f].map(n).join(' ')} cm`); }
  clip(x: number, y: number, width: number, height: number): this { return this.raw(`${n(x)} ${n(y)} ${n(width)} ${n(height)} re W n`); }

  strokeRect(x: number, y: number, width: number, height: number, style: { width: number; color: Rgb }): this {
    return this.raw('q', `${color(style.color)} RG ${n(style.width)} w`, `${n(x)} ${n(y)} ${n(width)} ${n(height)} re S`, 'Q');
  }

  line(from: [number, number], to: [number, number], style: { width: number; color: Rgb }): this {
    return this.raw('q', `${color(style.color)} RG ${n(style.width)} w`, `${n(from[0])} ${n(from[1])} m ${n(to[0])} ${n(to[1])} l S`, 'Q');
  }

  /** A round-capped polyline (a check mark). */
  polyline(points: [number, number][], style: { width: number; color: Rgb }): this {
    const path = points.map(([x, y], i) => `${n(x)} ${n(y)} ${i === 0 ? 'm' : 'l'}`).join(' ');
    return this.raw('q', `${color(style.color)} RG ${n(style.width)} w 1 J 1 j`, `${path} S`, 'Q');
  }

  /** Draws an XObject (image or form) with the matrix [a b c d e f]. */
  xobject(ref: PDFRef, matrix: [number, number, number, number, number, number]): this {
    let name = this.xobjectNames.get(ref);
    if (!name) this.xobjectNames.set(ref, (name = this.freshName('EsX')));
    return this.raw('q', `${matrix.map(n).join(' ')} cm`, `/${name} Do`, 'Q');
  }

  /**
   * One shaped line with its left end of the baseline at (x, y). Text is extracted through each glyph's ToUnicode
   * entry (right-to-left runs too, from glyphs in visual order, as every reader expects), except a left-to-right
   * run whose glyphs are reordered or split (Indic conjuncts and vowel signs): that run is a marked-content span
   * whose /ActualText is its logical text. Spans are kept to those runs: readers take a span as one word.
   */
  text(line: ShapedLine, at: { x: number; y: number; size: number; color?: Rgb }): this {
    if (line.runs.every((run) => run.glyphs.length === 0)) return this;
    this.raw('BT', `${color(at.color ?? rgb(0, 0, 0))} rg`, `1 0 0 1 ${n(at.x)} ${n(at.y)} Tm`);
    const clusterEnds = clusterBoundaries(line);
    const state = { pen: 0, cursor: 0, rise: 0 }; // pen: next origin before offsets; cursor: where the text position is
    for (const run of line.runs) {
      if (run.glyphs.length === 0) continue;
      const face = this.fonts.face(run.file);
      this.raw(`/${this.fontName(face)} ${n(at.size)} Tf`);
      const textOf = (cluster: number) => line.text.slice(cluster, clusterEnds.get(cluster));
      const actual = !run.rtl && !oneGlyphPerCluster(run);
      if (actual) this.raw(`/Span <</ActualText ${PDFHexString.fromText(line.text.slice(run.start, run.end)).toString()}>> BDC`);
      // A span's glyphs stand for no text of their own: the span's /ActualText says it.
      this.glyphs(run, face, at.size, state, actual ? () => undefined : textOf);
      if (actual) this.raw('EMC');
    }
    if (state.rise !== 0) this.raw('0 Ts');
    return this.raw('ET');
  }

  private glyphs(run: GlyphRun, face: EmbeddedFace, size: number, state: { pen: number; cursor: number; rise: number }, textOf: (cluster: number) => string | undefined): void {
    let shown: string[] = [];
    const flush = () => { if (shown.length > 0) this.raw(`[${shown.join('')}] TJ`); shown = []; };
    const carriers = textCarriers(run);
    for (const [i, glyph] of run.glyphs.entries()) {
      const cid = face.cid(glyph.gid, carriers.has(i) ? textOf(glyph.cluster) : undefined);
      if (glyph.yOffset !== state.rise) {
        flush();
        state.rise = glyph.yOffset;
        this.raw(`${n(state.rise * size)} Ts`);
      }
      const shift = state.pen + glyph.xOffset - state.cursor;
      if (Math.abs(shift) > 1e-6) shown.push(n(-shift * 1000));
      shown.push(`<${hex4(cid)}>`);
      state.cursor = state.pen + glyph.xOffset + face.advance(glyph.gid) / 1000;
      state.pen += glyph.xAdvance;
    }
    flush();
  }

  /** The content stream (registered) and the resources it names. */
  finish(context: PDFContext, prefix: string[] = []): { contents: PDFRef; fonts: Map<string, PDFRef>; xobjects: Map<string, PDFRef> } {
    const contents = context.register(stream(context, Buffer.from([...prefix, ...this.ops].join('\n'), 'latin1')));
    const fonts = new Map([...this.fontNames].map(([face, name]) => [name, face.ref]));
    const xobjects = new Map([...this.xobjectNames].map(([ref, name]) => [name, ref]));
    return { contents, fonts, xobjects };
  }

  private fontName(face: EmbeddedFace): string {
    let name = this.fontNames.get(face);
    if (!name) this.fontNames.set(face, (name = this.freshName('EsF')));
    return name;
  }

  /**
   * A name no content of the page already uses: an earlier seal (ours, or another tool's) drew with names of its own,
   * and giving one of them to another object would change how that signed content looks.
   */
  private freshName(prefix: string): string {
    let index = 0;
    while (this.used.has(`${prefix}${String(index)}`)) index++;
    const name = `${prefix}${String(index)}`;
    this.used.add(name);
    return name;
  }
}

/** True when the glyphs follow the text one cluster each, in order: ToUnicode alone extracts them right. */
function oneGlyphPerCluster(run: GlyphRun): boolean {
  return run.glyphs.every((glyph, i) => i === 0 || glyph.cluster > (run.glyphs[i - 1]?.cluster ?? -1));
}

/** Per cluster, the glyph that carries its text for ToUnicode: the widest (the base letter, not a dot or a mark). */
function textCarriers(run: GlyphRun): Set<number> {
  const best = new Map<number, number>();
  run.glyphs.forEach((glyph, i) => {
    const current = best.get(glyph.cluster);
    if (current === undefined || glyph.xAdvance > (run.glyphs[current]?.xAdvance ?? 0)) best.set(glyph.cluster, i);
  });
  return new Set(best.values());
}

const boundaries = new WeakMap<ShapedLine, Map<number, number>>();

/** Where each cluster's text ends (the next cluster start in logical order); lines are shared, so this is kept. */
function clusterBoundaries(line: ShapedLine): Map<number, number> {
  let ends = boundaries.get(line);
  if (!ends) {
    const starts = [...new Set(line.runs.flatMap((run) => run.glyphs.map((g) => g.cluster)))].sort((a, b) => a - b);
    boundaries.set(line, (ends = new Map(starts.map((start, i) => [start, starts[i + 1] ?? line.text.length]))));
  }
  return ends;
}

/**
 * Draws the canvas over an existing page: the page's own content is wrapped in q ... Q (`push` is a shared stream
 * holding `q`) so nothing it leaves in the graphics state moves ours, and the page gets a resource dictionary of
 * its own (a shared one stays untouched).
 */
export function paintOnPage(page: PDFPage, canvas: Canvas, context: PDFContext, push: PDFRef): void {
  if (canvas.empty) return;
  const { contents, fonts, xobjects } = canvas.finish(context, ['Q']);
  const node = page.node;
  const old = node.get(PDFName.of('Contents'));
  const resolved = old instanceof PDFRef ? context.lookup(old) : old;
  const previous = resolved instanceof PDFArray ? resolved.asArray() : old ? [old] : [];
  node.set(PDFName.of('Contents'), context.obj([push, ...previous, contents]));
  node.set(PDFName.of('Resources'), withResources(context, inheritedResources(page), fonts, xobjects));
}

const RESOURCE_KINDS = ['Font', 'XObject', 'ExtGState', 'ColorSpace', 'Pattern', 'Shading', 'Properties'].map((kind) => PDFName.of(kind));
/** A hostile file may nest forms without end: the walk stops after this many resource dictionaries. */
const MAX_RESOURCE_DICTS = 5000;

/**
 * Every resource name the page's content can reach: its (inherited) resources first, whose names alone could be
 * overwritten (a form without /Resources of its own reads the page's), then, recursively, those of the form XObjects
 * they hold, so that no name of ours means two things anywhere on the page.
 */
export function namesInUse(page: PDFPage): Set<string> {
  const names = new Set<string>();
  const seen = new Set<PDFDict>();
  const pending = [inheritedResources(page)];
  while (pending.length > 0 && seen.size < MAX_RESOURCE_DICTS) {
    const resources = pending.shift();
    if (!resources || seen.has(resources)) continue;
    seen.add(resources);
    for (const kind of RESOURCE_KINDS) {
      for (const [name, value] of resources.lookupMaybe(kind, PDFDict)?.entries() ?? []) {
        names.add(name.decodeText());
        const object = value instanceof PDFRef ? page.doc.context.lookup(value) : value;
        if (kind === PDFName.of('XObject') && object instanceof PDFStream) pending.push(object.dict.lookupMaybe(PDFName.of('Resources'), PDFDict));
      }
    }
  }
  return names;
}

function inheritedResources(page: PDFPage): PDFDict | undefined {
  for (let node: PDFDict | undefined = page.node; node; node = node.lookupMaybe(PDFName.of('Parent'), PDFDict)) {
    const resources = node.lookup(PDFName.of('Resources'));
    if (resources instanceof PDFDict) return resources;
  }
  return undefined;
}

/** A copy of `base` (one level deep for /Font and /XObject) with our names added. */
export function withResources(context: PDFContext, base: PDFDict | undefined, fonts: Map<string, PDFRef>, xobjects: Map<string, PDFRef>): PDFDict {
  const copy = context.obj({});
  for (const [key, value] of base?.entries() ?? []) copy.set(key, value);
  const merge = (key: string, entries: Map<string, PDFRef>) => {
    if (entries.size === 0) return;
    const existing = copy.lookup(PDFName.of(key));
    const dict = context.obj({});
    if (existing instanceof PDFDict) for (const [k, v] of existing.entries()) dict.set(k, v);
    for (const [name, ref] of entries) {
      // Overwriting a name would redraw earlier (maybe signed) content with our object: Canvas never picks one in use.
      if (dict.has(PDFName.of(name))) throw new Error(`resource name /${name} is already in use on this page`);
      dict.set(PDFName.of(name), ref);
    }
    copy.set(PDFName.of(key), dict);
  };
  merge('Font', fonts);
  merge('XObject', xobjects);
  return copy;
}
