/**
 * Archive renewal of a B-LTA file (ETSI EN 319 142-1, the LTA level's repeated document timestamps): a B-LTA seal is
 * verifiable as long as its last document timestamp's authority certificate is. Before that certificate expires, a
 * new revision adds the validation data of the last timestamp (its authority's chain and fresh revocation data, with
 * fresh data for every earlier signature too) and a new document timestamp over the whole file. The file as it was
 * stays an exact prefix.
 */
import { X509Certificate } from 'node:crypto';
import * as pkijs from 'pkijs';
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFNumber, PDFString, type PDFDocument, type PDFObject } from 'pdf-lib';
import type { RevocationSource, TimestampAuthority } from '#shared/ports/services.ts';
import { addDss, collectValidationMaterial } from '../pki/dss.ts';
import { earlierSignatureCertificates } from '../pki/earlier-signatures.ts';
import { trackChanges, writeUpdate } from './incremental.ts';
import { loadPdf } from '../pdf/load.ts';
import { addSignatureField, PdfFile, writeSignedUpdate, type WrittenFile } from './pades.ts';
import { tokenCertificates, tstInfoOf } from '../pki/tsp.ts';

/** Room for the new token: an authority's token with its chain (the seal learns the size; a renewal is rare). */
const TOKEN_RESERVE = 16_384;

export interface ArchiveTimestamp {
  /** The token (DER), without /Contents' zero padding. */
  token: Uint8Array;
  genTime: Date;
  /** The certificate that signed the token, and when it expires. */
  authorityCertificate: Uint8Array;
  validUntil: Date;
}

/** The file's last document timestamp (the one whose /ByteRange reaches furthest), if it has any. */
export function lastDocumentTimestamp(doc: PDFDocument): ArchiveTimestamp | undefined {
  let last: { end: number; contents: Uint8Array } | undefined;
  const get = (dict: PDFDict, key: string): PDFObject | undefined => doc.context.lookup(dict.get(PDFName.of(key)));
  const seen = new Set<PDFDict>();
  const visit = (array: PDFObject | undefined, depth: number): void => {
    if (!(array instanceof PDFArray) || depth > 32) return;
    for (const item of array.asArray()) {
      const field = doc.context.lookup(item);
      if (!(field instanceof PDFDict) || seen.has(field)) continue;
      seen.add(field);
      const value = get(field, 'V');
      if (value instanceof PDFDict && get(value, 'Type') === PDFName.of('DocTimeStamp')) {
        const contents = get(value, 'Contents');
        const range = get(value, 'ByteRange');
        const numbers = range instanceof PDFArray ? range.asArray().map((n) => (n instanceof PDFNumber ? n.asNumber() : 0)) : [];
        const end = (numbers[2] ?? 0) + (numbers[3] ?? 0);
        if ((contents instanceof PDFHexString || contents instanceof PDFString) && (!last || end > last.end)) last = { end, contents: contents.asBytes() };
      }
      visit(get(field, 'Kids'), depth + 1);
    }
  };
  const form = doc.catalog.lookup(PDFName.of('AcroForm'));
  visit(form instanceof PDFDict ? get(form, 'Fields') : undefined, 0);
  if (!last) return undefined;
  const token = derOnly(last.contents);
  const authorityCertificate = signerCertificate(token);
  return { token, genTime: tstInfoOf(token).genTime, authorityCertificate, validUntil: new Date(new X509Certificate(authorityCertificate).validTo) };
}

/** The file's last document timestamp, read from its bytes. */
export async function archiveTimestampOf(pdf: Uint8Array): Promise<ArchiveTimestamp | undefined> {
  return lastDocumentTimestamp(await loadPdf(pdf));
}

/** The renewed file as seal.ts answers a sealed one: its chunks (stored as they are), length and SHA-256. */
export interface RenewedFile extends WrittenFile {
  timestamp: ArchiveTimestamp;
}

/**
 * `sealed` with two revisions appended: a DSS holding the last document timestamp's chain and revocation data (and
 * fresh revocation data for every earlier signature's certificates, best effort), then a new document timestamp.
 */
export async function renewArchiveTimestamp(sealed: Uint8Array, services: { timestamps: TimestampAuthority; revocation: RevocationSource }): Promise<RenewedFile> {
  const doc = await loadPdf(sealed);
  const previous = lastDocumentTimestamp(doc);
  if (!previous) throw new Error('The file has no document timestamp to renew');
  const tracker = trackChanges(doc, sealed);
  const material = await collectValidationMaterial(tokenCertificates(previous.token), services.revocation, { earlier: earlierSignatureCertificates(doc) });
  addDss(doc, material);
  const file = new PdfFile(sealed);
  const dss = writeUpdate(doc, tracker);
  if (dss) file.append(dss.chunks);
  const slot = addSignatureField(doc, { kind: 'timestamp', contentsBytes: TOKEN_RESERVE });
  let token: Uint8Array | undefined;
  await writeSignedUpdate(doc, tracker, file, slot, async (digest) => (token = await services.timestamps.timestamp(digest)));
  if (!token) throw new Error('No timestamp was written');
  const authorityCertificate = signerCertificate(token);
  return Object.assign(file.written(), {
    timestamp: { token, genTime: tstInfoOf(token).genTime, authorityCertificate, validUntil: new Date(new X509Certificate(authorityCertificate).validTo) },
  });
}

/** The certificate in a token that its signer info names (issuer and serial number). */
function signerCertificate(token: Uint8Array): Uint8Array {
  const signed = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(token).content });
  const sid: unknown = signed.signerInfos[0]?.sid;
  const cert = (signed.certificates ?? []).find((c): c is pkijs.Certificate => c instanceof pkijs.Certificate
    && sid instanceof pkijs.IssuerAndSerialNumber && c.serialNumber.isEqual(sid.serialNumber) && c.issuer.isEqual(sid.issuer));
  if (!cert) throw new Error('The timestamp token does not carry its authority\'s certificate');
  return new Uint8Array(cert.toSchema().toBER(false));
}

/** /Contents is zero-padded after the DER: the outer element's length says where it ends. */
function derOnly(bytes: Uint8Array): Uint8Array {
  const first = bytes[1] ?? 0;
  if (bytes[0] !== 0x30 || first < 0x80) return bytes.subarray(0, 2 + first);
  const count = first & 0x7f;
  let length = 0;
  for (let i = 0; i < count; i++) length = length * 256 + (bytes[2 + i] ?? 0);
  return bytes.subarray(0, 2 + count + length);
}
