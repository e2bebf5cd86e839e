import { inspectPdf } from '#pdf/inspect.ts';
import type { BlobStore } from '#ports/services.ts';
import { MAX_UPLOAD_BYTES } from '../../config.ts';
import { PayloadTooLarge, ValidationError } from '../errors.ts';
import type { Document } from '../model.ts';

export const originalKey = (envelopeId: string, documentId: string) => `original/${envelopeId}/${documentId}.pdf`;

/** Checks an uploaded PDF (size, structure, encryption) and stores it; the document record to commit. */
export async function storeOriginal(
  deps: { blobs: BlobStore },
  bytes: Uint8Array,
  ids: { envelopeId: string; documentId: string; now: Date },
  path: string,
): Promise<Document> {
  if (bytes.byteLength > MAX_UPLOAD_BYTES) throw new PayloadTooLarge('The uploaded file is larger than 25 MB');
  const inspection = await inspectPdf(bytes);
  if (!inspection.ok) throw new ValidationError(inspection.message, { [path]: [inspection.message] });
  const { info } = inspection;
  const blobKey = originalKey(ids.envelopeId, ids.documentId);
  await deps.blobs.put(blobKey, bytes, 'application/pdf');
  return {
    id: ids.documentId, kind: 'original', mimeType: 'application/pdf', sha256: info.sha256, pageCount: info.pageCount,
    sizeBytes: info.sizeBytes, blobKey, createdAt: ids.now.toISOString(), retentionUntil: null, purgeStatus: 'active',
    pages: info.pages.map((p) => ({ box: p.box, rotate: p.rotate })),
  };
}

/** A stored blob whose commit failed is removed again (best effort: an orphan is harmless, never referenced). */
export async function discardBlob(blobs: BlobStore, key: string): Promise<void> {
  try {
    await blobs.delete(key);
  } catch {
    // Nothing references it; lifecycle rules remove it in time.
  }
}
