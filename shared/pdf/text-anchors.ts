/**
 * Text anchors (decision 17): integrators print a marker such as `/sig1/` (often in white) in their generated
 * PDFs and place fields by it, like DocuSign anchor tabs.
 *
 * extractTextIndex (text-extraction.ts, which loads pdf.js) runs once at upload: pdf.js's text content, reduced to what anchor search needs (the text of
 * each line and where its runs start, in PDF user space) and stored as JSON beside the PDF. findAnchor is then a
 * pure lookup in that index, answering in displayed page coordinates (see shared/envelopes/field-placement.ts).
 */
import type { PageGeometry } from '#shared/kernel/model.ts';

/** What anchor search needs of a document's text. Compact JSON: a dense 500-page contract stays a few MB. */
export interface TextIndex {
  /** Shape version; an index of another version is rejected by findAnchor (extract it again). */
  v: 1;
  /** pages[i]: the lines of page i + 1 in content-stream order. Shorter than the document when truncated. */
  pages: TextLine[][];
  /** Set when the document has more than MAX_INDEX_CHARS of text: pages from pages.length + 1 on are not indexed. */
  truncated?: true;
}

/**
 * pdf.js text items that follow each other on one baseline, in one direction, joined into one string, so an anchor
 * split across items (a font change inside it, separate drawing calls) is still found. Numbers are points in PDF
 * user space, rounded to 0.01.
 */
export interface TextLine {
  /** The runs' text; a space where pdf.js saw a gap between them. */
  t: string;
  /** Origin of the first run: left edge of its first glyph, on its baseline. */
  x: number;
  y: number;
  /** Per run, flattened: [index of its first character in t, distance of its origin from (x, y) along d, its advance]. */
  r: number[];
  /** Unit baseline direction, when not [1, 0] (rotated text). */
  d?: [number, number];
  /** Per run, the shape of its glyph widths when not all sans-serif: 's' sans-serif, 'r' serif, 'm' monospace. */
  f?: string;
}

export interface Anchor {
  text: string;
  /** Added to the anchor's origin, in points of PDF user space. */
  offsetX?: number;
  offsetY?: number;
  occurrence?: 'all' | 'first';
}

/** A field's bottom-left corner in displayed page coordinates (crop box turned by /Rotate, origin bottom-left). */
export interface AnchorPosition {
  page: number;
  x: number;
  y: number;
}

/**
 * About 550 pages of dense 10 pt text (5,400 characters a page), a JSON index of about 4 MB (1.4 bytes a
 * character); text beyond it is not indexed (`truncated`).
 */
export const MAX_INDEX_CHARS = 3_000_000;

// ---------------------------------------------------------------------------------------------
// Search.

/**
 * Every non-overlapping occurrence of `anchor.text` (case-sensitive; runs of whitespace match one space), or the
 * first, in page order then content-stream order: the anchor's origin plus the offsets, as displayed.
 */
export function findAnchor(index: TextIndex, pages: PageGeometry[], anchor: Anchor): AnchorPosition[] {
  const version: unknown = index.v; // stored JSON: whatever an older or newer writer put there
  if (version !== 1) throw new Error(`Unsupported text index version ${String(version)}`);
  if (index.pages.length > pages.length) throw new Error(`The text index has ${String(index.pages.length)} pages, the document ${String(pages.length)}`);
  const needle = anchor.text.replace(/\s+/g, ' ');
  const found: AnchorPosition[] = [];
  if (needle === '') return found;
  for (const [i, lines] of index.pages.entries()) {
    const page = pages[i];
    if (!page) break;
    for (const line of lines) {
      for (let at = line.t.indexOf(needle); at >= 0; at = line.t.indexOf(needle, at + needle.length)) {
        const origin = originAt(line, at);
        found.push({ page: i + 1, ...toDisplayed(origin.x + (anchor.offsetX ?? 0), origin.y + (anchor.offsetY ?? 0), page) });
        if (anchor.occurrence === 'first') return found;
      }
    }
  }
  return found;
}

/**
 * Where the glyph at `at` starts. pdf.js gives the origin and advance of whole runs only; inside a run the advance
 * is shared out by standard glyph widths of the run's font shape: exact for Helvetica/Arial, Times and Courier
 * without kerning, within a few per cent of the run's width otherwise.
 */
function originAt(line: TextLine, at: number): { x: number; y: number } {
  const { r } = line;
  let run = 0;
  while (run + 3 < r.length && (r[run + 3] ?? Infinity) <= at) run += 3;
  const start = r[run] ?? 0;
  const next = r[run + 3] ?? line.t.length;
  const text = line.t.slice(start, next).trimEnd(); // without the space joining it to the next run
  const family = line.f?.[run / 3] ?? 's';
  const whole = widthOf(text, family);
  const share = whole > 0 ? widthOf(text.slice(0, at - start), family) / whole : 0;
  const along = (r[run + 1] ?? 0) + (r[run + 2] ?? 0) * Math.min(share, 1);
  const [dx, dy] = line.d ?? [1, 0];
  return { x: line.x + along * dx, y: line.y + along * dy };
}

/** A user-space point in displayed coordinates: the inverse of toPdfRect (shared/envelopes/field-placement.ts) for a point. */
function toDisplayed(x: number, y: number, page: PageGeometry): { x: number; y: number } {
  const { x: cx, y: cy, width: W, height: H } = page.box;
  const [dx, dy] =
    page.rotate === 90 ? [y - cy, cx + W - x]
    : page.rotate === 180 ? [cx + W - x, cy + H - y]
    : page.rotate === 270 ? [cy + H - y, x - cx]
    : [x - cx, y - cy];
  return { x: round(dx), y: round(dy) };
}

// Advance widths (1/1000 em) of the printable ASCII characters, from the standard 14 fonts' AFM files.
const HELVETICA = '278,278,355,556,556,889,667,191,333,333,389,584,278,333,278,278,556,556,556,556,556,556,556,556,556,556,278,278,584,584,584,556,1015,667,667,722,722,667,611,778,722,278,500,667,556,833,722,778,667,778,722,667,611,722,667,944,667,667,611,278,278,278,469,556,333,556,556,500,556,556,278,556,556,222,222,500,222,833,556,556,556,556,333,500,278,556,500,722,500,500,500,334,260,334,584';
const TIMES = '250,333,408,500,500,833,778,180,333,333,500,564,250,333,250,278,500,500,500,500,500,500,500,500,500,500,278,278,564,564,564,444,921,722,667,667,722,611,556,722,722,333,389,722,611,889,722,722,556,722,667,556,611,722,722,944,722,722,611,333,278,333,469,500,333,444,500,444,500,444,333,500,500,278,278,500,278,778,500,500,500,500,333,389,278,500,500,722,500,500,444,480,200,480,541';
const WIDTHS: Record<string, { ascii: number[]; other: number }> = {
  s: { ascii: HELVETICA.split(',').map(Number), other: 556 },
  r: { ascii: TIMES.split(',').map(Number), other: 500 },
};

function widthOf(text: string, family: string): number {
  const table = WIDTHS[family]; // none for monospace: every glyph is as wide
  let sum = 0;
  for (const char of text) {
    const base = char.normalize('NFD').codePointAt(0) ?? 0; // an accented letter is as wide as its letter
    sum += table ? ((base >= 32 && base < 127 ? table.ascii[base - 32] : undefined) ?? table.other) : 1;
  }
  return sum;
}

export const round = (value: number, places = 2): number => Number(value.toFixed(places));
