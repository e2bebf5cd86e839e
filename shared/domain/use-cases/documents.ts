import { removeDocument } from '../documents.ts';
import { Conflict, Gone, NotFound } from '../errors.ts';
import { parseId } from '../ids.ts';
import { originals, sealedOf, type Document, type Envelope, type RequestMeta } from '../model.ts';
import { loadEnvelope, mutateEnvelope, type CoreDeps } from './context.ts';

/** Reading and removing an envelope's documents: no PDF library here, so the routes that only serve them stay small. */

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
