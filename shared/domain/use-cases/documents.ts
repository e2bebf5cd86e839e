import { extractTextIndex, findAnchor, type TextIndex } from '#pdf/anchors.ts';
import { inspectPdf } from '#pdf/inspect.ts';
import { addDocument, named, removeDocument } from '../documents.ts';
import { requireDraft } from '../envelope.ts';
import { Conflict, Gone, NotFound, PayloadTooLarge, ValidationError } from '../errors.ts';
import { parseId } from '../ids.ts';
import type { FieldPlacement, UploadInput } from '../inputs.ts';
import { MAX_UPLOAD_BYTES, originals, sealedOf, type Document, type Envelope, type RequestMeta } from '../model.ts';
import { originalKey } from '../staging.ts';
import { withStagedBlobs, type BlobToStage } from './blobs.ts';
import { loadEnvelope, mutateEnvelope, type CoreDeps } from './context.ts';

/** A checked upload: the document record to commit, the blobs to stage for it (the PDF and its text index), and the index. */
export interface CheckedOriginal {
  document: Document;
  blobs: BlobToStage[];
  index: TextIndex;
}

/**
 * Checks an uploaded PDF (size, structure, encryption, permissions) and indexes its text once, for anchor placement
 * (ADDITIONS A3): the index is stored beside the PDF, so placing a field by an anchor later is a lookup. `path`
 * names the upload in a 400; `order` is its position among the envelope's documents.
 */
export async function checkOriginal(upload: UploadInput, ids: { envelopeId: string; documentId: string; now: Date; order: number }, path: string): Promise<CheckedOriginal> {
  const { bytes } = upload;
  if (bytes.byteLength > MAX_UPLOAD_BYTES) throw new PayloadTooLarge('The uploaded file is larger than 25 MB');
  const inspection = await inspectPdf(bytes);
  if (!inspection.ok) throw new ValidationError(inspection.message, { [path]: [inspection.message] });
  const { info } = inspection;
  const blobKey = originalKey(ids.envelopeId, ids.documentId);
  const textIndexKey = blobKey.replace(/\.pdf$/, '.text.json');
  const index = await extractTextIndex(bytes);
  const document = named({
    id: ids.documentId, kind: 'original', mimeType: 'application/pdf', sha256: info.sha256, pageCount: info.pageCount,
    sizeBytes: info.sizeBytes, blobKey, textIndexKey, createdAt: ids.now.toISOString(), retentionUntil: null, purgeStatus: 'active',
    pages: info.pages.map((p) => ({ box: p.box, rotate: p.rotate })),
  }, ids.order, upload.filename);
  const json = new TextEncoder().encode(JSON.stringify(index));
  return { document, index, blobs: [{ key: blobKey, bytes, contentType: 'application/pdf' }, { key: textIndexKey, bytes: json, contentType: 'application/json' }] };
}

/** A document's stored text index (for anchors placed after its upload). */
export async function textIndexOf(deps: Pick<CoreDeps, 'blobs'>, document: Document): Promise<TextIndex> {
  const stored = document.textIndexKey ? await deps.blobs.get(document.textIndexKey) : undefined;
  if (!stored) throw new ValidationError('This document has no text index (uploaded before anchors existed): place its fields by coordinates', { anchor: ['is not available for this document'] });
  return JSON.parse(new TextDecoder().decode(stored)) as TextIndex;
}

/**
 * The placements a field stands for: itself when it has coordinates; one per occurrence of its anchor (or the first)
 * otherwise, bottom-left origin, in the document's displayed coordinates (ADDITIONS A3). An anchor that is not
 * found is a 400 naming it, unless the field says `ignoreIfMissing` (then it places nothing).
 */
export function placementsOf<F extends FieldPlacement>(field: F, document: Document | undefined, index: TextIndex | undefined, path: string): F[] {
  if (!field.anchor) return [field];
  const { anchor } = field;
  if (!document || !index) throw ValidationError.at(`${path}.anchor`, 'placing by anchor needs the document: upload it first, or give page, x and y');
  const found = findAnchor(index, document.pages, anchor);
  if (found.length === 0 && !anchor.ignoreIfMissing) {
    throw ValidationError.at(`${path}.anchor`, `the text "${anchor.text}" is not in ${document.name ?? 'the document'}`);
  }
  return found.map(({ page, x, y }) => ({ ...field, anchor: undefined, page, x, y, origin: 'bottom-left' as const }));
}

/** One more document on a draft (the raw upload, or a completed presigned upload); `filename` names it. */
export async function uploadDocument(deps: CoreDeps, appId: string, rawId: string, upload: UploadInput, meta: RequestMeta): Promise<Document> {
  const envelope = await loadEnvelope(deps, appId, rawId);
  requireDraft(envelope, 'upload a document'); // before storing anything
  const order = originals(envelope).length + 1;
  const { document, blobs } = await checkOriginal(upload, { envelopeId: envelope.id, documentId: deps.ids.next(), now: deps.clock.now(), order }, 'body');
  const { envelope: after } = await withStagedBlobs(deps, envelope.id, () => blobs, (stage) => mutateEnvelope(deps, appId, rawId, meta, (latest, ctx) => {
    const positioned = { ...document, order: originals(latest).length + 1, name: upload.filename?.trim() ? document.name : `document-${String(originals(latest).length + 1)}.pdf` };
    return { change: { ...addDocument(latest, positioned, ctx), releases: [stage.id] }, result: null };
  }));
  return after.documents.find((d) => d.id === document.id) ?? document;
}

/** Removes a document (and the fields on it) from a draft; its stored files go once the change stands. */
export async function removeEnvelopeDocument(deps: CoreDeps, appId: string, rawId: string, rawDocumentId: string, meta: RequestMeta): Promise<void> {
  const documentId = parseId('doc', rawDocumentId);
  if (!documentId) throw new NotFound('Document not found on this envelope');
  await mutateEnvelope(deps, appId, rawId, meta, (envelope, ctx) => ({ change: removeDocument(envelope, documentId, ctx), result: null }));
}

/**
 * The document of `kind` for the pair `documentId` names (an original, or its sealed copy), else for the first
 * original: the spec's single document (ADDITIONS A2). 409 for a sealed copy before completion, 410 once purged.
 */
export function documentFor(envelope: Envelope, kind: 'original' | 'sealed', rawDocumentId: string | null): Document {
  const id = rawDocumentId === null ? null : parseId('doc', rawDocumentId);
  const named = id === null ? undefined : envelope.documents.find((d) => d.id === id);
  if (rawDocumentId !== null && !named) throw new NotFound('Document not found on this envelope');
  const original = named?.kind === 'sealed' ? originals(envelope).find((d) => d.id === named.sourceDocumentId) ?? originals(envelope)[0] : named ?? originals(envelope)[0];
  if (!original) throw new NotFound('The envelope has no document yet; upload the PDF first');
  if (kind === 'original') return usable(original);
  const sealed = sealedOf(envelope, original);
  if (!sealed) throw new Conflict(`The sealed document is available once the envelope is completed (it is ${envelope.status})`);
  return usable(sealed);
}

function usable(document: Document): Document {
  if (document.purgeStatus === 'purged') throw new Gone('The document was purged at the end of its retention period', {}, 'document_purged');
  return document;
}

/** The document's bytes; 410 when the blob is gone. */
export async function documentBytes(deps: Pick<CoreDeps, 'blobs'>, document: Document): Promise<Uint8Array> {
  const bytes = await deps.blobs.get(document.blobKey);
  if (!bytes) throw new Gone('The document is no longer stored', {}, 'document_purged');
  return bytes;
}

/** An envelope's document (original or sealed) for its owner. */
export async function downloadDocument(deps: CoreDeps, appId: string, rawId: string, kind: 'original' | 'sealed', rawDocumentId: string | null = null) {
  const envelope = await loadEnvelope(deps, appId, rawId);
  const document = documentFor(envelope, kind, rawDocumentId);
  return { envelope, document, bytes: await documentBytes(deps, document) };
}
