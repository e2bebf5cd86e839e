/**
 * OpenType shaping with HarfBuzz (harfbuzzjs: the reference shaper compiled to WebAssembly, MIT): Indic conjuncts
 * and reordering, Arabic joining, Thai mark stacking, kerning and ligatures, all from the fonts' own GSUB/GPOS.
 * The WebAssembly module is loaded on the first call only (about 20 ms), so the seal function's cold start
 * does not pay for it.
 */
import type { FontFile } from './catalog.ts';

type HarfBuzz = typeof import('harfbuzzjs');

export interface ShapedGlyph {
  /** Glyph id in the font file. */
  gid: number;
  /** UTF-16 index, in the shaped text, of the first character of the cluster this glyph belongs to. */
  cluster: number;
  /** In em. */
  xAdvance: number;
  xOffset: number;
  yOffset: number;
}

/** harfbuzzjs reads it from beside its module (beside the bundle once deployed: the construct copies it there). */
export const SHAPER_WASM = 'harfbuzzjs/dist/harfbuzz.wasm';

let harfbuzz: Promise<HarfBuzz> | undefined;
const fonts = new Map<string, { font: InstanceType<HarfBuzz['Font']>; upem: number }>();

/** Loads HarfBuzz (once per process); call before shape(). */
export function loadShaper(): Promise<HarfBuzz> {
  harfbuzz ??= import('harfbuzzjs');
  return harfbuzz;
}

function hbFont(hb: HarfBuzz, file: FontFile): { font: InstanceType<HarfBuzz['Font']>; upem: number } {
  let entry = fonts.get(file.path);
  if (!entry) {
    const face = new hb.Face(new hb.Blob(file.bytes));
    entry = { font: new hb.Font(face), upem: file.font.unitsPerEm }; // read once: fontkit recomputes it on every access
    fonts.set(file.path, entry);
  }
  return entry;
}

/**
 * The glyphs of `text.slice(start, end)` in `file`, in visual order (left to right, also for right-to-left text);
 * the rest of `text` is context (an Arabic letter joins its neighbour even across a change of font). Clusters are
 * indices into `text`. The script is guessed from the text, the direction is the bidi algorithm's.
 */
export async function shape(file: FontFile, text: string, range: { start: number; end: number }, direction: 'ltr' | 'rtl'): Promise<ShapedGlyph[]> {
  const hb = await loadShaper();
  const { font, upem } = hbFont(hb, file);
  const buffer = new hb.Buffer(); // freed by harfbuzzjs's FinalizationRegistry
  buffer.addText(text, range.start, range.end - range.start);
  buffer.setDirection(direction === 'rtl' ? hb.Direction.RTL : hb.Direction.LTR);
  // Right-to-left runs are extracted through each glyph's ToUnicode entry, so marks keep clusters of their own there.
  buffer.setClusterLevel(direction === 'rtl' ? hb.ClusterLevel.MONOTONE_CHARACTERS : hb.ClusterLevel.MONOTONE_GRAPHEMES);
  buffer.guessSegmentProperties();
  hb.shape(font, buffer);
  const positions = buffer.getGlyphPositions();
  const em = (units: number): number => units / upem;
  return buffer.getGlyphInfos().map((info, i) => {
    const p = positions[i];
    return { gid: info.codepoint, cluster: info.cluster, xAdvance: em(p?.xAdvance ?? 0), xOffset: em(p?.xOffset ?? 0), yOffset: em(p?.yOffset ?? 0) };
  });
}
