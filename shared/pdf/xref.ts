/**
 * The one reader of a PDF's last cross-reference section: where `startxref` points, what kind of section is there
 * (a classic table or an XRef stream), and its trailer. Inspection uses it to refuse files no update could follow;
 * the incremental writer uses it to chain its own section onto the original's with /Prev.
 */
import { Buffer } from 'node:buffer';
import { PDFContext, PDFDict, PDFName, PDFNumber, PDFObjectParser, PDFRawStream, type PDFObject } from 'pdf-lib';

export interface XrefSection {
  kind: 'table' | 'stream';
  /** The offset written after the last `startxref` (an update's /Prev). */
  offset: number;
  /** 0, or the position of %PDF- when the file's offsets count from a header preceded by junk. */
  base: number;
  /** The trailer's /Size: object numbers below it may be in use even if pdf-lib never saw them. */
  size: number;
  /** The trailer dictionary (for an XRef stream, the stream's dictionary). */
  trailer: PDFDict;
}

export type XrefProblem =
  | 'no_header' // no %PDF- in the first KB
  | 'no_eof' // no %%EOF in the last KB
  | 'no_startxref' // no readable startxref before it
  | 'missing' // startxref points past the end of the file
  | 'not_a_section' // startxref points at something that is not a cross-reference section
  | 'unreadable'; // a section is there, but its trailer or dictionary cannot be parsed

export class XrefError extends Error {
  constructor(readonly problem: XrefProblem) {
    super(`The PDF's last cross-reference section cannot be read (${problem})`);
    this.name = 'XrefError';
  }
}

/** The %PDF- header may be preceded by junk, but only within the first KB (as Acrobat allows). */
const HEADER_WINDOW = 1024;
/** %%EOF must be in the last KB: tolerates trailing whitespace or garbage without scanning the whole file. */
const TAIL_WINDOW = 1024;
const SECTION_HEAD = 64;

const view = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Where %PDF- starts (0 for a clean file); throws `no_header`. */
export function headerOffset(bytes: Uint8Array): number {
  const at = view(bytes).subarray(0, HEADER_WINDOW).indexOf('%PDF-', 0, 'latin1');
  if (at < 0) throw new XrefError('no_header');
  return at;
}

/** The file's last cross-reference section. Throws XrefError. */
export function readLastXref(bytes: Uint8Array): XrefSection {
  const buf = view(bytes);
  const headerAt = headerOffset(bytes);
  const offset = lastStartxref(buf);
  let seen = false;
  for (const base of headerAt > 0 ? [0, headerAt] : [0]) {
    const kind = sectionKindAt(buf, offset + base);
    if (!kind) continue;
    seen = true;
    const trailer = readTrailer(buf, offset + base, kind);
    if (trailer) return { kind, offset, base, size: sizeOf(trailer), trailer };
  }
  if (seen) throw new XrefError('unreadable');
  throw new XrefError(offset >= buf.length ? 'missing' : 'not_a_section');
}

/** The offset after the last `startxref` before the final %%EOF. Throws XrefError. */
export function lastStartxref(buf: Buffer): number {
  const tailStart = Math.max(0, buf.length - TAIL_WINDOW);
  const eofInTail = buf.subarray(tailStart).lastIndexOf('%%EOF', undefined, 'latin1');
  if (eofInTail < 0) throw new XrefError('no_eof');
  const eofAt = tailStart + eofInTail;
  const searchFrom = Math.max(0, eofAt - TAIL_WINDOW);
  const inWindow = buf.subarray(searchFrom, eofAt).lastIndexOf('startxref', undefined, 'latin1');
  if (inWindow < 0) throw new XrefError('no_startxref');
  const digits = /^startxref\s+(\d{1,12})(?!\d)/.exec(buf.toString('latin1', searchFrom + inWindow, eofAt + 1));
  if (!digits?.[1]) throw new XrefError('no_startxref');
  return Number(digits[1]);
}

/** What the bytes at `at` look like: `xref`, or an object whose dictionary says /Type /XRef. */
function sectionKindAt(buf: Buffer, at: number): XrefSection['kind'] | undefined {
  if (at >= buf.length) return undefined;
  const head = buf.toString('latin1', at, Math.min(buf.length, at + SECTION_HEAD)).replace(/^\s*/, '');
  if (/^xref\s/.test(head)) return 'table';
  if (!/^\d+\s+\d+\s+obj\b/.test(head)) return undefined;
  const object = buf.toString('latin1', at, Math.min(buf.length, at + 8192));
  const streamAt = object.indexOf('stream');
  return /\/Type\s*\/XRef\b/.test(streamAt < 0 ? object : object.slice(0, streamAt)) ? 'stream' : undefined;
}

function readTrailer(buf: Buffer, at: number, kind: XrefSection['kind']): PDFDict | undefined {
  try {
    if (kind === 'table') {
      const trailerAt = buf.indexOf('trailer', at, 'latin1');
      if (trailerAt < 0) return undefined;
      const dict = parseObjectAt(buf, trailerAt + 'trailer'.length);
      return dict instanceof PDFDict && dict.has(PDFName.of('Size')) ? dict : undefined;
    }
    const lead = /^\s*\d+\s+\d+\s+obj\b/.exec(buf.toString('latin1', at, Math.min(buf.length, at + SECTION_HEAD)))?.[0].length ?? 0;
    const object = parseObjectAt(buf, at + lead);
    const dict = object instanceof PDFRawStream ? object.dict : undefined;
    return dict?.get(PDFName.of('Type')) === PDFName.of('XRef') && dict.has(PDFName.of('Size')) ? dict : undefined;
  } catch {
    return undefined;
  }
}

function parseObjectAt(buf: Buffer, at: number): PDFObject {
  return PDFObjectParser.forBytes(buf.subarray(at), PDFContext.create()).parseObject();
}

function sizeOf(trailer: PDFDict): number {
  const size = trailer.get(PDFName.of('Size'));
  if (!(size instanceof PDFNumber)) throw new XrefError('unreadable');
  return size.asNumber();
}
