/**
 * PAdES B-B signing (ETSI EN 319 142-1) as an incremental update: the input PDF stays an exact byte
 * prefix of the output, and the signature's /ByteRange covers the whole output but its own /Contents.
 *
 * Steps: add a signature field (invisible widget on page 1) whose /V is a signature dictionary with a
 * /ByteRange placeholder and a zero-filled /Contents of fixed size; append the update; patch the real
 * /ByteRange in place; hash the covered bytes; build the CMS; write its hex into /Contents.
 */
import { createHash } from 'node:crypto';
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFNumber, PDFString, type PDFDocument, type PDFRef } from 'pdf-lib';
import type { DocumentSigner } from '#ports/services.ts';
import { buildCadesSignature } from './cms.ts';
import { appendIncrementalUpdate, openForUpdate } from './incremental.ts';

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

/** The CMS did not fit the space reserved for /Contents. */
export class SignatureTooLargeError extends Error {
  constructor(
    readonly cmsBytes: number,
    readonly reservedBytes: number,
  ) {
    super(`The signature (${cmsBytes} bytes of CMS) does not fit the ${reservedBytes} bytes reserved for it: raise contentsBytes`);
    this.name = 'SignatureTooLargeError';
  }
}

const DEFAULT_CONTENTS_BYTES = 16_384;
/** Ten digits per offset: room for files up to ~9.3 GB; the real values are padded with spaces. */
const WIDE = 9_999_999_999;
/** Print (4) + Locked (128): an invisible seal nobody can move or delete in a viewer. */
const WIDGET_FLAGS = 132;

/** Signs the whole of `pdf` as an incremental update (PAdES B-B, /SubFilter /ETSI.CAdES.detached). */
export async function signPdf(pdf: Uint8Array, signer: DocumentSigner, options: SignPdfOptions): Promise<Uint8Array> {
  const reserved = options.contentsBytes ?? DEFAULT_CONTENTS_BYTES;
  if (!Number.isInteger(reserved) || reserved <= 0) throw new RangeError('contentsBytes must be a positive integer');
  const { doc, tracker } = await openForUpdate(pdf);
  const signature = signatureDictionary(doc, options, reserved);
  addSignatureField(doc, doc.context.register(signature.dict));
  const out = appendIncrementalUpdate(pdf, doc, tracker);
  const contents = locateContents(out, pdf.length, signature);
  const digest = patchByteRange(out, signature, contents);
  const cms = await buildCadesSignature(signer, digest);
  if (cms.length > reserved) throw new SignatureTooLargeError(cms.length, reserved);
  out.set(Buffer.from(Buffer.from(cms).toString('hex'), 'latin1'), contents.start + 1); // the rest stays 0 padding
  return out;
}

interface SignatureDictionary {
  dict: PDFDict;
  /** The serialized /ByteRange placeholder and /Contents placeholder, to find them in the output. */
  byteRangeText: string;
  contentsText: string;
}

function signatureDictionary(doc: PDFDocument, options: SignPdfOptions, reserved: number): SignatureDictionary {
  const { context } = doc;
  const byteRange = context.obj([0, WIDE, WIDE, WIDE]);
  const contents = PDFHexString.of('0'.repeat(reserved * 2));
  const dict = context.obj({ Type: 'Sig', Filter: 'Adobe.PPKLite', SubFilter: 'ETSI.CAdES.detached' });
  dict.set(PDFName.of('ByteRange'), byteRange);
  dict.set(PDFName.of('Contents'), contents);
  dict.set(PDFName.of('M'), PDFString.fromDate(options.signingTime));
  const text = { Reason: options.reason, Location: options.location, Name: options.name, ContactInfo: options.contactInfo };
  for (const [key, value] of Object.entries(text)) {
    if (value !== undefined) dict.set(PDFName.of(key), PDFHexString.fromText(value)); // UTF-16: any script
  }
  return { dict, byteRangeText: `/ByteRange ${byteRange.toString()}`, contentsText: contents.toString() };
}

/** An invisible signature widget on page 1, listed in the AcroForm's /Fields, with /SigFlags 3. */
function addSignatureField(doc: PDFDocument, signatureRef: PDFRef): void {
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
  while (taken.has(`Signature${n}`)) n++;
  return `Signature${n}`;
}

interface ContentsLocation {
  byteRangeAt: number;
  /** Offset of `<` and one past `>` of the /Contents hex string. */
  start: number;
  end: number;
}

/** The placeholders' offsets, searched only in the appended update (the original may hold anything). */
function locateContents(out: Uint8Array, originalLength: number, signature: SignatureDictionary): ContentsLocation {
  const buf = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  const byteRangeAt = buf.indexOf(signature.byteRangeText, originalLength, 'latin1');
  const start = byteRangeAt < 0 ? -1 : buf.indexOf(signature.contentsText, byteRangeAt, 'latin1');
  if (start < 0) throw new Error('Signature placeholders not found in the written update');
  return { byteRangeAt, start, end: start + signature.contentsText.length };
}

/** Writes the real /ByteRange over its placeholder (same length) and returns the SHA-256 it covers. */
function patchByteRange(out: Uint8Array, signature: SignatureDictionary, contents: ContentsLocation): Uint8Array {
  const range = [0, contents.start, contents.end, out.length - contents.end];
  const placeholder = signature.byteRangeText;
  const patched = `/ByteRange [ ${range.join(' ')}`.padEnd(placeholder.length - 1, ' ') + ']';
  if (patched.length !== placeholder.length) throw new Error('The PDF is too large for the /ByteRange placeholder');
  out.set(Buffer.from(patched, 'latin1'), contents.byteRangeAt);
  const hash = createHash('sha256');
  hash.update(out.subarray(0, contents.start));
  hash.update(out.subarray(contents.end));
  return new Uint8Array(hash.digest());
}
