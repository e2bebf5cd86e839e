/**
 * The seal's loader: a document whose objects are parsed when first looked up, at the offsets its cross-reference
 * tables give, instead of every object up front (a 500-page file of images: the catalog, the page tree and the few
 * pages drawn on, not 1,500 objects). An incremental update writes only what changed, and an object never looked up
 * cannot have changed.
 *
 * Every section is read from the last `startxref` through /Prev: classic tables and XRef streams (whose object
 * streams are decoded up front, their dictionaries being small, and each object in them parsed on lookup). A file
 * qualifies when every in-use entry points at its own `N G obj` (or at its index in an object stream whose header
 * names it) and its catalog and page tree load; any other (a hybrid file, a stale or damaged table) is loaded whole
 * by loadPdf, as before (decision 54). The object numbers a new object must not take (those of any reference, even to an object
 * the file lacks) are found by scanning each object's dictionary text and the object streams, never stream data.
 */
import { Buffer } from 'node:buffer';
import { decodePDFRawStream, PDFCatalog, PDFDict, PDFDocument, PDFName, PDFNumber, PDFObjectParser, PDFRawStream, PDFRef, PDFXRefStreamParser, type PDFContext, type PDFObject } from 'pdf-lib';
import { documentOf, FastParser, loadPdf } from './load.ts';
import { MAX_DECODED_BYTES } from './pdf-limits.ts';
import { headerOffset, lastStartxref } from './xref.ts';

/** Called once per object, when it is first parsed: the change tracker snapshots it before anyone can change it. */
export type LoadListener = (ref: PDFRef, object: PDFObject) => void;

/** More sections than this in one /Prev chain: not a file to trust the tables of. */
const MAX_SECTIONS = 256;

/** The indirect objects of a lazily loaded document: those not parsed yet are parsed by `get`. */
class LazyObjects extends Map<PDFRef, PDFObject> {
  listener: LoadListener | undefined;

  constructor(private readonly pending: Map<PDFRef, () => PDFObject>, private readonly context: PDFContext) {
    super();
  }

  override get(ref: PDFRef): PDFObject | undefined {
    const loaded = super.get(ref);
    if (loaded !== undefined) return loaded;
    const parse = this.pending.get(ref);
    if (parse === undefined) return undefined;
    this.pending.delete(ref);
    const object = parse();
    this.context.assign(ref, object);
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
  const context = parser.documentContext;
  const streams = objectStreams(raw, base, tables.entries, parser);
  if (!streams) return undefined;
  const pending = new Map<PDFRef, () => PDFObject>();
  const offsets: number[] = [];
  for (const [objectNumber, entry] of tables.entries) {
    if (!entry || tables.sections.has(objectNumber) || streams.has(objectNumber)) continue; // pdf-lib keeps neither XRef nor object streams
    const ref = PDFRef.of(objectNumber, entry.kind === 'at' ? entry.generation : 0);
    if (entry.kind === 'in') {
      const stream = streams.get(entry.stream);
      const at = stream?.offsets[entry.index];
      if (!stream || at?.objectNumber !== objectNumber) return undefined; // not where the XRef stream says
      pending.set(ref, () => PDFObjectParser.forBytes(stream.data.subarray(stream.first + at.offset), context).parseObject());
      continue;
    }
    const at = entry.offset + base;
    if (!objectHeaderAt(raw, at, objectNumber, entry.generation)) return undefined; // a stale table: parse the whole file
    pending.set(ref, () => parser.objectAt(at, ref));
    offsets.push(at);
  }
  (context as unknown as { indirectObjects: Map<PDFRef, PDFObject> }).indirectObjects = new LazyObjects(pending, context);
  context.trailerInfo = tables.trailer;
  const inStreams = [...streams.values()].map(({ data }) => largestReferenceInText(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1')));
  context.largestObjectNumber = Math.max(tables.size - 1, ...tables.entries.keys(), largestReferenceIn(raw, offsets.sort((a, b) => a - b)), ...inStreams);
  try {
    const doc = documentOf(context);
    // The catalog and the whole page tree (which the seal reads anyway) must be where the tables say.
    if (!(doc.catalog instanceof PDFCatalog) || doc.getPages().length === 0) return undefined;
    return doc;
  } catch {
    return undefined; // the whole parse decides (pdf-lib's parser recovers some damage the tables do not)
  }
}

/** Where an object is: at a byte offset, or at an index of an object stream; null when the newest section frees it. */
type Entry = { kind: 'at'; offset: number; generation: number } | { kind: 'in'; stream: number; index: number } | null;

interface Tables {
  /** Per object number, its newest entry. */
  entries: Map<number, Entry>;
  /** The object numbers of the XRef streams themselves. */
  sections: Set<number>;
  /** Root, Info, ID and Encrypt, each from the newest trailer that has it (as pdf-lib's parser merges them). */
  trailer: PDFContext['trailerInfo'];
  size: number;
}

/** Every section from the last `startxref` through /Prev, newest first; undefined when one cannot be read. */
function readTables(raw: Buffer, base: number, parser: FastParser): Tables | undefined {
  let start: number;
  try {
    start = lastStartxref(raw);
  } catch {
    return undefined;
  }
  const entries: Tables['entries'] = new Map();
  const sections = new Set<number>();
  const trailer: Tables['trailer'] = {};
  let size = 0;
  const seen = new Set<number>();
  for (let at: number | undefined = start; at !== undefined;) {
    if (seen.has(at) || seen.size >= MAX_SECTIONS) return undefined;
    seen.add(at);
    const section = readSection(raw, at + base, parser);
    if (!section) return undefined;
    for (const [objectNumber, entry] of section.entries) if (!entries.has(objectNumber)) entries.set(objectNumber, entry);
    if (section.self !== undefined) sections.add(section.self);
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
  return { entries, sections, trailer, size };
}

interface Section {
  entries: Tables['entries'];
  trailer: PDFDict;
  /** An XRef stream's own object number. */
  self?: number;
}

/** One `xref` table and its trailer, or one XRef stream, at `at`; undefined when the bytes there are anything else. */
function readSection(raw: Buffer, at: number, parser: FastParser): Section | undefined {
  if (at < 0 || at >= raw.length) return undefined;
  const head = /^\s*(\d+)\s+(\d+)\s+obj\b/.exec(raw.toString('latin1', at, Math.min(raw.length, at + 40)));
  if (head) return readXrefStream(at, PDFRef.of(Number(head[1]), Number(head[2])), parser);
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
      if (!entries.has(first + n)) entries.set(first + n, kind === 'n' ? { kind: 'at', offset: Number(offset), generation: Number(generation) } : null);
    }
    i += 2 + count * 3;
  }
  const trailer = parser.dictAt(trailerAt + 'trailer'.length);
  return trailer ? { entries, trailer } : undefined;
}

function readXrefStream(at: number, ref: PDFRef, parser: FastParser): Section | undefined {
  try {
    const stream = parser.objectAt(at, ref);
    if (!(stream instanceof PDFRawStream) || stream.dict.get(PDFName.of('Type')) !== PDFName.of('XRef')) return undefined;
    const entries: Tables['entries'] = new Map();
    for (const entry of PDFXRefStreamParser.forStream(stream).parseIntoContext()) {
      const objectNumber = entry.ref.objectNumber;
      if (entries.has(objectNumber)) continue;
      // pdf-lib reads a compressed entry's stream number as its offset, and its index as its generation.
      if (entry.deleted) entries.set(objectNumber, null);
      else if (entry.inObjectStream) entries.set(objectNumber, { kind: 'in', stream: entry.offset, index: entry.ref.generationNumber });
      else entries.set(objectNumber, { kind: 'at', offset: entry.offset, generation: entry.ref.generationNumber });
    }
    return { entries, trailer: stream.dict, self: ref.objectNumber };
  } catch {
    return undefined;
  }
}

interface ObjectStream {
  data: Uint8Array;
  first: number;
  /** Per index, the object number and offset (after /First) its header gives. */
  offsets: { objectNumber: number; offset: number }[];
}

/** Every object stream an entry names, decoded (their dictionaries are small; the parse checks their size first). */
function objectStreams(raw: Buffer, base: number, entries: Tables['entries'], parser: FastParser): Map<number, ObjectStream> | undefined {
  const streams = new Map<number, ObjectStream>();
  try {
    for (const entry of entries.values()) {
      if (entry?.kind !== 'in' || streams.has(entry.stream)) continue;
      const holder = entries.get(entry.stream);
      if (holder?.kind !== 'at' || !objectHeaderAt(raw, holder.offset + base, entry.stream, holder.generation)) return undefined;
      const stream = parser.objectAt(holder.offset + base, PDFRef.of(entry.stream, holder.generation));
      const [count, first] = [stream instanceof PDFRawStream && stream.dict.get(PDFName.of('N')), stream instanceof PDFRawStream && stream.dict.get(PDFName.of('First'))];
      if (!(stream instanceof PDFRawStream) || stream.dict.get(PDFName.of('Type')) !== PDFName.of('ObjStm') || !(count instanceof PDFNumber) || !(first instanceof PDFNumber)) return undefined;
      const data = decodePDFRawStream(stream).decode();
      const numbers = Buffer.from(data.buffer, data.byteOffset, Math.min(data.byteLength, first.asNumber())).toString('latin1').trim().split(/\s+/).map(Number);
      const offsets = Array.from({ length: count.asNumber() }, (_, i) => ({ objectNumber: numbers[2 * i] ?? NaN, offset: numbers[2 * i + 1] ?? NaN }));
      if (offsets.some(({ objectNumber, offset }) => !Number.isInteger(objectNumber) || !Number.isInteger(offset))) return undefined;
      streams.set(entry.stream, { data, first: first.asNumber(), offsets });
    }
  } catch {
    return undefined;
  }
  return streams;
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
    largest = Math.max(largest, largestReferenceInText(raw.toString('latin1', at, dictionaryEnd(raw, at, end))));
  });
  return largest;
}

function largestReferenceInText(text: string): number {
  let largest = 0;
  for (const match of text.matchAll(REFERENCE)) largest = Math.max(largest, Number(match[1]));
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
