/**
 * The seal's loader: a document whose objects are parsed when first looked up, at the offsets its cross-reference
 * tables give, instead of every object up front (a 500-page file of images: the catalog, the page tree and the few
 * pages drawn on, not 1,500 objects). An incremental update writes only what changed, and an object never looked up
 * cannot have changed.
 *
 * Only files whose every cross-reference section is a classic table (followed through /Prev) and whose every in-use
 * entry points at its own `N G obj` qualify; any other file (XRef streams, hybrid files, a stale or damaged table) is
 * loaded whole by loadPdf, as before. The object numbers a new object must not take (those of any reference, even to
 * an object the file lacks) are found by scanning each object's dictionary text, not its stream data.
 */
import { Buffer } from 'node:buffer';
import { PDFCatalog, PDFDict, PDFName, PDFNumber, PDFRef, PDFDocument, type PDFContext, type PDFObject } from 'pdf-lib';
import { FastParser, loadPdf } from './load.ts';
import { MAX_DECODED_BYTES } from './pdf-limits.ts';
import { headerOffset } from './xref.ts';

/** Called once per object, when it is first parsed: the change tracker snapshots it before anyone can change it. */
export type LoadListener = (ref: PDFRef, object: PDFObject) => void;

/** More sections than this in one /Prev chain: not a file to trust the tables of. */
const MAX_SECTIONS = 256;

/** The indirect objects of a lazily loaded document: those not parsed yet are parsed by `get`. */
class LazyObjects extends Map<PDFRef, PDFObject> {
  listener: LoadListener | undefined;

  constructor(private readonly pending: Map<PDFRef, number>, private readonly parser: FastParser) {
    super();
  }

  override get(ref: PDFRef): PDFObject | undefined {
    const loaded = super.get(ref);
    if (loaded !== undefined) return loaded;
    const offset = this.pending.get(ref);
    if (offset === undefined) return undefined;
    this.pending.delete(ref);
    const object = this.parser.objectAt(offset, ref);
    this.parser.documentContext.assign(ref, object);
    this.listener?.(ref, object);
    return object;
  }
}

/** A document loaded lazily where its tables allow, else whole (loadPdf). */
export async function loadPdfForUpdate(bytes: Uint8Array): Promise<PDFDocument> {
  return loadLazily(bytes) ?? loadPdf(bytes);
}

/** Whether `doc`'s objects are parsed on first lookup (then only those parsed so far are enumerated). */
export function isLazy(doc: PDFDocument): boolean {
  return objectsOf(doc.context) instanceof LazyObjects;
}

/** Calls `listener` for each object parsed from now on (a document loaded whole has none left to parse). */
export function onFirstLoad(context: PDFContext, listener: LoadListener): void {
  const objects = objectsOf(context);
  if (objects instanceof LazyObjects) objects.listener = listener;
}

const objectsOf = (context: PDFContext): Map<PDFRef, PDFObject> => (context as unknown as { indirectObjects: Map<PDFRef, PDFObject> }).indirectObjects;

function loadLazily(bytes: Uint8Array): PDFDocument | undefined {
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let base: number;
  try {
    base = headerOffset(bytes);
  } catch {
    return undefined;
  }
  const parser = new FastParser(bytes, { left: MAX_DECODED_BYTES });
  const tables = readTables(raw, base, parser);
  if (!tables?.trailer.Root) return undefined;
  const pending = new Map<PDFRef, number>();
  for (const [objectNumber, entry] of tables.entries) {
    if (!entry) continue;
    const at = entry.offset + base;
    if (!objectHeaderAt(raw, at, objectNumber, entry.generation)) return undefined; // a stale table: parse the whole file
    pending.set(PDFRef.of(objectNumber, entry.generation), at);
  }
  const context = parser.documentContext;
  (context as unknown as { indirectObjects: Map<PDFRef, PDFObject> }).indirectObjects = new LazyObjects(pending, parser);
  context.trailerInfo = tables.trailer;
  context.largestObjectNumber = Math.max(tables.size - 1, ...tables.entries.keys(), largestReferenceIn(raw, [...pending.values()].sort((a, b) => a - b)));
  try {
    const doc = new (PDFDocument as unknown as new (context: PDFContext, ignoreEncryption: boolean, updateMetadata: boolean) => PDFDocument)(context, true, false);
    // The catalog and the whole page tree (which the seal reads anyway) must be where the tables say.
    if (!(doc.catalog instanceof PDFCatalog) || doc.getPages().length === 0) return undefined;
    return doc;
  } catch {
    return undefined; // the whole parse decides (pdf-lib's parser recovers some damage the tables do not)
  }
}

interface Tables {
  /** Per object number, its newest entry: where it is, or null when the newest section marks it free. */
  entries: Map<number, { offset: number; generation: number } | null>;
  /** Root, Info, ID and Encrypt, each from the newest trailer that has it (as pdf-lib's parser merges them). */
  trailer: PDFContext['trailerInfo'];
  size: number;
}

/** Every section from the last `startxref` through /Prev, newest first; undefined unless all are classic tables. */
function readTables(raw: Buffer, base: number, parser: FastParser): Tables | undefined {
  const start = lastStartxref(raw);
  if (start === undefined) return undefined;
  const entries: Tables['entries'] = new Map();
  const trailer: Tables['trailer'] = {};
  let size = 0;
  const seen = new Set<number>();
  for (let at: number | undefined = start; at !== undefined;) {
    if (seen.has(at) || seen.size >= MAX_SECTIONS) return undefined;
    seen.add(at);
    const section = readSection(raw, at + base, parser);
    if (!section) return undefined;
    for (const [objectNumber, entry] of section.entries) if (!entries.has(objectNumber)) entries.set(objectNumber, entry);
    const dict = section.trailer;
    if (dict.has(PDFName.of('XRefStm'))) return undefined; // a hybrid file: some objects are only in the stream
    trailer.Root ??= dict.get(PDFName.of('Root'));
    trailer.Encrypt ??= dict.get(PDFName.of('Encrypt'));
    trailer.Info ??= dict.get(PDFName.of('Info'));
    trailer.ID ??= dict.get(PDFName.of('ID'));
    const sectionSize = dict.get(PDFName.of('Size'));
    if (sectionSize instanceof PDFNumber) size = Math.max(size, sectionSize.asNumber());
    const prev = dict.get(PDFName.of('Prev'));
    if (prev !== undefined && !(prev instanceof PDFNumber)) return undefined;
    at = prev?.asNumber();
  }
  return { entries, trailer, size };
}

const TAIL = 1024;

function lastStartxref(raw: Buffer): number | undefined {
  const tail = raw.toString('latin1', Math.max(0, raw.length - TAIL));
  const match = /startxref\s+(\d{1,12})\s+%%EOF\s*$/.exec(tail);
  return match?.[1] ? Number(match[1]) : undefined;
}

/** One `xref` table and its trailer at `at`; undefined when the bytes there are anything else. */
function readSection(raw: Buffer, at: number, parser: FastParser): { entries: Tables['entries']; trailer: PDFDict } | undefined {
  if (at < 0 || at >= raw.length) return undefined;
  const trailerAt = raw.indexOf('trailer', at, 'latin1');
  if (trailerAt < 0) return undefined;
  const tokens = raw.toString('latin1', at, trailerAt).trim().split(/\s+/);
  if (tokens[0] !== 'xref') return undefined;
  const entries: Tables['entries'] = new Map();
  for (let i = 1; i < tokens.length;) {
    const first = Number(tokens[i]);
    const count = Number(tokens[i + 1]);
    if (!/^\d+$/.test(tokens[i] ?? '') || !/^\d+$/.test(tokens[i + 1] ?? '') || i + 2 + count * 3 > tokens.length) return undefined;
    for (let n = 0; n < count; n++) {
      const [offset, generation, kind] = [tokens[i + 2 + n * 3], tokens[i + 3 + n * 3], tokens[i + 4 + n * 3]];
      if (!/^\d+$/.test(offset ?? '') || !/^\d+$/.test(generation ?? '') || (kind !== 'n' && kind !== 'f')) return undefined;
      if (!entries.has(first + n)) entries.set(first + n, kind === 'n' ? { offset: Number(offset), generation: Number(generation) } : null);
    }
    i += 2 + count * 3;
  }
  const trailer = parser.dictAt(trailerAt + 'trailer'.length);
  return trailer ? { entries, trailer } : undefined;
}

/** Whether `N G obj` starts at `at`. */
function objectHeaderAt(raw: Buffer, at: number, objectNumber: number, generation: number): boolean {
  if (at < 0 || at >= raw.length) return false;
  const head = /^(\d+)\s+(\d+)\s+obj\b/.exec(raw.toString('latin1', at, Math.min(raw.length, at + 40)));
  return head !== null && Number(head[1]) === objectNumber && Number(head[2]) === generation;
}

const STREAM = Buffer.from('stream', 'latin1');
const REFERENCE = /(\d+)\s+\d+\s+R(?![A-Za-z0-9])/g;

/**
 * The largest object number any reference names, from each object's text up to its `stream` keyword (if any):
 * a stream's data holds no references, and 25 MB of images are never read. A false match (digits and an R in a
 * string) only raises the bound.
 */
function largestReferenceIn(raw: Buffer, offsets: number[]): number {
  let largest = 0;
  offsets.forEach((at, i) => {
    const end = offsets[i + 1] ?? raw.length;
    const text = raw.toString('latin1', at, dictionaryEnd(raw, at, end));
    for (const match of text.matchAll(REFERENCE)) largest = Math.max(largest, Number(match[1]));
  });
  return largest;
}

/** Where an object's `stream` keyword is (after `>>`, before an end of line), else `end`. */
function dictionaryEnd(raw: Buffer, at: number, end: number): number {
  const region = raw.subarray(0, end);
  for (let from = at; ;) {
    const found = region.indexOf(STREAM, from);
    if (found < 0) return end;
    const before = raw.toString('latin1', Math.max(at, found - 8), found).trimEnd();
    const after = raw[found + STREAM.length];
    if (before.endsWith('>>') && (after === 0x0d || after === 0x0a)) return found;
    from = found + STREAM.length;
  }
}
