/**
 * PAdES signatures (ETSI EN 319 142-1) and document timestamps written as incremental updates: the file before
 * stays an exact byte prefix, and each /ByteRange covers the whole file but its own /Contents.
 *
 * Steps: add a signature field (an invisible widget on page 1) whose /V is a signature dictionary with a
 * /ByteRange placeholder and a zero-filled /Contents of fixed size; write the update; patch the real /ByteRange
 * in the chunk just written; hash the covered chunks (nothing is read back or parsed); write the hex of what the
 * signer returns (a CMS, or a timestamp token) into /Contents.
 */
import { createHash } from 'node:crypto';
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFNumber, PDFString, type PDFDocument, type PDFRef } from 'pdf-lib';
import type { DocumentSigner } from '#shared/ports/services.ts';
import { buildCadesSignature } from '../pki/cms.ts';
import { openForUpdate, writeUpdate, type ChangeTracker } from './incremental.ts';

export interface SignPdfOptions {
  /** Written as the signature's /M: PAdES B-B carries the claimed signing time there, not in the CMS. */
  signingTime: Date;
  reason?: string;
  location?: string;
  name?: string;
  contactInfo?: string;
  /** Bytes reserved for the DER CMS (written as twice as many hex digits). Default 16 KB. */
  contentsBytes?: number;
}

/** What was signed did not fit the space reserved for /Contents. */
export class SignatureTooLargeError extends Error {
  constructor(
    readonly cmsBytes: number,
    readonly reservedBytes: number,
  ) {
    super(`The signature (${String(cmsBytes)} bytes of CMS) does not fit the ${String(reservedBytes)} bytes reserved for it: raise contentsBytes`);
    this.name = 'SignatureTooLargeError';
  }
}

export const DEFAULT_CONTENTS_BYTES = 16_384;
/** Ten digits per offset: room for files up to ~9.3 GB; the real values are padded with spaces. */
const WIDE = 9_999_999_999;
/** Print (4) + Locked (128): an invisible seal nobody can move or delete in a viewer. */
const WIDGET_FLAGS = 132;

/**
 * The whole file as it is being written: the original, then each update's chunks. Never copied until bytes(). The
 * SHA-256 runs along it: a chunk wholly before a digest's gap is final (only the newest update's signature chunk is
 * patched, and only until it is signed), so each byte is hashed once however many digests are taken.
 */
export class PdfFile {
  readonly chunks: Uint8Array[];
  length: number;
  /** The hash of chunks[0 .. hashedChunks), all final. */
  private readonly hashed = createHash('sha256');
  private hashedChunks = 0;
  private hashedLength = 0;

  /** `expectedSha256`: the original's SHA-256 (hex); any digest of the file throws OriginalMismatch if it is not. */
  constructor(original: Uint8Array, private readonly expectedSha256?: string) {
    this.chunks = [original];
    this.length = original.length;
  }

  append(chunks: Uint8Array[]): void {
    for (const chunk of chunks) {
      this.chunks.push(chunk);
      this.length += chunk.length;
    }
  }

  /** SHA-256 of everything but [from, to); every chunk ending at or before `from` is final. */
  digestExcept(from: number, to: number): Uint8Array {
    this.settleBefore(from);
    const hash = this.hashed.copy();
    let at = this.hashedLength;
    for (const chunk of this.chunks.slice(this.hashedChunks)) {
      const [start, end] = [at, at + chunk.length];
      if (end <= from || start >= to) hash.update(chunk);
      else {
        if (start < from) hash.update(chunk.subarray(0, from - start));
        if (end > to) hash.update(chunk.subarray(to - start));
      }
      at = end;
    }
    return new Uint8Array(hash.digest());
  }

  /** SHA-256 (hex) of the whole file as it stands: once written, nothing in it changes. */
  sha256(): string {
    this.settleBefore(this.length);
    return this.hashed.copy().digest('hex');
  }

  private settleBefore(position: number): void {
    for (let chunk = this.chunks[this.hashedChunks]; chunk && this.hashedLength + chunk.length <= position; chunk = this.chunks[this.hashedChunks]) {
      this.hashed.update(chunk);
      this.hashedChunks++;
      this.hashedLength += chunk.length;
      if (this.hashedChunks === 1 && this.expectedSha256 !== undefined) {
        const found = this.hashed.copy().digest('hex');
        if (found !== this.expectedSha256) throw new OriginalMismatch(this.expectedSha256, found);
      }
    }
  }

  bytes(): Uint8Array {
    if (this.chunks.length === 1 && this.chunks[0]) return this.chunks[0];
    const out = Buffer.concat(this.chunks, this.length);
    return new Uint8Array(out.buffer, out.byteOffset, out.length);
  }

  /** The file as written, for storing: nothing in it changes any more. */
  written(): WrittenFile {
    let joined: Uint8Array | undefined;
    const bytes = () => (joined ??= this.bytes());
    return { chunks: this.chunks, length: this.length, sha256: this.sha256(), get bytes() { return bytes(); } };
  }
}

/** A sealed or renewed file: the original, then the updates' chunks, stored as they are (BlobStore.put takes chunks), never joined. */
export interface WrittenFile {
  chunks: readonly Uint8Array[];
  /** Its length in bytes. */
  length: number;
  /** Its SHA-256 (hex), from the pass the signatures' digests made. */
  sha256: string;
  /** The file in one buffer, joined when first read (a copy of the original: tests and tools only). */
  readonly bytes: Uint8Array;
}

/** The bytes given to seal are not the ones their record names: nothing is signed. */
export class OriginalMismatch extends Error {
  constructor(readonly expected: string, readonly found: string) {
    super(`The original's SHA-256 is ${found}, not ${expected}`);
    this.name = 'OriginalMismatch';
  }
}

/** A signature dictionary waiting for its /ByteRange and /Contents. */
export interface SignatureSlot {
  ref: PDFRef;
  reserved: number;
  byteRangeText: string;
  contentsText: string;
}

export type SignatureKind = { kind: 'signature'; options: SignPdfOptions } | { kind: 'timestamp'; contentsBytes?: number };

/** Adds a signature field (or a document timestamp field, ETSI.RFC3161) to `doc`; its dictionary awaits the update. */
export function addSignatureField(doc: PDFDocument, what: SignatureKind): SignatureSlot {
  const reserved = (what.kind === 'signature' ? what.options.contentsBytes : what.contentsBytes) ?? DEFAULT_CONTENTS_BYTES;
  if (!Number.isInteger(reserved) || reserved <= 0) throw new RangeError('contentsBytes must be a positive integer');
  const { context } = doc;
  const byteRange = context.obj([0, WIDE, WIDE, WIDE]);
  const contents = PDFHexString.of('0'.repeat(reserved * 2));
  const dict = what.kind === 'signature'
    ? context.obj({ Type: 'Sig', Filter: 'Adobe.PPKLite', SubFilter: 'ETSI.CAdES.detached' })
    : context.obj({ Type: 'DocTimeStamp', Filter: 'Adobe.PPKLite', SubFilter: 'ETSI.RFC3161' });
  dict.set(PDFName.of('ByteRange'), byteRange);
  dict.set(PDFName.of('Contents'), contents);
  if (what.kind === 'signature') describe(dict, what.options);
  const ref = context.register(dict);
  addWidget(doc, ref);
  return { ref, reserved, byteRangeText: `/ByteRange ${byteRange.toString()}`, contentsText: contents.toString() };
}

function describe(dict: PDFDict, options: SignPdfOptions): void {
  dict.set(PDFName.of('M'), PDFString.fromDate(options.signingTime));
  const text = { Reason: options.reason, Location: options.location, Name: options.name, ContactInfo: options.contactInfo };
  for (const [key, value] of Object.entries(text)) {
    if (value !== undefined) dict.set(PDFName.of(key), PDFHexString.fromText(value)); // UTF-16: any script
  }
}

/**
 * Writes `doc`'s pending changes (holding `slot`) as one update appended to `file`, and fills /Contents with what
 * `sign` returns for the SHA-256 of the covered bytes.
 */
export async function writeSignedUpdate(
  doc: PDFDocument,
  tracker: ChangeTracker,
  file: PdfFile,
  slot: SignatureSlot,
  sign: (digest: Uint8Array) => Promise<Uint8Array>,
): Promise<void> {
  const update = writeUpdate(doc, tracker);
  const written = update?.objects.get(slot.ref);
  if (!update || !written) throw new Error('The signature dictionary was not written');
  file.append(update.chunks);
  const local = locate(written.chunk, slot);
  const start = written.offset + local.contents;
  const end = start + slot.contentsText.length;
  const range = `/ByteRange [ ${[0, start, end, file.length - end].join(' ')}`.padEnd(slot.byteRangeText.length - 1, ' ') + ']';
  if (range.length !== slot.byteRangeText.length) throw new Error('The PDF is too large for the /ByteRange placeholder');
  written.chunk.write(range, local.byteRange, 'latin1');
  const der = await sign(file.digestExcept(start, end));
  if (der.length > slot.reserved) throw new SignatureTooLargeError(der.length, slot.reserved);
  written.chunk.write(Buffer.from(der).toString('hex'), local.contents + 1, 'latin1'); // the rest stays 0 padding
}

function locate(chunk: Buffer, slot: SignatureSlot): { byteRange: number; contents: number } {
  const byteRange = chunk.indexOf(slot.byteRangeText, 0, 'latin1');
  const contents = byteRange < 0 ? -1 : chunk.indexOf(slot.contentsText, byteRange, 'latin1');
  if (contents < 0) throw new Error('Signature placeholders not found in the written update');
  return { byteRange, contents };
}

/** An invisible widget on page 1, listed in the AcroForm's /Fields, with /SigFlags 3. */
function addWidget(doc: PDFDocument, signatureRef: PDFRef): void {
  const { context } = doc;
  const page = doc.getPages()[0];
  if (!page) throw new Error('Cannot sign a PDF without pages');
  const acroForm = acroFormOf(doc);
  let fields = acroForm.lookupMaybe(PDFName.of('Fields'), PDFArray);
  if (!fields) {
    fields = context.obj([]);
    acroForm.set(PDFName.of('Fields'), fields);
  }
  const widget = context.obj({ Type: 'Annot', Subtype: 'Widget', FT: 'Sig', Rect: [0, 0, 0, 0], F: WIDGET_FLAGS });
  widget.set(PDFName.of('T'), PDFHexString.fromText(uniqueFieldName(fields)));
  widget.set(PDFName.of('V'), signatureRef);
  widget.set(PDFName.of('P'), page.ref);
  const widgetRef = context.register(widget);
  fields.push(widgetRef);
  const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
  if (annots) annots.push(widgetRef);
  else page.node.set(PDFName.of('Annots'), context.obj([widgetRef]));
  // SignaturesExist (1) + AppendOnly (2): viewers must save further changes incrementally.
  acroForm.set(PDFName.of('SigFlags'), PDFNumber.of(3));
}

function acroFormOf(doc: PDFDocument): PDFDict {
  const existing = doc.catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict);
  if (existing) return existing;
  const created = doc.context.obj({ Fields: [] });
  doc.catalog.set(PDFName.of('AcroForm'), doc.context.register(created));
  return created;
}

function uniqueFieldName(fields: PDFArray): string {
  const taken = new Set<string>();
  for (let i = 0; i < fields.size(); i++) {
    const title = fields.lookupMaybe(i, PDFDict)?.get(PDFName.of('T'));
    if (title instanceof PDFString || title instanceof PDFHexString) taken.add(title.decodeText());
  }
  let n = 1;
  while (taken.has(`Signature${String(n)}`)) n++;
  return `Signature${String(n)}`;
}

/** Signs the whole of `pdf` as an incremental update (PAdES B-B, /SubFilter /ETSI.CAdES.detached). */
export async function signPdf(pdf: Uint8Array, signer: DocumentSigner, options: SignPdfOptions): Promise<Uint8Array> {
  const { doc, tracker } = await openForUpdate(pdf);
  const slot = addSignatureField(doc, { kind: 'signature', options });
  const file = new PdfFile(pdf);
  await writeSignedUpdate(doc, tracker, file, slot, (digest) => buildCadesSignature(signer, digest));
  return file.bytes();
}
