import { inspectPdf } from '#pdf/inspect.ts';
import { PayloadTooLarge, ValidationError } from '../errors.ts';
import { MAX_UPLOAD_BYTES, type Document } from '../model.ts';
import { originalKey } from '../staging.ts';
import type { BlobToStage } from './blobs.ts';

/** A checked upload: the document record to commit and the blob to stage for it. */
export interface CheckedOriginal {
  document: Document;
  blob: BlobToStage;
}

/** Checks an uploaded PDF (size, structure, encryption, permissions); `path` names it in a 400. */
export async function checkOriginal(bytes: Uint8Array, ids: { envelopeId: string; documentId: string; now: Date }, path: string): Promise<CheckedOriginal> {
  if (bytes.byteLength > MAX_UPLOAD_BYTES) throw new PayloadTooLarge('The uploaded file is larger than 25 MB');
  const inspection = await inspectPdf(bytes);
  if (!inspection.ok) throw new ValidationError(inspection.message, { [path]: [inspection.message] });
  const { info } = inspection;
  const blobKey = originalKey(ids.envelopeId, ids.documentId);
  return {
    document: {
      id: ids.documentId, kind: 'original', mimeType: 'application/pdf', sha256: info.sha256, pageCount: info.pageCount,
      sizeBytes: info.sizeBytes, blobKey, createdAt: ids.now.toISOString(), retentionUntil: null, purgeStatus: 'active',
      pages: info.pages.map((p) => ({ box: p.box, rotate: p.rotate })),
    },
    blob: { key: blobKey, bytes, contentType: 'application/pdf' },
  };
}
