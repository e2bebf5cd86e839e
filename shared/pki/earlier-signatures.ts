/**
 * The certificates of the signatures a document already carries (ours or another tool's), so the seal's DSS can
 * hold their validation data too and the whole document stays verifiable (LTV), not only our signature.
 */
import * as pkijs from 'pkijs';
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFString, type PDFDocument, type PDFObject } from 'pdf-lib';

const SIGNATURE_TIMESTAMP = '1.2.840.113549.1.9.16.2.14';
/** Field trees deeper than this are malformed (or loops): the walk stops there. */
const MAX_DEPTH = 32;

/** Every certificate in the CMS of each /Sig and /DocTimeStamp value reachable from the AcroForm, and in their signature timestamps. */
export function earlierSignatureCertificates(doc: PDFDocument): Uint8Array[] {
  // lookupMaybe throws on an unexpected type (a text field's /V is a string): look up, then check the type
  const get = (dict: PDFDict | undefined, key: string): PDFObject | undefined => (dict ? doc.context.lookup(dict.get(PDFName.of(key))) : undefined);
  const certificates: Uint8Array[] = [];
  const seen = new Set<PDFDict>();
  const visit = (array: PDFObject | undefined, depth: number): void => {
    if (!(array instanceof PDFArray) || depth > MAX_DEPTH) return;
    for (const item of array.asArray()) {
      const field = doc.context.lookup(item);
      if (!(field instanceof PDFDict) || seen.has(field)) continue;
      seen.add(field);
      const value = get(field, 'V');
      if (value instanceof PDFDict) {
        const type = get(value, 'Type');
        const contents = get(value, 'Contents');
        const signature = type === undefined || type === PDFName.of('Sig') || type === PDFName.of('DocTimeStamp');
        if (signature && (contents instanceof PDFHexString || contents instanceof PDFString)) certificates.push(...cmsCertificates(contents.asBytes()));
      }
      visit(get(field, 'Kids'), depth + 1);
    }
  };
  const form = get(doc.catalog, 'AcroForm');
  visit(form instanceof PDFDict ? get(form, 'Fields') : undefined, 0);
  return certificates;
}

/** The certificates of a CMS SignedData (a signature or a timestamp token) and of its signers' signature timestamps; none when it does not parse. */
function cmsCertificates(contents: Uint8Array, depth = 0): Uint8Array[] {
  let signed: pkijs.SignedData;
  try {
    signed = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(trimmed(contents)).content });
  } catch {
    return [];
  }
  const own = (signed.certificates ?? []).flatMap((c) => (c instanceof pkijs.Certificate ? [new Uint8Array(c.toSchema().toBER(false))] : []));
  if (depth > 0) return own;
  const tokens = signed.signerInfos.flatMap((info) => info.unsignedAttrs?.attributes.filter((a) => a.type === SIGNATURE_TIMESTAMP) ?? [])
    .flatMap((attribute) => attribute.values.map((value) => new Uint8Array((value as { toBER(): ArrayBuffer }).toBER())));
  return [...own, ...tokens.flatMap((token) => cmsCertificates(token, depth + 1))];
}

/** /Contents is zero-padded after the DER: the outer element's length says where it ends. */
function trimmed(bytes: Uint8Array): Uint8Array {
  if (bytes[0] !== 0x30 || bytes.length < 2) return bytes;
  const first = bytes[1] ?? 0;
  if (first < 0x80) return bytes.subarray(0, 2 + first);
  const count = first & 0x7f;
  let length = 0;
  for (let i = 0; i < count; i++) length = length * 256 + (bytes[2 + i] ?? 0);
  return bytes.subarray(0, 2 + count + length);
}
