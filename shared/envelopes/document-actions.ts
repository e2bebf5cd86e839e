import type { Config } from '../config.ts';
import { removeDocument } from './envelope-documents.ts';
import { Conflict, Gone, NotFound } from '../kernel/errors.ts';
import { parseId } from '../kernel/ids.ts';
import { originals, sealedOf, type Document, type Envelope, type RequestMeta } from '../kernel/model.ts';
import { loadEnvelope, mutateEnvelope, type CoreDeps, type Carriers } from '../signing/signing-context.ts';

/** Reading and removing an envelope's documents: no PDF library here, so the routes that only serve them stay small. */

/** Removes a document (and the fields on it) from a draft; its stored files go once the change stands. */
export async function removeEnvelopeDocument(deps: CoreDeps, appId: string, rawId: string, rawDocumentId: string, meta: RequestMeta): Promise<void> {
  const documentId = parseId('doc', rawDocumentId);
  if (!documentId) throw new NotFound('Document not found on this envelope');
  await mutateEnvelope(deps, appId, rawId, meta, (envelope, ctx) => ({ change: removeDocument(envelope, documentId, ctx), result: null }));
}

/**
 * The document of `kind` for the pair `documentId` names (an original, or its sealed copy), else for the first
 * original: the one single-document clients read (decision 9). 409 for a sealed copy before completion, 410 once purged.
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
export async function documentBytes(deps: Pick<CoreDeps & Carriers, 'blobs'>, document: Document): Promise<Uint8Array> {
  const bytes = await deps.blobs.get(document.blobKey);
  if (!bytes) throw new Gone('The document is no longer stored', {}, 'document_purged');
  return bytes;
}

/** How long a presigned download URL works (decision 18). */
export const DOWNLOAD_URL_SECONDS = 5 * 60;

export interface DeliveryDeps {
  blobs: Carriers['blobs'];
  config: Pick<Config, 'directDownloadMaxBytes'>;
}

/** The bytes of a PDF small enough to answer directly, else a presigned URL of it (decision 18). */
export type Delivery = { bytes: Uint8Array; url?: undefined } | { url: string; bytes?: undefined };

/** How the answer names the file: a Content-Disposition value for this envelope's document. */
export type Disposition = (envelope: Envelope, document: Document) => string;

/**
 * A PDF over `directDownloadMaxBytes` is not carried in the response (a Lambda response holds at most about 4.45 MB of
 * PDF once base64-encoded, and the configuration refuses a larger setting): a presigned GET, valid 5 minutes, whose
 * response names the file as the direct answer would. A smaller one is read; 410 when its blob is gone.
 */
export async function deliverDocument(deps: DeliveryDeps, envelope: Envelope, document: Document, disposition: Disposition): Promise<Delivery> {
  if (document.sizeBytes <= deps.config.directDownloadMaxBytes) return { bytes: await documentBytes(deps, document) };
  const url = await deps.blobs.presignGet(document.blobKey, { expiresInSeconds: DOWNLOAD_URL_SECONDS, contentDisposition: disposition(envelope, document), contentType: 'application/pdf' });
  return { url };
}

/** An envelope's document (original or sealed) for its owner. */
export async function downloadDocument(deps: CoreDeps & DeliveryDeps, appId: string, rawId: string, kind: 'original' | 'sealed', rawDocumentId: string | null, disposition: Disposition) {
  const envelope = await loadEnvelope(deps, appId, rawId);
  const document = documentFor(envelope, kind, rawDocumentId);
  return { envelope, document, delivery: await deliverDocument(deps, envelope, document, disposition) };
}
