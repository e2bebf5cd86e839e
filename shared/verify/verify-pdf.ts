/**
 * The PDF side of verification, for the browser and Node alike (pdf-lib, no Node API): every signature and document
 * timestamp with the bytes its /ByteRange covers, the DSS (certificates, CRLs, OCSP responses), and what each
 * incremental update after a signature changed.
 *
 * A revision is the file up to a signature's covered end; pdf-lib parses a file front to back, so loading such a
 * prefix gives the document exactly as it was signed, and comparing its objects with a later revision's gives what
 * was changed since. Only the DSS (with its VRI entries) and document timestamps may be added after a signature;
 * anything else is listed as a modification.
 */
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFParser, PDFRawStream, PDFRef, PDFStream, PDFString, type PDFContext, type PDFObject } from 'pdf-lib';

export type ModificationKind = 'dss' | 'document-timestamp' | 'signature' | 'form' | 'page' | 'annotation' | 'content' | 'metadata' | 'other';

export interface Modification {
  kind: ModificationKind;
  /** The indirect object, e.g. "12 0 R". */
  object: string;
  description: string;
  /** DSS and document timestamps are acceptable; so are changes a later signature covers (it vouches for them). */
  acceptable: boolean;
}

export interface PdfSignature {
  /** The field's name, when the signature dictionary hangs from a field. */
  field: string | null;
  subFilter: string;
  documentTimestamp: boolean;
  byteRange: [number, number, number, number];
  /** The CMS (or timestamp token) in /Contents, without its zero padding. */
  contents: Uint8Array;
  /** The claimed signing time (/M), ISO 8601. */
  claimedTime: string | null;
  /** The /Name entry: free text the signing application wrote. */
  name: string | null;
  /** Where its covered bytes end: its revision. */
  revisionEnd: number;
  /** Structural problems with the /ByteRange (not starting at 0, not framing /Contents, past the end). */
  rangeProblem: string | null;
}

export interface ParsedPdf {
  signatures: PdfSignature[];
  /** DER certificates, CRLs and OCSP responses of the DSS. */
  dss: { certs: Uint8Array[]; crls: Uint8Array[]; ocsps: Uint8Array[] } | null;
}

export class NotAPdf extends Error {
  constructor(why: string) {
    super(why);
    this.name = 'NotAPdf';
  }
}

const latin1 = (bytes: Uint8Array): string => {
  let text = '';
  for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return text;
};

/** The first bytes: `%PDF-` within the first KB (junk before the header is allowed by readers). */
export function looksLikePdf(bytes: Uint8Array): boolean {
  return latin1(bytes.subarray(0, 1024)).includes('%PDF-');
}

/**
 * PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false }), but with
 * stream data as views of `bytes` (two revisions of one file then share an unchanged stream's bytes, and 25 MB of
 * images are not copied per revision) and without pausing every 100 objects.
 */
export async function loadRevision(bytes: Uint8Array): Promise<PDFDocument> {
  const parser = PDFParser.forBytesWithOptions(bytes, Infinity, false);
  (parser as unknown as { bytes: { slice(start: number, end: number): Uint8Array } }).bytes.slice = (start, end) => bytes.subarray(start, end);
  return documentOf(await parser.parseDocument());
}

/** The document over a parsed context, as PDFDocument.load(…, { ignoreEncryption: true, updateMetadata: false }) makes it (its constructor is private). */
export const documentOf = (context: PDFContext): PDFDocument =>
  new (PDFDocument as unknown as new (context: PDFContext, ignoreEncryption: boolean, updateMetadata: boolean) => PDFDocument)(context, true, false);

/** PDFName.of decodes its argument each call: the verifier asks for the same few names for every object. */
const names = new Map<string, PDFName>();
const pdfName = (key: string): PDFName => {
  let cached = names.get(key);
  if (!cached) names.set(key, (cached = PDFName.of(key)));
  return cached;
};

const name = (dict: PDFDict, key: string): string | null => {
  const value = dict.get(pdfName(key));
  return value instanceof PDFName ? value.decodeText() : null;
};

const text = (dict: PDFDict, key: string): string | null => {
  const value = dict.lookup(pdfName(key));
  return value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : null;
};

const date = (dict: PDFDict, key: string): string | null => {
  const value = dict.lookup(pdfName(key));
  try {
    return value instanceof PDFString || value instanceof PDFHexString ? value.decodeDate().toISOString() : null;
  } catch {
    return null;
  }
};

/** DER without the trailing zero padding /Contents carries: the outer length says where it ends. */
function stripPadding(der: Uint8Array): Uint8Array {
  if (der.length < 2 || der[0] !== 0x30) return der;
  const first = der[1] ?? 0;
  if (first < 0x80) return der.subarray(0, 2 + first);
  const count = first & 0x7f;
  let length = 0;
  for (let i = 0; i < count; i++) length = length * 256 + (der[2 + i] ?? 0);
  return der.subarray(0, Math.min(der.length, 2 + count + length));
}

function byteRangeOf(dict: PDFDict): [number, number, number, number] | null {
  const array = dict.lookup(pdfName('ByteRange'));
  if (!(array instanceof PDFArray) || array.size() !== 4) return null;
  const values = array.asArray().map((n) => Number(n.toString()));
  return values.every((n) => Number.isSafeInteger(n) && n >= 0) ? (values as [number, number, number, number]) : null;
}

/** What is wrong with a /ByteRange, or null: it starts the file, and its gap is exactly the hex string of /Contents. */
function rangeProblem(bytes: Uint8Array, [a, b, c, d]: [number, number, number, number]): string | null {
  if (a !== 0) return 'the signed range does not start at the beginning of the file';
  if (c < b || c + d > bytes.length) return 'the signed range lies outside the file';
  if (bytes[b] !== 0x3c || bytes[c - 1] !== 0x3e) return 'the unsigned gap is not the signature value';
  return null;
}

const V = pdfName('V');
const CONTENTS = pdfName('Contents');
const BYTE_RANGE = pdfName('ByteRange');

/** Every signature dictionary of the final document, in the order of their revisions. */
export function parsePdf(bytes: Uint8Array, doc: PDFDocument): ParsedPdf {
  const fields = new Map<PDFRef, string>();
  const candidates: [PDFRef, PDFDict][] = [];
  // One walk over the objects: a field names its signature (its /V), a dictionary with /ByteRange may be one.
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict)) continue;
    const value = object.get(V);
    if (value instanceof PDFRef) {
      const title = text(object, 'T');
      if (title !== null) fields.set(value, title);
    }
    if (object.has(BYTE_RANGE)) candidates.push([ref, object]);
  }
  const signatures: PdfSignature[] = [];
  for (const [ref, object] of candidates) {
    const contents = object.get(CONTENTS);
    const range = byteRangeOf(object);
    const subFilter = name(object, 'SubFilter');
    if (!range || !(contents instanceof PDFHexString || contents instanceof PDFString) || !subFilter) continue;
    signatures.push({
      field: fields.get(ref) ?? null,
      subFilter,
      documentTimestamp: subFilter === 'ETSI.RFC3161' || name(object, 'Type') === 'DocTimeStamp',
      byteRange: range,
      contents: stripPadding(contents.asBytes()),
      claimedTime: date(object, 'M'),
      name: text(object, 'Name'),
      revisionEnd: range[2] + range[3],
      rangeProblem: rangeProblem(bytes, range),
    });
  }
  signatures.sort((x, y) => x.revisionEnd - y.revisionEnd);
  const dss = doc.catalog.lookupMaybe(pdfName('DSS'), PDFDict);
  return { signatures, dss: dss ? readDss(doc.context, dss) : null };
}

function readDss(context: PDFContext, dss: PDFDict): NonNullable<ParsedPdf['dss']> {
  const streams = (key: string): Uint8Array[] => (dss.lookupMaybe(pdfName(key), PDFArray)?.asArray() ?? []).flatMap((ref) => {
    const stream = context.lookup(ref);
    if (!(stream instanceof PDFRawStream)) return [];
    try {
      return [decodePDFRawStream(stream).decode()];
    } catch {
      return [];
    }
  });
  return { certs: streams('Certs'), crls: streams('CRLs'), ocsps: streams('OCSPs') };
}

/** What a signature covers: the two ranges of its /ByteRange, concatenated. */
export function coveredBytes(bytes: Uint8Array, [a, b, c, d]: [number, number, number, number]): Uint8Array {
  const out = new Uint8Array(b + d);
  out.set(bytes.subarray(a, a + b), 0);
  out.set(bytes.subarray(c, c + d), b);
  return out;
}

// ---------------------------------------------------------------------------------------------
// What changed between two revisions.

export const sameObject = (before: PDFObject | undefined, after: PDFObject): boolean => {
  if (before === undefined) return false;
  if (before === after) return true; // one parse's revisions share what no update rewrote
  if (after instanceof PDFRawStream && before instanceof PDFRawStream) {
    if (after.dict.toString() !== before.dict.toString()) return false;
    return sameBytes(before.contents, after.contents);
  }
  return before.toString() === after.toString();
};

/** Equal contents: the same bytes of the file (an object no update rewrote) without reading them, else compared. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  if (a.buffer === b.buffer && a.byteOffset === b.byteOffset) return true;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Every object reachable from `root` (refs followed), as refs. */
function reachable(context: PDFContext, root: PDFObject | undefined): Set<string> {
  const seen = new Set<string>();
  const visit = (object: PDFObject | undefined): void => {
    if (object instanceof PDFRef) {
      if (seen.has(object.toString())) return;
      seen.add(object.toString());
      visit(context.lookup(object));
    } else if (object instanceof PDFDict) for (const value of object.values()) visit(value);
    else if (object instanceof PDFArray) for (let i = 0; i < object.size(); i++) visit(object.get(i));
    else if (object instanceof PDFStream) visit(object.dict);
  };
  visit(root);
  return seen;
}

/** The dictionary without the given keys, for "did anything else change". */
function without(dict: PDFObject | undefined, keys: string[]): string {
  if (!(dict instanceof PDFDict)) return String(dict);
  const entries = dict.entries().filter(([key]) => !keys.includes(key.decodeText()));
  return entries.map(([key, value]) => `${key.toString()} ${value.toString()}`).sort().join(' ');
}

/**
 * The objects of `after` that are new or differ from `before`, each classified. `signedLater` says which changes a
 * later approval signature covers (then they are acceptable).
 */
export function changesBetween(before: PDFDocument, after: PDFDocument, signedLater: (ref: PDFRef) => boolean): Modification[] {
  const context = after.context;
  const dssObjects = reachable(context, after.catalog.get(pdfName('DSS')));
  // What no reader reaches from the trailer cannot change what the document shows.
  const used = reachable(context, context.obj([context.trailerInfo.Root, ...(context.trailerInfo.Info ? [context.trailerInfo.Info] : [])] as PDFObject[]));
  const timestampObjects = new Set<string>();
  const signatureObjects = new Set<string>();
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict)) continue;
    const value = context.lookup(object.get(pdfName('V'))); // through this revision's objects, not the dictionary's parse
    const field = name(object, 'FT') === 'Sig' && value instanceof PDFDict ? value : undefined;
    const signature = field ?? (object.has(pdfName('ByteRange')) ? object : undefined);
    if (!signature) continue;
    const isTimestamp = name(signature, 'SubFilter') === 'ETSI.RFC3161';
    const set = isTimestamp ? timestampObjects : signatureObjects;
    set.add(ref.toString());
    if (field) for (const appearance of reachable(context, object.get(pdfName('AP')))) set.add(appearance);
  }
  const modifications: Modification[] = [];
  const list = (ref: PDFRef, kind: ModificationKind, description: string, acceptable = false): void => {
    modifications.push({ kind, object: ref.toString(), description, acceptable: acceptable || signedLater(ref) });
  };
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    const previous = before.context.lookup(ref);
    if (sameObject(previous, object)) continue;
    const key = ref.toString();
    const type = object instanceof PDFDict ? name(object, 'Type') : object instanceof PDFStream ? name(object.dict, 'Type') : null;
    const added = previous === undefined;
    if (type === 'XRef' || type === 'ObjStm' || !used.has(key)) continue; // the file's structure, or unreachable
    if (dssObjects.has(key)) list(ref, 'dss', added ? 'validation data added (DSS)' : 'validation data updated (DSS)', true);
    else if (timestampObjects.has(key)) list(ref, 'document-timestamp', 'document timestamp added', true);
    else if (signatureObjects.has(key)) list(ref, 'signature', added ? 'signature added' : 'signature changed');
    else if (type === 'Catalog' && object instanceof PDFDict) {
      const otherKeys = without(previous, ['DSS', 'Extensions', 'AcroForm']) !== without(object, ['DSS', 'Extensions', 'AcroForm']);
      const formChanged = !sameInline(before, after, previous, object, 'AcroForm', timestampObjects);
      if (otherKeys || formChanged) list(ref, 'other', 'document catalog changed');
    } else if (object instanceof PDFDict && name(object, 'Type') === 'Page') {
      const annotsOnly = without(previous, ['Annots']) === without(object, ['Annots']);
      if (!annotsOnly) list(ref, 'page', 'page changed');
      else if (!onlyAdded(before, after, previous, object, 'Annots', timestampObjects)) list(ref, 'annotation', 'annotations of a page changed');
    } else if (object instanceof PDFDict && object.has(pdfName('Fields'))) {
      if (without(previous, ['Fields', 'SigFlags']) !== without(object, ['Fields', 'SigFlags']) || !onlyAdded(before, after, previous, object, 'Fields', timestampObjects)) {
        list(ref, 'form', 'form changed');
      }
    } else if (object instanceof PDFDict && (object.has(pdfName('ModDate')) || object.has(pdfName('Producer')))) list(ref, 'metadata', 'document information changed');
    else if (object instanceof PDFDict && name(object, 'Type') === 'Annot') list(ref, 'annotation', added ? 'annotation added' : 'annotation changed');
    else if (object instanceof PDFStream) list(ref, 'content', added ? 'content stream added' : 'content stream changed');
    else list(ref, 'other', added ? `object added${type ? ` (${type})` : ''}` : `object changed${type ? ` (${type})` : ''}`);
  }
  return modifications;
}

/** Whether an array entry (`key` of two dictionaries) only grew, and only by document-timestamp objects. */
function onlyAdded(before: PDFDocument, after: PDFDocument, previous: PDFObject | undefined, object: PDFDict, key: string, allowed: Set<string>): boolean {
  const items = (doc: PDFDocument, dict: PDFObject | undefined): string[] => {
    const array = dict instanceof PDFDict ? doc.context.lookup(dict.get(pdfName(key))) : undefined;
    return array instanceof PDFArray ? array.asArray().map((item) => item.toString()) : [];
  };
  const was = items(before, previous);
  const now = items(after, object);
  return was.every((item, i) => now[i] === item) && now.slice(was.length).every((item) => allowed.has(item));
}

/** Whether a catalog's inline or referenced dictionary (`key`) only gained document-timestamp fields. */
function sameInline(before: PDFDocument, after: PDFDocument, previous: PDFObject | undefined, object: PDFDict, key: string, allowed: Set<string>): boolean {
  const was = previous instanceof PDFDict ? previous.get(pdfName(key)) : undefined;
  const now = object.get(pdfName(key));
  if (now instanceof PDFRef || now === undefined) return was === undefined || was instanceof PDFRef || now === undefined;
  if (!(now instanceof PDFDict)) return true;
  const wasDict = was instanceof PDFRef ? before.context.lookup(was) : was;
  return without(wasDict, ['Fields', 'SigFlags']) === without(now, ['Fields', 'SigFlags']) && onlyAdded(before, after, wasDict, now, 'Fields', allowed);
}
