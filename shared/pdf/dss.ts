/**
 * PAdES B-LT: a Document Security Store (ISO 32000-2 §12.8.4.3) holding the certificates of the signing and
 * timestamp chains and, for every certificate that is not a trust anchor, its revocation data (CRL or OCSP
 * response) as fetched now, so the signature can be validated after the certificates expire or their CA is gone.
 */
import { X509Certificate } from 'node:crypto';
import { PDFArray, PDFDict, PDFName, type PDFDocument } from 'pdf-lib';
import type { RevocationSource } from '#ports/services.ts';
import { stream } from './text/embed.ts';

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

/** Every distinct certificate given, and the revocation data of each one that has an issuer among them. */
export async function collectValidationMaterial(certificates: Uint8Array[], revocation: RevocationSource): Promise<ValidationMaterial> {
  const unique = [...new Map(certificates.map((der) => [Buffer.from(der).toString('base64'), der])).values()];
  const parsed = unique.map((der) => ({ der, cert: new X509Certificate(der) }));
  const material: ValidationMaterial = { certificates: unique, crls: [], ocspResponses: [] };
  await Promise.all(parsed.map(async ({ der, cert }) => {
    if (selfSigned(cert)) return; // a trust anchor: no one revokes it
    const issuer = parsed.find((candidate) => cert.checkIssued(candidate.cert) && cert.verify(candidate.cert.publicKey));
    if (!issuer) throw new RevocationUnavailable(`The issuer of "${cert.subject.replace(/\n/g, ', ')}" is not in the chain, so its revocation cannot be checked`);
    const data = await revocation.revocation(der, issuer.der);
    if (data.crls.length + data.ocspResponses.length === 0) throw new RevocationUnavailable(`No CRL or OCSP response for "${cert.subject.replace(/\n/g, ', ')}"`);
    material.crls.push(...data.crls);
    material.ocspResponses.push(...data.ocspResponses);
  }));
  const distinct = (items: Uint8Array[]) => [...new Map(items.map((der) => [Buffer.from(der).toString('base64'), der])).values()];
  return { certificates: material.certificates, crls: distinct(material.crls), ocspResponses: distinct(material.ocspResponses) };
}

/** Adds the material to the document's DSS (created, or extended when an earlier signer made one). */
export function addDss(doc: PDFDocument, material: ValidationMaterial): void {
  const { context } = doc;
  let dss = doc.catalog.lookupMaybe(PDFName.of('DSS'), PDFDict);
  if (!dss) {
    dss = context.obj({ Type: 'DSS' });
    doc.catalog.set(PDFName.of('DSS'), context.register(dss));
  }
  const add = (key: string, items: Uint8Array[]) => {
    if (items.length === 0) return;
    let array = dss.lookupMaybe(PDFName.of(key), PDFArray);
    if (!array) dss.set(PDFName.of(key), (array = context.obj([])));
    for (const item of items) array.push(context.register(stream(context, item)));
  };
  add('Certs', material.certificates);
  add('CRLs', material.crls);
  add('OCSPs', material.ocspResponses);
  declareEsic(doc);
}

/** ETSI's PDF extension (ESIC, level 5): readers of PDF 1.7 learn the file uses DSS and document timestamps. */
function declareEsic(doc: PDFDocument): void {
  const { context } = doc;
  let extensions = doc.catalog.lookupMaybe(PDFName.of('Extensions'), PDFDict);
  if (!extensions) doc.catalog.set(PDFName.of('Extensions'), (extensions = context.obj({})));
  if (!extensions.has(PDFName.of('ESIC'))) extensions.set(PDFName.of('ESIC'), context.obj({ BaseVersion: PDFName.of('1.7'), ExtensionLevel: 5 }));
}
