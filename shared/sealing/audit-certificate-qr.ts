/**
 * The verification address on the audit certificate, as text and as a QR code drawn with vector paths (one filled
 * rectangle per run of dark modules: sharp at any zoom and in print, no image to decode), so a printed copy leads to
 * its check.
 */
import qrcode from 'qrcode-generator';
import type { Canvas } from './draw/canvas.ts';
import { MARGIN, rows, type Line } from './audit-certificate-blocks.ts';

/** The QR code's modules (true: dark), error correction M: survives a crease or a stain. */
export function qrModules(text: string): boolean[][] {
  const code = qrcode(0, 'M');
  code.addData(text, 'Byte');
  code.make();
  const count = code.getModuleCount();
  return Array.from({ length: count }, (_, row) => Array.from({ length: count }, (_, col) => code.isDark(row, col)));
}

const QR_SIZE = 96; // points: about 34 mm, scannable from a printed page
const QUIET = 4; // modules of white border the standard asks for

/** The rows naming the address, then a line tall enough to hold the QR code (drawQr paints it). */
export async function verificationLines(url: string): Promise<Line[]> {
  const text = await rows([['Verify', `${url} (or scan the code): the page checks the sealed file in the browser, which never uploads it.`]]);
  return [...text, { height: QR_SIZE + 8, cells: [], qr: { modules: qrModules(url), x: 0, size: QR_SIZE } }];
}

/** Paints a QR line's modules inside the line whose top is at `top`. */
export function drawQr(canvas: Canvas, qr: NonNullable<Line['qr']>, top: number, height: number): void {
  const count = qr.modules.length + 2 * QUIET;
  const module = qr.size / count;
  const left = MARGIN + qr.x + QUIET * module;
  const upper = top - (height - qr.size) / 2 - QUIET * module;
  const paths: string[] = [];
  qr.modules.forEach((row, r) => {
    for (let c = 0; c < row.length; c++) {
      if (!row[c]) continue;
      const start = c;
      while (row[c + 1]) c++;
      paths.push(`${fmt(left + start * module)} ${fmt(upper - (r + 1) * module)} ${fmt((c - start + 1) * module)} ${fmt(module)} re`);
    }
  });
  canvas.raw('q', '0 0 0 rg', ...paths, 'f', 'Q');
}

const fmt = (value: number): string => String(Math.round(value * 1000) / 1000);
