/**
 * Text anchors (decision 17): integrators print a marker such as `/sig1/` (often in white) in their generated
 * PDFs and place fields by it, like DocuSign anchor tabs.
 *
 * extractTextIndex runs once at upload: pdf.js's text content, reduced to what anchor search needs (the text of
 * each line and where its runs start, in PDF user space) and stored as JSON beside the PDF. findAnchor is then a
 * pure lookup in that index, answering in displayed page coordinates (see shared/envelopes/field-placement.ts).
 */
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PageGeometry } from '#shared/kernel/model.ts';
import { PdfRefused, refused, TEXT_TIME_LIMIT_MS } from './pdf-limits.ts';
import { loadPdfjs } from './pdfjs-node.ts';

type TextContent = Awaited<ReturnType<PDFPageProxy['getTextContent']>>;
type TextItem = Extract<TextContent['items'][number], { str: string }>;

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

const round = (value: number, places = 2): number => Number(value.toFixed(places));

// ---------------------------------------------------------------------------------------------
// Extraction.

/**
 * Reads the text of every page, up to `maxChars` characters (MAX_INDEX_CHARS), whole pages at a time, within
 * `timeLimitMs` of wall-clock time. Throws PdfRefused: `time_limit` past the time, `damaged` for whatever pdf.js
 * cannot read. Its input has been through inspectPdf, which bounds what its streams inflate to.
 */
export async function extractTextIndex(pdf: Uint8Array, { maxChars = MAX_INDEX_CHARS, timeLimitMs = TEXT_TIME_LIMIT_MS }: { maxChars?: number; timeLimitMs?: number } = {}): Promise<TextIndex> {
  const pdfjs = await loadPdfjs();
  const deadline = performance.now() + timeLimitMs;
  const task = pdfjs.getDocument({
    data: new Uint8Array(pdf), // a copy, and a plain Uint8Array (pdf.js refuses a Buffer): pdf.js transfers (detaches) what it is given
    disableFontFace: true, // fonts are parsed for their character maps and widths, never installed
    useSystemFonts: false,
    isEvalSupported: false,
    stopAtErrors: false,
    verbosity: pdfjs.VerbosityLevel.ERRORS, // it warns, e.g., that it has no standard font files: widths come built in
  });
  let timer: NodeJS.Timeout | undefined;
  // A page is read in slices of a few ms; destroying the task stops it at the next slice, whatever the page holds.
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => { reject(refused.time(timeLimitMs)); }, timeLimitMs);
  });
  late.catch(() => undefined);
  try {
    const document = await Promise.race([task.promise, late]);
    const index: TextIndex = { v: 1, pages: [] };
    let chars = 0;
    for (let number = 1; number <= document.numPages; number++) {
      if (performance.now() >= deadline) throw refused.time(timeLimitMs);
      const page = await Promise.race([document.getPage(number), late]);
      const lines = linesOf(await Promise.race([page.getTextContent(), late]));
      page.cleanup();
      chars += lines.reduce((sum, line) => sum + line.t.length, 0);
      if (chars > maxChars) return { ...index, truncated: true };
      index.pages.push(lines);
    }
    return index;
  } catch (err) {
    throw err instanceof PdfRefused ? err : refused.damaged('its text cannot be read');
  } finally {
    clearTimeout(timer);
    await task.destroy();
  }
}

/** How far a run may sit off the line's baseline, in points, and still join it. */
const BASELINE_TOLERANCE = 0.1;

/** A line being built: its origin and direction unrounded, where its last run ends, whether a gap follows it. */
interface OpenLine { line: TextLine; x: number; y: number; dx: number; dy: number; end: number; size: number; gap: boolean }

/** The page's text items grouped into lines (see TextLine). */
function linesOf(content: TextContent): TextLine[] {
  const lines: TextLine[] = [];
  let open: OpenLine | undefined;
  const close = () => {
    if (open?.line.t.trim()) lines.push(open.line);
    open = undefined;
  };
  for (const item of content.items) {
    if (!('str' in item)) continue;
    const text = item.str.replace(/\s+/g, ' ').trim(); // pdf.js measures a run from its first glyph to its last
    if (text === '' && item.str !== '') {
      if (open) open.gap = true; // pdf.js marks a wide gap with a space item
    } else if (text !== '') {
      const run = runOf(item, text, content.styles[item.fontName]);
      if (!run) continue;
      if (!open || !extend(open, run)) {
        close();
        open = start(run);
      }
    }
    if (item.hasEOL) close();
  }
  close();
  return lines;
}

interface Run { text: string; x: number; y: number; dx: number; dy: number; advance: number; size: number; family: string }

function runOf(item: TextItem, text: string, style: TextContent['styles'][string] | undefined): Run | undefined {
  const [a = 0, b = 0, c = 0, d = 0, x = 0, y = 0] = item.transform as number[];
  const vertical = style?.vertical ?? false;
  // Glyphs advance along the text matrix's x axis, or down its y axis in vertical writing.
  const [ux, uy] = vertical ? [-c, -d] : [a, b];
  const length = Math.hypot(ux, uy);
  if (!(length > 0) || ![x, y].every(Number.isFinite)) return undefined;
  const family = style?.fontFamily === 'serif' ? 'r' : style?.fontFamily === 'monospace' ? 'm' : 's';
  const advance = vertical ? item.height : item.width;
  return { text, x, y, dx: ux / length, dy: uy / length, advance, size: Math.hypot(c, d) || length, family };
}

function start(run: Run): OpenLine {
  const line: TextLine = { t: run.text, x: round(run.x), y: round(run.y), r: [0, 0, round(run.advance)] };
  const straight = Math.abs(run.dx - 1) < 1e-6 && Math.abs(run.dy) < 1e-6;
  if (!straight) line.d = [round(run.dx, 6), round(run.dy, 6)];
  if (run.family !== 's') line.f = run.family;
  return { line, x: run.x, y: run.y, dx: run.dx, dy: run.dy, end: run.advance, size: run.size, gap: false };
}

/** Appends the run if it continues the line: same direction, same baseline, not behind the line's end. */
function extend(open: OpenLine, run: Run): boolean {
  if (Math.abs(run.dx - open.dx) > 1e-3 || Math.abs(run.dy - open.dy) > 1e-3) return false;
  const vx = run.x - open.x;
  const vy = run.y - open.y;
  if (Math.abs(vx * open.dy - vy * open.dx) > BASELINE_TOLERANCE) return false;
  const along = vx * open.dx + vy * open.dy;
  if (along < open.end - 0.25 * open.size) return false; // drawn back over the line: another column or line
  const { line } = open;
  // A gap wider than pdf.js's smallest space (0.1 em) reads as one, as pdf.js reads it inside a run.
  if (open.gap || along - open.end > 0.1 * run.size) line.t += ' ';
  line.r.push(line.t.length, round(along), round(run.advance));
  if (line.f !== undefined || run.family !== 's') line.f = (line.f ?? 's'.repeat(line.r.length / 3 - 1)) + run.family;
  line.t += run.text;
  open.end = along + run.advance;
  open.gap = false;
  return true;
}
