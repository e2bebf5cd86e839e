/**
 * The extraction half of text anchors (text-anchors.ts): pdf.js's text content reduced to a TextIndex. Apart from
 * the search, so that code which only searches an index never reaches pdf.js's import, and its bundle neither
 * holds nor ships pdf.js.
 */
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { PdfRefused, refused, TEXT_TIME_LIMIT_MS } from './pdf-limits.ts';
import { loadPdfjs } from './pdfjs-node.ts';
import { MAX_INDEX_CHARS, round, type TextIndex, type TextLine } from './text-anchors.ts';

type TextContent = Awaited<ReturnType<PDFPageProxy['getTextContent']>>;
type TextItem = Extract<TextContent['items'][number], { str: string }>;

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
