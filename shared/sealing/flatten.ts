/**
 * Draws the signers' values into the pages (the sealed file has no interactive fields of ours), and flattens the
 * unsigned AcroForm fields the original carried (./acroform.ts).
 *
 * Each value is drawn in a frame that is upright as the viewer shows the page: the rect is in PDF user space, and
 * on a page with /Rotate R (shown turned R degrees clockwise) the frame is turned R degrees counter-clockwise about
 * the rect. Everything is clipped to the rect, so nothing can spill out.
 */
import type { PDFDocument } from 'pdf-lib';
import { flattenAcroForm } from './acroform.ts';
import { rgb, type Canvas, type Rgb } from './draw/canvas.ts';
import type { SealDrawing } from './draw/drawing.ts';
import { signatureStyle, type TextStyle } from './text/catalog.ts';
import { extentOfLines, layoutLine, type ShapedLine } from './text/layout.ts';
import { wrapLines } from './text/wrap.ts';

export interface FlattenItem {
  page: number; // 1-based
  rect: { x: number; y: number; width: number; height: number }; // PDF user space
  rotate: 0 | 90 | 180 | 270; // the page's /Rotate
  value:
    | { kind: 'image'; png: Uint8Array }
    | { kind: 'typed'; text: string; fontLabel: string }
    | { kind: 'text'; text: string }
    | { kind: 'checkbox'; checked: boolean }
    | { kind: 'date'; date: string };
}

/** A value with characters no bundled font has (drawn as boxes): its index in the items, and those characters. */
export interface UncoveredValue {
  index: number;
  characters: string[];
}

/** The upright frame's size as the viewer shows it; its origin is the shown bottom-left corner of the rect. */
interface Frame {
  width: number;
  height: number;
}

const INK = rgb(0.08, 0.12, 0.4); // typed signatures and check marks read as "signed in ink"
const TEXT = rgb(0, 0, 0);
const MIN_TEXT_SIZE = 6;
const MAX_TEXT_SIZE = 12;

/** Draws every item and flattens the original's unsigned form fields; returns the values with uncovered characters. */
export async function flattenFields(doc: PDFDocument, items: FlattenItem[], drawing: SealDrawing): Promise<UncoveredValue[]> {
  await flattenAcroForm(doc, drawing);
  const pages = doc.getPages();
  const uncovered: UncoveredValue[] = [];
  for (const [index, item] of items.entries()) {
    const page = pages[item.page - 1];
    if (!page) throw new RangeError(`flattenFields: page ${String(item.page)} does not exist (${String(pages.length)} pages)`);
    const { width, height } = item.rect;
    if (!(width > 0 && height > 0 && Number.isFinite(width * height))) throw new RangeError('flattenFields: an empty field box');
    const canvas = drawing.canvas(page);
    const frame = openFrame(canvas, item.rect, item.rotate);
    try {
      const characters = await drawValue(canvas, item.value, frame, drawing);
      if (characters.length > 0) uncovered.push({ index, characters });
    } finally {
      canvas.restore(); // balanced even when a value fails to draw
    }
  }
  return uncovered;
}

/** Pushes q, the counter-rotation onto the rect and a clip to it; the caller restores. */
function openFrame(canvas: Canvas, rect: FlattenItem['rect'], rotate: FlattenItem['rotate']): Frame {
  const { x, y, width: w, height: h } = rect;
  const turned = rotate === 90 || rotate === 270;
  const frame = turned ? { width: h, height: w } : { width: w, height: h };
  // Origin at the corner the viewer shows bottom-left; axes turned by +rotate (counter-clockwise).
  const matrix: Record<FlattenItem['rotate'], [number, number, number, number, number, number]> = {
    0: [1, 0, 0, 1, x, y],
    90: [0, 1, -1, 0, x + w, y],
    180: [-1, 0, 0, -1, x + w, y + h],
    270: [0, -1, 1, 0, x, y + h],
  };
  canvas.save().transform(...matrix[rotate]).clip(0, 0, frame.width, frame.height);
  return frame;
}

async function drawValue(canvas: Canvas, value: FlattenItem['value'], frame: Frame, drawing: SealDrawing): Promise<string[]> {
  switch (value.kind) {
    case 'image':
      drawImageFitted(canvas, drawing.png(value.png), frame);
      return [];
    case 'typed':
      return drawLine(canvas, await layoutLine(value.text, signatureStyle(value.fontLabel)), frame, { align: 'center', color: INK });
    case 'date':
      return drawLine(canvas, await layoutLine(value.date, 'regular'), frame, { align: 'start', color: TEXT, maxSize: MAX_TEXT_SIZE });
    case 'text':
      return drawParagraphs(canvas, 'regular', value.text, frame);
    case 'checkbox':
      drawCheckbox(canvas, value.checked, frame);
      return [];
  }
}

const paddingOf = (frame: Frame): number => Math.min(2, frame.width * 0.05, frame.height * 0.05);

/** Aspect ratio kept, as large as fits, centred. */
function drawImageFitted(canvas: Canvas, image: { ref: import('pdf-lib').PDFRef; width: number; height: number }, frame: Frame): void {
  const pad = paddingOf(frame);
  const scale = Math.min((frame.width - 2 * pad) / image.width, (frame.height - 2 * pad) / image.height);
  const width = image.width * scale;
  const height = image.height * scale;
  canvas.xobject(image.ref, [width, 0, 0, height, (frame.width - width) / 2, (frame.height - height) / 2]);
}

/** One line, as large as fits (up to maxSize), vertically centred; `start` is the left, or the right for right-to-left text. */
function drawLine(canvas: Canvas, line: ShapedLine, frame: Frame, opts: { align: 'start' | 'center'; color: Rgb; maxSize?: number }): string[] {
  if (line.runs.length === 0) return [];
  const pad = paddingOf(frame);
  const { ascent, descent } = extentOfLines([line]);
  const byHeight = (frame.height - 2 * pad) / (ascent - descent);
  const byWidth = (frame.width - 2 * pad) / Math.max(line.width, 1e-6);
  const size = Math.min(byHeight, byWidth, opts.maxSize ?? Infinity);
  const width = line.width * size;
  const x = opts.align === 'center' ? (frame.width - width) / 2 : line.direction === 'rtl' ? frame.width - pad - width : pad;
  const y = (frame.height - (ascent - descent) * size) / 2 - descent * size;
  canvas.text(line, { x, y, size, color: opts.color });
  return line.uncovered;
}

/** Free text: wrapped, shrunk down to MIN_TEXT_SIZE; what still does not fit is cut with an ellipsis. */
async function drawParagraphs(canvas: Canvas, style: TextStyle, text: string, frame: Frame): Promise<string[]> {
  const pad = paddingOf(frame);
  const inner = { width: frame.width - 2 * pad, height: frame.height - 2 * pad };
  let lines = await wrapLines(text, style, MAX_TEXT_SIZE, Infinity);
  const { ascent, descent } = extentOfLines(lines);
  const em = ascent - descent;
  let size = Math.max(MIN_TEXT_SIZE, Math.min(MAX_TEXT_SIZE, inner.height / em));
  lines = await wrapLines(text, style, size, inner.width);
  while (lines.length * em * size > inner.height && size > MIN_TEXT_SIZE) {
    size = Math.max(MIN_TEXT_SIZE, size - 0.5);
    lines = await wrapLines(text, style, size, inner.width);
  }
  const uncovered = [...new Set(lines.flatMap((line) => line.uncovered))];
  const fitting = Math.max(1, Math.floor(inner.height / (em * size) + 1e-9));
  if (lines.length > fitting) lines = [...lines.slice(0, fitting - 1), await withEllipsis(lines[fitting - 1], style, size, inner.width)];
  const top = (frame.height + lines.length * em * size) / 2; // the block is centred vertically
  lines.forEach((line, i) => {
    const x = line.direction === 'rtl' ? frame.width - pad - line.width * size : pad;
    canvas.text(line, { x, y: top - (i + 1) * em * size - descent * size, size, color: TEXT });
  });
  return uncovered;
}

async function withEllipsis(line: ShapedLine | undefined, style: TextStyle, size: number, maxWidth: number): Promise<ShapedLine> {
  const chars = Array.from(line?.text ?? '');
  for (;;) {
    const candidate = await layoutLine(`${chars.join('').trimEnd()}…`, style, line?.direction);
    if (chars.length === 0 || candidate.width * size <= maxWidth) return candidate;
    chars.pop();
  }
}

/** A thin square, and a vector check mark when checked. */
export function drawCheckbox(canvas: Canvas, checked: boolean, frame: Frame): void {
  const pad = paddingOf(frame);
  const side = Math.min(frame.width, frame.height) - 2 * pad;
  const x0 = (frame.width - side) / 2;
  const y0 = (frame.height - side) / 2;
  const line = Math.max(0.5, side * 0.04);
  canvas.strokeRect(x0 + line / 2, y0 + line / 2, side - line, side - line, { width: line, color: rgb(0.35, 0.35, 0.35) });
  if (!checked) return;
  const at = (u: number, v: number): [number, number] => [x0 + u * side, y0 + v * side];
  canvas.polyline([at(0.2, 0.52), at(0.42, 0.26), at(0.8, 0.76)], { width: Math.max(1, side * 0.12), color: INK });
}
