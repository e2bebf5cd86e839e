/**
 * Incremental updates: the changes made to a loaded pdf-lib document, appended to the original bytes
 * (ISO 32000-1 §7.5.6) so the original file stays an exact byte prefix of the result.
 *
 *   const doc = await loadPdfForUpdate(bytes); // lazy-load.ts
 *   const tracker = trackChanges(doc, bytes); // before any change; or: const { doc, tracker } = await openForUpdate(bytes)
 *   ...mutate doc...
 *   const updated = appendIncrementalUpdate(bytes, doc, tracker);
 *
 * Only new and changed indirect objects are written, followed by a cross-reference section of the same
 * kind as the original's last one (a table after a table, an XRef stream after an XRef stream) whose
 * trailer points back at it with /Prev. Deleted objects are simply left unreferenced.
 */
import { Buffer } from 'node:buffer';
import { PDFArray, PDFContext, PDFDict, PDFName, PDFNumber, PDFRawStream, PDFRef, PDFStream, type PDFDocument, type PDFObject } from 'pdf-lib';
import { loadPdfForUpdate, onFirstLoad } from '../pdf/lazy-load.ts';
import { readLastXref } from '../pdf/xref.ts';

/** Where the original's last cross-reference section is, and what kind it is. */
export interface PreviousXref {
  kind: 'table' | 'stream';
  /** The offset written after the original's last `startxref` (becomes our /Prev). */
  offset: number;
  /** 0, or the position of %PDF- when the file's offsets count from a header preceded by junk. */
  base: number;
  /** The original trailer's /Size: object numbers below it may be in use even if pdf-lib never saw them. */
  size: number;
}

/**
 * What a document looked like when it was loaded, or when its last update was written: writeUpdate() moves it on,
 * so several updates can follow each other without reading back what was written.
 */
export interface ChangeTracker {
  /** The bytes the next update follows (for appendIncrementalUpdate's check). */
  original: Uint8Array;
  /** How many bytes the file has before the next update. */
  length: number;
  /** The last byte before the next update (an object must start a line). */
  lastByte: number | undefined;
  previous: PreviousXref;
  readonly snapshot: Map<PDFRef, Fingerprint>;
}

/** One written update: its chunks, in order, and where each object of it starts in the whole file. */
export interface WrittenUpdate {
  chunks: Buffer[];
  length: number;
  objects: Map<PDFRef, { offset: number; chunk: Buffer }>;
}

/** How an indirect object looked: its serialization, and for raw streams the identity of their data. */
interface Fingerprint {
  /** A raw stream's data: compared by identity, so 25 MB of images are never re-hashed. */
  contents?: Uint8Array;
  text: string;
}

const LF = 0x0a;
const CR = 0x0d;
const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');

/** Loads a PDF with the project's parser and starts tracking its changes. */
export async function openForUpdate(bytes: Uint8Array): Promise<{ doc: PDFDocument; tracker: ChangeTracker }> {
  const doc = await loadPdfForUpdate(bytes);
  return { doc, tracker: trackChanges(doc, bytes) };
}

/**
 * Snapshots every indirect object of a freshly loaded `doc` (loaded from `original`, unmodified); of a lazily loaded
 * one (lazy-load.ts), those parsed so far, and each later one as it is parsed, before anything can change it.
 * Needs the bytes, not just the document: it also reserves the object numbers below the original's
 * /Size, which pdf-lib does not know about (it keeps neither object streams nor XRef streams in its
 * context), so that new objects never take the number of one of those.
 */
export function trackChanges(doc: PDFDocument, original: Uint8Array): ChangeTracker {
  // Updates to encrypted files would need every new string and stream encrypted.
  if (doc.isEncrypted) throw new Error('Cannot append an incremental update to an encrypted PDF');
  const { kind, offset, base, size } = readLastXref(original);
  const previous = { kind, offset, base, size };
  const { context } = doc;
  context.largestObjectNumber = Math.max(context.largestObjectNumber, previous.size - 1, largestReference(context));
  const snapshot = new Map<PDFRef, Fingerprint>();
  for (const [ref, object] of context.enumerateIndirectObjects()) snapshot.set(ref, fingerprint(object));
  onFirstLoad(context, (ref, object) => snapshot.set(ref, fingerprint(object)));
  return { original, length: original.length, lastByte: original[original.length - 1], previous, snapshot };
}

/**
 * The largest object number any object refers to. A damaged file may refer to objects it does not have (a page's
 * /Parent, a font in /Resources); a new object given that number would silently become what the reference means,
 * changing how the original renders in the sealed file. So new numbers start above every reference.
 */
function largestReference(context: PDFContext): number {
  let largest = 0;
  const visit = (object: PDFObject | undefined): void => {
    if (object instanceof PDFRef) largest = Math.max(largest, object.objectNumber);
    else if (object instanceof PDFDict) for (const value of object.values()) visit(value);
    else if (object instanceof PDFArray) for (let i = 0; i < object.size(); i++) visit(object.get(i));
    else if (object instanceof PDFStream) visit(object.dict);
  };
  for (const [, object] of context.enumerateIndirectObjects()) visit(object);
  return largest;
}

/** The indirect objects that are new or differ from the snapshot, in ascending object number. */
export function changedObjects(doc: PDFDocument, tracker: ChangeTracker): [PDFRef, PDFObject][] {
  return doc.context.enumerateIndirectObjects().filter(([ref, object]) => {
    const before = tracker.snapshot.get(ref);
    return before === undefined || !sameAs(before, object);
  });
}

/**
 * `original` followed by an update holding every new or changed object of `doc`; `original` itself if
 * nothing changed. `original` must be the bytes `tracker` stands at.
 */
export function appendIncrementalUpdate(original: Uint8Array, doc: PDFDocument, tracker: ChangeTracker): Uint8Array {
  if (original !== tracker.original && Buffer.compare(original, tracker.original) !== 0) {
    throw new Error('appendIncrementalUpdate: these are not the bytes the change tracker was made from');
  }
  const update = writeUpdate(doc, tracker);
  if (!update) return original;
  const out = Buffer.concat([original, ...update.chunks], original.length + update.length);
  const bytes = new Uint8Array(out.buffer, out.byteOffset, out.length);
  tracker.original = bytes;
  return bytes;
}

/**
 * Serializes every new or changed object of `doc` and a cross-reference section chained to the previous one, and
 * moves the tracker past them (undefined when nothing changed). The caller appends the chunks to the file.
 */
export function writeUpdate(doc: PDFDocument, tracker: ChangeTracker): WrittenUpdate | undefined {
  const changed = changedObjects(doc, tracker);
  if (changed.length === 0) return undefined;
  const { previous } = tracker;
  const chunks: Buffer[] = [];
  const objects = new Map<PDFRef, { offset: number; chunk: Buffer }>();
  let position = tracker.length;
  const push = (chunk: Buffer): void => {
    chunks.push(chunk);
    position += chunk.length;
  };
  if (tracker.lastByte !== LF && tracker.lastByte !== CR) push(latin1('\n')); // `N 0 obj` must start a line
  const entries: XrefEntry[] = [];
  for (const [ref, object] of changed) {
    const chunk = serializeIndirect(ref.objectNumber, ref.generationNumber, object);
    entries.push({ ref, offset: position - previous.base });
    objects.set(ref, { offset: position, chunk });
    push(chunk);
    tracker.snapshot.set(ref, fingerprint(object));
  }
  const size = Math.max(previous.size, doc.context.largestObjectNumber + 1);
  const at = position - previous.base;
  const section = { entries, at, size, trailer: trailerDict(doc.context, previous.offset) };
  push(previous.kind === 'table' ? xrefTable(section) : xrefStream(section));
  // An XRef stream takes the number `size` for itself; later objects must not reuse it.
  if (previous.kind === 'stream') doc.context.largestObjectNumber = Math.max(doc.context.largestObjectNumber, size);
  tracker.previous = { kind: previous.kind, offset: at, base: previous.base, size: previous.kind === 'stream' ? size + 1 : size };
  const length = position - tracker.length;
  tracker.length = position;
  tracker.lastByte = LF;
  return { chunks, length, objects };
}

function fingerprint(object: PDFObject): Fingerprint {
  if (object instanceof PDFRawStream) return { contents: object.contents, text: object.dict.toString() };
  return { text: object.toString() };
}

function sameAs(before: Fingerprint, now: PDFObject): boolean {
  if (now instanceof PDFRawStream) return before.contents === now.contents && before.text === now.dict.toString();
  return before.contents === undefined && before.text === now.toString();
}

// ---------------------------------------------------------------------------------------------
// Writing objects and cross-reference sections.

interface XrefEntry {
  ref: PDFRef;
  offset: number;
}

interface XrefSection {
  entries: XrefEntry[];
  /** Offset of the section itself (what `startxref` will say). */
  at: number;
  /** One more than the highest object number in use, not counting an XRef stream's own object. */
  size: number;
  /** /Root, /Info, /ID and /Prev. */
  trailer: PDFDict;
}

function serializeIndirect(objectNumber: number, generation: number, object: PDFObject): Buffer {
  const head = latin1(`${objectNumber} ${generation} obj\n`);
  const tail = latin1('\nendobj\n');
  const out = Buffer.allocUnsafe(head.length + object.sizeInBytes() + tail.length);
  head.copy(out, 0);
  const end = head.length + object.copyBytesInto(out, head.length);
  tail.copy(out, end);
  return out;
}

function trailerDict(context: PDFContext, prev: number): PDFDict {
  const dict = context.obj({});
  const { Root, Info, ID } = context.trailerInfo;
  if (Root) dict.set(PDFName.of('Root'), Root);
  if (Info) dict.set(PDFName.of('Info'), Info);
  if (ID) dict.set(PDFName.of('ID'), ID); // kept as is: the first ID identifies the document across updates
  dict.set(PDFName.of('Prev'), PDFNumber.of(prev));
  return dict;
}

/** `xref`, one subsection per run of consecutive object numbers, the trailer, startxref and %%EOF. */
function xrefTable({ entries, at, size, trailer }: XrefSection): Buffer {
  let text = 'xref\n';
  for (const run of consecutiveRuns(entries)) {
    text += `${run[0]?.ref.objectNumber ?? 0} ${run.length}\n`;
    for (const { ref, offset } of run) {
      text += `${String(offset).padStart(10, '0')} ${String(ref.generationNumber).padStart(5, '0')} n \n`;
    }
  }
  trailer.set(PDFName.of('Size'), PDFNumber.of(size));
  text += `trailer\n${trailer.toString()}\nstartxref\n${at}\n%%EOF\n`;
  return latin1(text);
}

/** An uncompressed XRef stream object (its own entry included), then startxref and %%EOF. */
function xrefStream({ entries, at, size, trailer }: XrefSection): Buffer {
  const self = PDFRef.of(size); // free: every number in use is below `size`
  const all = [...entries, { ref: self, offset: at }];
  const offsetWidth = byteWidth(Math.max(...all.map((e) => e.offset)));
  const generationWidth = byteWidth(Math.max(...all.map((e) => e.ref.generationNumber)));
  const data = Buffer.alloc(all.length * (1 + offsetWidth + generationWidth));
  let cursor = 0;
  for (const { ref, offset } of all) {
    cursor = data.writeUInt8(1, cursor); // type 1: an uncompressed object at a byte offset
    cursor = writeUInt(data, offset, cursor, offsetWidth);
    cursor = writeUInt(data, ref.generationNumber, cursor, generationWidth);
  }
  const index = consecutiveRuns(all).flatMap((run) => [run[0]?.ref.objectNumber ?? 0, run.length]);
  const dict = trailer.context.obj({ Type: 'XRef', W: [1, offsetWidth, generationWidth], Index: index });
  dict.set(PDFName.of('Size'), PDFNumber.of(size + 1));
  for (const [key, value] of trailer.entries()) dict.set(key, value);
  const object = serializeIndirect(self.objectNumber, 0, PDFRawStream.of(dict, data));
  return Buffer.concat([object, latin1(`startxref\n${at}\n%%EOF\n`)]);
}

function consecutiveRuns(entries: XrefEntry[]): XrefEntry[][] {
  const runs: XrefEntry[][] = [];
  for (const entry of entries) {
    const run = runs[runs.length - 1];
    const last = run?.[run.length - 1];
    if (run && last && entry.ref.objectNumber === last.ref.objectNumber + 1) run.push(entry);
    else runs.push([entry]);
  }
  return runs;
}

function byteWidth(value: number): number {
  let width = 1;
  while (value >= 256 ** width) width++;
  return width;
}

/** Big-endian unsigned integer of `width` bytes (offsets may exceed 32 bits in theory). */
function writeUInt(buf: Buffer, value: number, at: number, width: number): number {
  for (let i = width - 1; i >= 0; i--) buf[at + width - 1 - i] = Math.floor(value / 256 ** i) % 256;
  return at + width;
}
