import type { DocumentSigner } from '#ports/services.ts';
import { addAuditCertificate, type AuditCertificateInput } from './certificate.ts';
import { flattenFields, type FlattenItem } from './flatten.ts';
import { createFontSet } from './fonts.ts';
import { appendIncrementalUpdate, trackChanges } from './incremental.ts';
import { loadPdf } from './load.ts';
import { signPdf } from './pades.ts';

export interface SealInput {
  items: FlattenItem[];
  certificate: AuditCertificateInput;
  signer: DocumentSigner;
  signingTime: Date;
}

/**
 * The sealed file: the original bytes untouched, then one incremental update with the drawn fields and the
 * audit certificate pages, then one with the PAdES signature over everything before it.
 */
export async function sealPdf(original: Uint8Array, input: SealInput): Promise<{ bytes: Uint8Array; pageCount: number }> {
  const doc = await loadPdf(original);
  const tracker = trackChanges(doc, original);
  const fonts = await createFontSet(doc);
  await flattenFields(doc, input.items, fonts);
  await addAuditCertificate(doc, input.certificate, fonts);
  await doc.flush(); // pdf-lib embeds fonts and images into the object table only on flush
  const drawn = appendIncrementalUpdate(original, doc, tracker);
  const bytes = await signPdf(drawn, input.signer, {
    signingTime: input.signingTime,
    reason: 'Signed by every party; sealed with the audit certificate attached',
    name: 'E-Signature Service',
  });
  return { bytes, pageCount: doc.getPageCount() };
}
