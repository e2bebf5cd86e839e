/**
 * PAdES B-LT: a Document Security Store (ISO 32000-2 §12.8.4.3) holding the certificates of the signing and
 * timestamp chains and, for every certificate that is not a trust anchor, its revocation data (CRL or OCSP
 * response) as fetched now, so the signature can be validated after the certificates expire or their CA is gone.
 */
import { X509Certificate } from 'node:crypto';
import { decodePDFRawStream, PDFArray, PDFDict, PDFName, PDFRawStream, PDFRef, type PDFDocument, type PDFObject } from 'pdf-lib';
import type { RevocationSource } from '#shared/ports/services.ts';
import { stream } from '../sealing/text/embed.ts';

export interface ValidationMaterial {
  certificates: Uint8Array[];
  crls: Uint8Array[];
  ocspResponses: Uint8Array[];
}

/** A certificate's revocation data could not be had: B-LT is not reachable (retrying may help). */
export class RevocationUnavailable extends Error {
  readonly retryable = true;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RevocationUnavailable';
  }
}

/** Subject = issuer and signed by its own key (checkIssued() would also want keyCertSign, which a self-signed seal lacks). */
export const selfSigned = (cert: X509Certificate): boolean => cert.subject === cert.issuer && cert.verify(cert.publicKey);

export interface CollectOptions {
  /** Revocation data must be issued at or after this instant (the signature timestamp's time, plus the grace period). */
  issuedAfter?: Date;
  /** Certificates of earlier signatures in the document (any tool's): their revocation data is added where it can be had. */
  earlier?: Uint8Array[];
}

const key = (der: Uint8Array): string => Buffer.from(der).toString('base64');
const distinct = (items: Uint8Array[]): Uint8Array[] => [...new Map(items.map((der) => [key(der), der])).values()];
const named = (cert: X509Certificate): string => cert.subject.replace(/\n/g, ', ');

/**
 * Every distinct certificate given, and the revocation data of each one that has an issuer among them. Our own
 * chain is strict (missing data fails); an earlier signature's certificate is best effort: an unparsable or
 * self-signed one, one whose issuer is not at hand, or whose revocation data cannot be had adds nothing.
 */
export async function collectValidationMaterial(certificates: Uint8Array[], revocation: RevocationSource, options: CollectOptions = {}): Promise<ValidationMaterial> {
  const ours = new Set(certificates.map(key));
  const unique = distinct([...certificates, ...(options.earlier ?? [])]);
  const parsed = unique.flatMap((der) => {
    try {
      return [{ der, cert: new X509Certificate(der), strict: ours.has(key(der)) }];
    } catch (error) {
      if (ours.has(key(der))) throw error;
      return [];
    }
  });
  const crls: Uint8Array[] = [];
  const ocspResponses: Uint8Array[] = [];
  const fetchOptions = options.issuedAfter ? { issuedAfter: options.issuedAfter } : {};
  await Promise.all(parsed.map(async ({ der, cert, strict }) => {
    if (selfSigned(cert)) return; // a trust anchor: no one revokes it
    const issuer = parsed.find((candidate) => cert.checkIssued(candidate.cert) && cert.verify(candidate.cert.publicKey));
    try {
      if (!issuer) throw new RevocationUnavailable(`The issuer of "${named(cert)}" is not in the chain, so its revocation cannot be checked`);
      const data = await revocation.revocation(der, issuer.der, fetchOptions);
      if (data.crls.length + data.ocspResponses.length === 0) throw new RevocationUnavailable(`No CRL or OCSP response for "${named(cert)}"`);
      crls.push(...data.crls);
      ocspResponses.push(...data.ocspResponses);
    } catch (error) {
      if (strict) throw error;
    }
  }));
  return { certificates: parsed.map(({ der }) => der), crls: distinct(crls), ocspResponses: distinct(ocspResponses) };
}

/** Adds the material to the document's DSS (created, or extended when an earlier signer made one); what it holds already is not added again. */
export function addDss(doc: PDFDocument, material: ValidationMaterial): void {
  const { context } = doc;
  let dss = doc.catalog.lookupMaybe(PDFName.of('DSS'), PDFDict);
  if (!dss) {
    dss = context.obj({ Type: 'DSS' });
    doc.catalog.set(PDFName.of('DSS'), context.register(dss));
  }
  const add = (name: string, items: Uint8Array[]) => {
    let array = dss.lookupMaybe(PDFName.of(name), PDFArray);
    const held = new Set(array ? array.asArray().flatMap((item) => decoded(doc, item)).map(key) : []);
    const fresh = distinct(items).filter((item) => !held.has(key(item)));
    if (fresh.length === 0) return;
    if (!array) dss.set(PDFName.of(name), (array = context.obj([])));
    for (const item of fresh) array.push(context.register(stream(context, item)));
  };
  add('Certs', material.certificates);
  add('CRLs', material.crls);
  add('OCSPs', material.ocspResponses);
  declareEsic(doc);
}

/** A DSS entry's bytes with its filters undone (none when it is not a stream or a filter is unknown). */
function decoded(doc: PDFDocument, item: PDFObject): Uint8Array[] {
  const object = item instanceof PDFRef ? doc.context.lookup(item) : item;
  if (!(object instanceof PDFRawStream)) return [];
  try {
    return [decodePDFRawStream(object).decode()];
  } catch {
    return [];
  }
}

/** ETSI's PDF extension (ESIC, level 5): readers of PDF 1.7 learn the file uses DSS and document timestamps. */
function declareEsic(doc: PDFDocument): void {
  const { context } = doc;
  let extensions = doc.catalog.lookupMaybe(PDFName.of('Extensions'), PDFDict);
  if (!extensions) doc.catalog.set(PDFName.of('Extensions'), (extensions = context.obj({})));
  if (!extensions.has(PDFName.of('ESIC'))) extensions.set(PDFName.of('ESIC'), context.obj({ BaseVersion: PDFName.of('1.7'), ExtensionLevel: 5 }));
}
