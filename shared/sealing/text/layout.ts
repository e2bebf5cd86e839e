/**
 * Lines of text ready to draw: split into runs by font (per character, so one value may use several faces),
 * ordered by the Unicode bidi algorithm (bidi-js: UAX #9, MIT), each run shaped by HarfBuzz. A character no
 * face has becomes a box (U+25A1) and is listed in `uncovered`. All measures are in em (multiply by the size).
 */
import * as bidiJs from 'bidi-js';
import type { Bidi } from 'bidi-js';
import { EMOJI_FACE, faceFor, fontFile, hasGlyph, isInvisible, type FontFile, type TextStyle } from './catalog.ts';
import { shape, type ShapedGlyph } from './shaper.ts';

export interface GlyphRun {
  file: FontFile;
  glyphs: ShapedGlyph[];
  /** The logical text the run draws: [start, end) in the line's text. */
  start: number;
  end: number;
  rtl: boolean;
}

export interface ShapedLine {
  /** The logical text the line draws (what text extraction should give back). */
  text: string;
  /** In visual order, left to right. */
  runs: GlyphRun[];
  width: number;
  /** The tallest ascent and deepest descent of the faces used (descent negative). */
  ascent: number;
  descent: number;
  uncovered: string[];
  /** The paragraph's direction (by its first strong character unless given): right-to-left lines align right. */
  direction: 'ltr' | 'rtl';
}

// A CommonJS module to Node and TypeScript, an ES module to esbuild: `.default` is the factory to all three.
const bidi = (bidiJs.default as unknown as () => Bidi)();
const PLACEHOLDER = '\u25a1';
const PLACEHOLDER_FACE = 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf';
/** Noto Sans's metrics: lines of Latin text keep the same height whatever else they hold. */
const BASE_EXTENT = { ascent: 1.069, descent: -0.293 };

/** NFC; line breaks, tabs and other controls as spaces; soft hyphens and byte-order marks dropped. */
export function normalise(text: string): string {
  return text.normalize('NFC').replace(/[\p{Cc}\u2028\u2029]/gu, ' ').replace(/[\u00ad\ufeff]/g, '');
}

interface Item {
  start: number;
  end: number;
  face: string;
  level: number;
  placeholder: boolean;
}

/** Recent layouts: certificate labels and values repeat on every page and every event ("Email", "Actor", ...). */
const recent = new Map<string, Promise<ShapedLine>>();
const RECENT_LIMIT = 512;

/** Lays out one line (line breaks in `text` become spaces). The result is shared: do not change it. */
export function layoutLine(text: string, style: TextStyle, baseDirection: 'ltr' | 'rtl' | 'auto' = 'auto'): Promise<ShapedLine> {
  const key = `${style}\u0000${baseDirection}\u0000${text}`;
  let line = recent.get(key);
  if (!line) {
    if (recent.size >= RECENT_LIMIT) recent.delete(recent.keys().next().value ?? '');
    line = layout(text, style, baseDirection);
    recent.set(key, line);
    line.catch(() => recent.delete(key));
  }
  return line;
}

async function layout(text: string, style: TextStyle, baseDirection: 'ltr' | 'rtl' | 'auto'): Promise<ShapedLine> {
  const clean = normalise(text);
  const { levels, direction } = bidiLevels(clean, baseDirection);
  const items = itemize(clean, style, levels);
  const runs = await Promise.all(items.map((item) => shapeItem(clean, item)));
  const ordered = visualOrder(items.map((item, i) => ({ level: item.level, run: runs[i] ?? { file: fontFile(item.face), glyphs: [], start: item.start, end: item.end, rtl: false } })));
  const faces = new Set(items.map((item) => item.face));
  const uncovered = [...new Set(items.filter((item) => item.placeholder).map((item) => clean.slice(item.start, item.end)))];
  return { text: clean, runs: ordered, width: widthOfRuns(ordered), ...extentOf([...faces]), uncovered, direction };
}

/** Embedding levels, with trailing whitespace at the paragraph level (UAX #9 rule L1). */
function bidiLevels(text: string, baseDirection: 'ltr' | 'rtl' | 'auto'): { levels: Uint8Array; direction: 'ltr' | 'rtl' } {
  const resolved = bidi.getEmbeddingLevels(text, baseDirection);
  const levels = new Uint8Array(resolved.levels);
  const base = resolved.paragraphs[0]?.level ?? (baseDirection === 'rtl' ? 1 : 0);
  for (let i = text.length - 1; i >= 0 && /\s/.test(text[i] ?? ''); i--) levels[i] = base;
  return { levels, direction: base % 2 === 1 ? 'rtl' : 'ltr' };
}

/** Runs of one face and one level. Marks, joiners and common characters stay with the face before them if it has them. */
function itemize(text: string, style: TextStyle, levels: Uint8Array): Item[] {
  const items: Item[] = [];
  let index = 0;
  for (const ch of text) {
    const previous = items.at(-1);
    const level = levels[index] ?? 0;
    // Spaces after an emoji go back to text faces: the emoji face's space is an emoji wide.
    const spaceAfterEmoji = previous?.face === EMOJI_FACE && /\s/.test(ch);
    const sticky = previous && !previous.placeholder && !spaceAfterEmoji && /[\p{M}\p{Script=Common}\p{Script=Inherited}]/u.test(ch) && (isInvisible(ch) || hasGlyph(previous.face, ch));
    let face = sticky ? previous.face : faceFor(style, ch);
    // An invisible character no face maps (a stray joiner) is shaped away by HarfBuzz, never boxed.
    if (face === undefined && isInvisible(ch)) face = previous && !previous.placeholder ? previous.face : PLACEHOLDER_FACE;
    const placeholder = face === undefined;
    const end = index + ch.length;
    if (!placeholder && previous && previous.face === face && previous.level === level && !previous.placeholder) previous.end = end;
    else items.push({ start: index, end, face: face ?? PLACEHOLDER_FACE, level, placeholder });
    index = end;
  }
  return items;
}

async function shapeItem(text: string, item: Item): Promise<GlyphRun> {
  const file = fontFile(item.face);
  const rtl = item.level % 2 === 1;
  const range = { start: item.start, end: item.end, rtl };
  if (!item.placeholder) return { file, glyphs: await shape(file, text, item, rtl ? 'rtl' : 'ltr'), ...range };
  const glyphs = await shape(file, PLACEHOLDER, { start: 0, end: 1 }, 'ltr');
  return { file, glyphs: glyphs.map((glyph) => ({ ...glyph, cluster: item.start })), ...range, rtl: false };
}

/** UAX #9 rule L2 over whole runs: from the highest level down to the lowest odd one, reverse every stretch at or above it. */
function visualOrder(runs: { level: number; run: GlyphRun }[]): GlyphRun[] {
  const order = [...runs];
  const highest = Math.max(0, ...order.map((r) => r.level));
  const lowestOdd = Math.min(...order.map((r) => r.level).filter((level) => level % 2 === 1), highest + 1);
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < order.length; ) {
      if ((order[i]?.level ?? 0) < level) { i++; continue; }
      let j = i;
      while (j < order.length && (order[j]?.level ?? 0) >= level) j++;
      order.splice(i, j - i, ...order.slice(i, j).reverse());
      i = j;
    }
  }
  return order.map((r) => r.run);
}

export const widthOfRuns = (runs: GlyphRun[]): number => runs.reduce((sum, run) => sum + run.glyphs.reduce((w, g) => w + g.xAdvance, 0), 0);

const extents = new Map<string, { ascent: number; descent: number }>();

function extentOf(faces: string[]): { ascent: number; descent: number } {
  let { ascent, descent } = BASE_EXTENT;
  for (const face of faces) {
    let extent = extents.get(face);
    if (!extent) {
      const { font } = fontFile(face);
      extents.set(face, (extent = { ascent: font.ascent / font.unitsPerEm, descent: font.descent / font.unitsPerEm }));
    }
    ascent = Math.max(ascent, extent.ascent);
    descent = Math.min(descent, extent.descent);
  }
  return { ascent, descent };
}

/** The tallest ascent and deepest descent over several lines. */
export function extentOfLines(lines: ShapedLine[]): { ascent: number; descent: number } {
  return {
    ascent: Math.max(BASE_EXTENT.ascent, ...lines.map((l) => l.ascent)),
    descent: Math.min(BASE_EXTENT.descent, ...lines.map((l) => l.descent)),
  };
}
