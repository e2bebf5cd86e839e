/**
 * How many bytes a stream decodes to, found without ever holding more than `cap` of them, so a small file that
 * inflates to gigabytes (a decompression bomb) is refused before any parser tries. Decoders are counted the way
 * pdf.js runs them: Flate as raw deflate after its two-byte header (pdf.js checks the header loosely and never
 * the checksum), LZW and RunLength by the lengths their codes stand for.
 */
import { Buffer } from 'node:buffer';
import { constants, createInflateRaw, inflateRawSync } from 'node:zlib';
import { PDFArray, PDFDict, PDFName, PDFNumber, type PDFRawStream } from 'pdf-lib';
import { refused } from './pdf-limits.ts';

/** Filters pdf.js only runs to paint an image: their output is pixels, never read for text. */
export const IMAGE_FILTERS = new Set(['DCTDecode', 'DCT', 'JPXDecode', 'JBIG2Decode', 'CCITTFaxDecode', 'CCF']);

/** The stream's filter names, in order. */
export function filtersOf(stream: PDFRawStream): string[] {
  const filter = stream.dict.lookup(PDFName.of('Filter'));
  if (filter instanceof PDFName) return [filter.decodeText()];
  if (!(filter instanceof PDFArray)) return [];
  return filter.asArray().flatMap((f) => (f instanceof PDFName ? [f.decodeText()] : []));
}

/** Longer than any real predictor row (30,000 pixels of four 16-bit colours is 240 KB). */
const MAX_PREDICTOR_ROW = 1024 * 1024;

/**
 * A PNG or TIFF predictor (/DecodeParms /Predictor) makes pdf.js and pdf-lib allocate a row of /Columns x /Colors x
 * /BitsPerComponent bits before reading any data: tiny stream, huge allocation. Rows beyond any real image's refused.
 */
function checkPredictor(stream: PDFRawStream): void {
  const parms = stream.dict.lookup(PDFName.of('DecodeParms'));
  const all = parms instanceof PDFArray ? parms.asArray().map((p) => stream.dict.context.lookup(p)) : [parms];
  for (const dict of all) {
    if (!(dict instanceof PDFDict)) continue;
    const number = (key: string, fallback: number) => {
      const value = dict.lookup(PDFName.of(key));
      return value instanceof PDFNumber ? value.asNumber() : fallback;
    };
    if (number('Predictor', 1) <= 1) continue;
    const row = (number('Columns', 1) * number('Colors', 1) * number('BitsPerComponent', 8)) / 8;
    if (!(row <= MAX_PREDICTOR_ROW)) throw refused.damaged('one of its streams declares predictor rows longer than any image has');
  }
}

/** Over `cap`: the caller refuses the document, naming the limit it set. */
export class OverCap extends Error {}

/**
 * What the stream decodes to, in bytes, up to the first image filter (whose output is pixels nobody here reads).
 * Throws OverCap beyond `cap` and PdfRefused `damaged` for a Flate stream zlib finds corrupt: pdf.js would read
 * on through such data (a distance past the start of the output, say), so what it decodes could not be bounded.
 */
export async function decodedSize(stream: PDFRawStream, cap: number): Promise<number> {
  checkPredictor(stream);
  const filters = filtersOf(stream);
  let data: Uint8Array = stream.contents;
  for (const [i, filter] of filters.entries()) {
    if (IMAGE_FILTERS.has(filter)) return data.length;
    const last = i === filters.length - 1 || IMAGE_FILTERS.has(filters[i + 1] ?? '');
    if (last && (filter === 'FlateDecode' || filter === 'Fl')) return inflatedSize(data, cap);
    data = decodeSync(filter, data, cap);
  }
  return data.length;
}

/** decodedSize, synchronously and holding the output (for the object streams a parser must decode anyway). */
export function decodedSizeSync(stream: PDFRawStream, cap: number): number {
  checkPredictor(stream);
  let data: Uint8Array = stream.contents;
  for (const filter of filtersOf(stream)) {
    if (IMAGE_FILTERS.has(filter)) break;
    data = decodeSync(filter, data, cap);
  }
  return data.length;
}

/** The bytes of one filter's output, at most `cap` of them; an unknown filter passes its input (pdf.js does). */
export function decodeSync(filter: string, data: Uint8Array, cap: number): Uint8Array {
  const out = (() => {
    switch (filter) {
      case 'FlateDecode': case 'Fl': return inflateSyncCapped(data, cap);
      case 'LZWDecode': case 'LZW': return new Uint8Array(lzwLength(data, cap)); // only its length is used
      case 'RunLengthDecode': case 'RL': return new Uint8Array(runLengthLength(data, cap));
      case 'ASCIIHexDecode': case 'AHx': return asciiHex(data);
      case 'ASCII85Decode': case 'A85': return ascii85(data);
      default: return data;
    }
  })();
  if (out.length > cap) throw new OverCap();
  return out;
}

/** Raw deflate from after the zlib header, stopping at the cap. */
function inflateSyncCapped(data: Uint8Array, cap: number): Uint8Array {
  try {
    return inflateRawSync(data.subarray(2), { maxOutputLength: cap + 1, finishFlush: constants.Z_SYNC_FLUSH });
  } catch (err) {
    throw fromZlib(err);
  }
}

/** Streams the inflation through a counter: memory stays at zlib's window whatever the output. */
function inflatedSize(data: Uint8Array, cap: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const inflate = createInflateRaw({ finishFlush: constants.Z_SYNC_FLUSH });
    let total = 0;
    inflate.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > cap) {
        inflate.destroy(new OverCap());
      }
    });
    inflate.on('error', (err) => { reject(fromZlib(err)); });
    inflate.on('end', () => { resolve(total); });
    inflate.end(Buffer.from(data.buffer, data.byteOffset + Math.min(2, data.length), Math.max(0, data.length - 2)));
  });
}

/** A truncated stream is read as far as it goes (as pdf.js does); corrupt data and the cap are refusals. */
function fromZlib(err: unknown): Error {
  if (err instanceof OverCap || (err instanceof RangeError && (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')) return new OverCap();
  return refused.damaged('one of its compressed (Flate) streams is corrupt');
}

/** The output length of LZW data (9- to 12-bit codes, EarlyChange 1), as pdf.js's decoder produces it. */
function lzwLength(data: Uint8Array, cap: number): number {
  const lengths = new Uint16Array(4096).fill(1, 0, 256);
  let nextCode = 258;
  let codeLength = 9;
  let previous = -1;
  let current = 0;
  let total = 0;
  let bits = 0;
  let cached = 0;
  for (let at = 0; ;) {
    while (bits < codeLength && at < data.length) {
      cached = ((cached << 8) | (data[at++] ?? 0)) & 0xffffff;
      bits += 8;
    }
    if (bits < codeLength) return total;
    bits -= codeLength;
    const code = (cached >>> bits) & ((1 << codeLength) - 1);
    if (code === 256) {
      nextCode = 258;
      codeLength = 9;
      current = 0;
      previous = -1;
      continue;
    }
    if (code === 257) return total;
    const hadPrevious = current > 0;
    current = code < 256 ? 1 : code < nextCode ? (lengths[code] ?? 1) : current + 1;
    if (hadPrevious && nextCode < 4096 && previous >= 0) {
      lengths[nextCode] = Math.min((lengths[previous] ?? 1) + 1, 4096);
      nextCode++;
      codeLength = (nextCode + 1) & nextCode ? codeLength : Math.min(Math.floor(Math.log2(nextCode + 1)) + 1, 12);
    }
    previous = code;
    total += current;
    if (total > cap) throw new OverCap();
  }
}

function runLengthLength(data: Uint8Array, cap: number): number {
  let total = 0;
  for (let at = 0; at + 1 < data.length;) {
    const n = data[at] ?? 128;
    if (n === 128) break;
    if (n < 128) {
      total += n + 1;
      at += n + 2;
    } else {
      total += 257 - n;
      at += 2;
    }
    if (total > cap) throw new OverCap();
  }
  return total;
}

function asciiHex(data: Uint8Array): Uint8Array {
  const text = Buffer.from(data).toString('latin1');
  const end = text.indexOf('>');
  const digits = (end < 0 ? text : text.slice(0, end)).replace(/[^0-9a-fA-F]/g, '');
  return Buffer.from(digits.length % 2 ? `${digits}0` : digits, 'hex');
}

/** ASCII85 output is at most four bytes per input byte ('z'); what matters here is its length and bytes. */
function ascii85(data: Uint8Array): Uint8Array {
  const out: number[] = [];
  let group: number[] = [];
  const flush = (count: number) => {
    while (group.length < 5) group.push(84);
    const value = group.reduce((v, d) => v * 85 + d, 0);
    for (let i = 0; i < count; i++) out.push(Math.floor(value / 256 ** (3 - i)) % 256);
    group = [];
  };
  for (const byte of data) {
    if (byte === 0x7e) break; // ~> ends it
    if (byte === 0x7a && group.length === 0) { out.push(0, 0, 0, 0); continue; } // z: four zeros
    if (byte < 0x21 || byte > 0x75) continue;
    group.push(byte - 0x21);
    if (group.length === 5) flush(4);
  }
  if (group.length > 1) flush(group.length - 1);
  return Uint8Array.from(out);
}
