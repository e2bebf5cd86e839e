/**
 * Line breaking for free text: at spaces, before and after CJK characters, and inside a word only when it must,
 * never inside a cluster (a Devanagari conjunct or a base with its marks stays whole). Widths come from the
 * shaped paragraph, so kerning and conjuncts are measured as drawn.
 */
import type { TextStyle } from './catalog.ts';
import { layoutLine, normalise, type ShapedLine } from './layout.ts';

/** CJK ideographs, kana, Hangul and full-width forms: a line may break before or after any of them. */
const isWide = (ch: string): boolean => /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\u{20000}-\u{3134f}]/u.test(ch);

interface Unit {
  start: number;
  end: number;
  width: number;
  space: boolean;
  wide: boolean;
}

/** Lines no wider than `maxWidth` at `size` (points); every paragraph (line break in `text`) starts a line. */
export async function wrapLines(text: string, style: TextStyle, size: number, maxWidth: number): Promise<ShapedLine[]> {
  const lines: ShapedLine[] = [];
  for (const paragraph of text.normalize('NFC').split(/\r\n|[\n\r\u2028\u2029]/)) {
    const clean = normalise(paragraph);
    const whole = await layoutLine(clean, style);
    if (whole.width * size <= maxWidth && clean.trim() === clean) {
      lines.push(whole); // fits as it is: most values do
      continue;
    }
    const units = clusters(clean, whole);
    for (const [start, end] of breakUnits(units, maxWidth / size)) {
      lines.push(await layoutLine(clean.slice(start, end), style, whole.direction));
    }
  }
  return lines;
}

/** The paragraph's clusters in logical order, each with the advance of its glyphs. */
function clusters(text: string, line: ShapedLine): Unit[] {
  const advance = new Map<number, number>();
  for (const run of line.runs) for (const glyph of run.glyphs) advance.set(glyph.cluster, (advance.get(glyph.cluster) ?? 0) + glyph.xAdvance);
  const starts = [...advance.keys()].sort((a, b) => a - b);
  return starts.map((start, i) => {
    const end = starts[i + 1] ?? text.length;
    const chars = text.slice(start, end);
    return { start, end, width: advance.get(start) ?? 0, space: /^\s+$/.test(chars), wide: isWide(chars) };
  });
}

/** Greedy breaking; returns [start, end) of each line with its outer spaces trimmed. */
function breakUnits(units: Unit[], maxWidth: number): [number, number][] {
  const lines: Unit[][] = [];
  let line: Unit[] = [];
  let breakAt = 0; // index in `line` where it may be broken
  for (const unit of units) {
    while (line.length > 0 && !unit.space && widthOf(line) + unit.width > maxWidth) {
      const cut = breakAt > 0 ? breakAt : line.length;
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
      breakAt = 0;
    }
    if (unit.wide && line.length > 0) breakAt = line.length;
    line.push(unit);
    if (unit.space || unit.wide) breakAt = line.length;
  }
  lines.push(line);
  return lines.map(trimSpaces).filter((l, i) => l.length > 0 || i === 0).map((l) => [l[0]?.start ?? 0, l.at(-1)?.end ?? 0]);
}

const widthOf = (units: Unit[]): number => trimSpaces(units).reduce((sum, u) => sum + u.width, 0);

function trimSpaces(units: Unit[]): Unit[] {
  let start = 0;
  let end = units.length;
  while (start < end && units[start]?.space) start++;
  while (end > start && units[end - 1]?.space) end--;
  return units.slice(start, end);
}
