/**
 * The pixels of a PNG as an image XObject needs them: colour and alpha apart. The kind the signing page sends (8-bit
 * RGB or RGBA, not interlaced) is decoded here with Node's zlib and one pass over the rows; any other kind goes
 * through pngjs, which reads them all but spends most of a millisecond on a signature's 36,000 pixels.
 */
import { crc32, inflateSync } from 'node:zlib';
import { PNG } from 'pngjs';

export interface PngPixels {
  width: number;
  height: number;
  /** 3 bytes a pixel. */
  rgb: Buffer;
  /** 1 byte a pixel; absent when every pixel is opaque. */
  alpha?: Buffer;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Colour types: truecolour, truecolour with alpha. */
const RGB = 2;
const RGBA = 6;

export function pngPixels(bytes: Uint8Array): PngPixels {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const simple = simplePng(buffer);
  if (simple) {
    const { width, height, bpp } = simple;
    return { width, height, ...split(unfilter(inflateSync(simple.data), width, height, bpp), width * height, bpp) };
  }
  const { width, height, data } = PNG.sync.read(buffer);
  return { width, height, ...split(data, width * height, 4) };
}

/** The header and the joined IDAT data of an 8-bit RGB(A), non-interlaced PNG whose chunks all check out; else undefined. */
function simplePng(png: Buffer): { width: number; height: number; bpp: number; data: Buffer } | undefined {
  if (png.length < 8 || !png.subarray(0, 8).equals(SIGNATURE)) return undefined;
  let header: { width: number; height: number; bpp: number } | undefined;
  const idat: Buffer[] = [];
  for (let at = 8; at + 12 <= png.length;) {
    const length = png.readUInt32BE(at);
    const end = at + 12 + length;
    if (end > png.length) return undefined;
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (crc32(png.subarray(at + 4, at + 8 + length)) !== png.readUInt32BE(at + 8 + length)) return undefined;
    if (type === 'IHDR') {
      const [depth, colour, compression, filter, interlace] = body.subarray(8, 13);
      if (length !== 13 || depth !== 8 || (colour !== RGB && colour !== RGBA) || compression !== 0 || filter !== 0 || interlace !== 0) return undefined;
      header = { width: body.readUInt32BE(0), height: body.readUInt32BE(4), bpp: colour === RGBA ? 4 : 3 };
    } else if (type === 'IDAT') idat.push(body);
    else if (type === 'tRNS') return undefined; // a transparent colour key: pngjs turns it into alpha
    else if (type === 'IEND') break;
    at = end;
  }
  if (!header || header.width === 0 || header.height === 0 || idat.length === 0) return undefined;
  return { ...header, data: Buffer.concat(idat) };
}

/** Reverses the per-row filters (PNG specification §9): `rows` is one filter byte then width * bpp bytes per row. */
function unfilter(rows: Buffer, width: number, height: number, bpp: number): Buffer {
  const stride = width * bpp;
  if (rows.length < (stride + 1) * height) throw new Error('The PNG image data is shorter than its size says');
  const out = Buffer.alloc(stride * height);
  const zero = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = rows[y * (stride + 1)];
    const raw = rows.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = out.subarray(y * stride, (y + 1) * stride);
    const up = y > 0 ? out.subarray((y - 1) * stride, y * stride) : zero;
    unfilterRow(filter ?? 0, raw, row, up, bpp);
  }
  return out;
}

/** One row, filter types 0 to 4 (PNG §9.2); a row's first pixel has no left neighbour. */
function unfilterRow(filter: number, raw: Uint8Array, row: Uint8Array, up: Uint8Array, bpp: number): void {
  const n = row.length;
  switch (filter) {
    case 0: row.set(raw); return;
    case 1:
      for (let x = 0; x < bpp && x < n; x++) row[x] = raw[x] ?? 0;
      for (let x = bpp; x < n; x++) row[x] = ((raw[x] ?? 0) + (row[x - bpp] ?? 0)) & 0xff;
      return;
    case 2:
      for (let x = 0; x < n; x++) row[x] = ((raw[x] ?? 0) + (up[x] ?? 0)) & 0xff;
      return;
    case 3:
      for (let x = 0; x < bpp && x < n; x++) row[x] = ((raw[x] ?? 0) + ((up[x] ?? 0) >> 1)) & 0xff;
      for (let x = bpp; x < n; x++) row[x] = ((raw[x] ?? 0) + (((row[x - bpp] ?? 0) + (up[x] ?? 0)) >> 1)) & 0xff;
      return;
    case 4:
      for (let x = 0; x < bpp && x < n; x++) row[x] = ((raw[x] ?? 0) + (up[x] ?? 0)) & 0xff; // Paeth with a = c = 0 picks b
      for (let x = bpp; x < n; x++) {
        const a = row[x - bpp] ?? 0;
        const b = up[x] ?? 0;
        const c = up[x - bpp] ?? 0;
        const pa = Math.abs(b - c);
        const pb = Math.abs(a - c);
        const pc = Math.abs(a + b - 2 * c);
        row[x] = ((raw[x] ?? 0) + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 0xff;
      }
      return;
    default: throw new Error(`Unknown PNG row filter ${String(filter)}`);
  }
}

/** Colour and alpha apart; no alpha when there is none or every pixel is opaque. */
function split(pixels: Buffer, count: number, bpp: number): { rgb: Buffer; alpha?: Buffer } {
  if (bpp === 3) return { rgb: pixels };
  const rgb = Buffer.allocUnsafe(count * 3);
  const alpha = Buffer.allocUnsafe(count);
  let opaque = true;
  for (let i = 0, j = 0, k = 0; i < count; i++, j += 3, k += 4) {
    rgb[j] = pixels[k] ?? 0;
    rgb[j + 1] = pixels[k + 1] ?? 0;
    rgb[j + 2] = pixels[k + 2] ?? 0;
    const a = pixels[k + 3] ?? 0;
    alpha[i] = a;
    opaque &&= a === 255;
  }
  return opaque ? { rgb } : { rgb, alpha };
}
