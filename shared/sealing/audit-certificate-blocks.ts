/**
 * The building blocks of the audit certificate's layout: lines of shaped text (and the odd image) grouped in blocks
 * that move to the next page whole.
 */
import { rgb, type Rgb } from './draw/canvas.ts';
import type { TextStyle } from './text/catalog.ts';
import { layoutLine, type ShapedLine } from './text/layout.ts';
import { wrapLines } from './text/wrap.ts';

export const PAGE = { width: 595.28, height: 841.89 }; // A4 portrait
export const MARGIN = 50;
export const CONTENT_WIDTH = PAGE.width - 2 * MARGIN;
export const LEADING = 1.3;
export const VALUE_X = 132; // values line up in one column across the whole certificate
export const GREY = rgb(0.4, 0.4, 0.4);
export const INK = rgb(0.08, 0.12, 0.4); // an adopted signature, as it looks on the document

export interface Cell {
  x: number;
  line: ShapedLine;
  size: number;
  color?: Rgb;
}

/** One line of the certificate; `rule` draws a thin line across the content width at its middle; `image` a PNG in it. */
export interface Line {
  height: number;
  cells: Cell[];
  rule?: boolean;
  image?: { png: Uint8Array; x: number; width: number; height: number };
  /** A QR code's modules (true: dark), drawn `size` points wide at `x` (certificate-qr.ts). */
  qr?: { modules: boolean[][]; x: number; size: number };
}

export type Block = Line[];

/** ISO 8601 in UTC ("Z"); a value that is not a date is shown as given. */
export function utc(timestamp: string): string {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? timestamp : date.toISOString();
}

export async function heading(text: string): Promise<Block> {
  const size = 12;
  const lines = await wrap(text, 'bold', size, CONTENT_WIDTH);
  return [{ height: 10, cells: [] }, ...lines.map((line) => ({ height: size * LEADING, cells: [{ x: 0, line, size }] })), { height: 6, cells: [], rule: true }];
}

/** A bold title line, then label/value rows (and any extra lines), then a little space. */
export async function record(title: string, pairs: [string, string][], extra: Line[] = []): Promise<Block> {
  const size = 9;
  const titleLines = await wrap(title, 'bold', size, CONTENT_WIDTH);
  const head = titleLines.map((line) => ({ height: size * LEADING, cells: [{ x: 0, line, size }] }));
  return [...head, ...(await rows(pairs, 12)), ...extra, { height: 5, cells: [] }];
}

/** Label/value rows: the label in grey on the left, the value wrapped in the column beside it. */
export async function rows(pairs: [string, string][], indent = 0, valueX = VALUE_X): Promise<Line[]> {
  const size = 8.5;
  const lines: Line[] = [];
  for (const [label, value] of pairs) {
    const valueLines = await wrap(value, 'regular', size, CONTENT_WIDTH - valueX);
    const labelLine = await layoutLine(label, 'regular');
    valueLines.forEach((line, i) => {
      const value: Cell = { x: valueX, line, size };
      // Label first: text extraction and copy-paste follow the drawing order.
      lines.push({ height: size * LEADING, cells: i === 0 ? [{ x: indent, line: labelLine, size, color: GREY }, value] : [value] });
    });
  }
  return lines;
}

/** Wrapped lines, at least one (an empty value still gets its row). */
export async function wrap(text: string, style: TextStyle, size: number, width: number): Promise<ShapedLine[]> {
  const lines = await wrapLines(text, style, size, width);
  return lines.length > 0 ? lines : [await layoutLine('', style)];
}

/** A PNG's pixel size from its header; null when the bytes are not a PNG. */
export function pngSize(png: Uint8Array): { width: number; height: number } | null {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  if (png.byteLength < 24 || view.getUint32(0) !== 0x89504e47 || view.getUint32(12) !== 0x49484452) return null;
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
