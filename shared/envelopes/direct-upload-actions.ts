import { requireDraft } from './envelope.ts';
import { Conflict, NotFound, PayloadTooLarge } from '../kernel/errors.ts';
import { parseId } from '../kernel/ids.ts';
import { MAX_UPLOAD_BYTES, type Document, type RequestMeta } from '../kernel/model.ts';
import { uploadKey } from './blob-staging.ts';
import { discardStage } from './blob-actions.ts';
import { loadEnvelope, type CoreDeps, type Carriers } from '../signing/signing-context.ts';
import { uploadDocument, type UploadDeps } from './upload-actions.ts';

/**
 * Documents too large for a request body (decision 18): the client POSTs the file straight to S3 with
 * a presigned policy (at most 25 MB, 15 minutes, to a key of its own), then `complete` checks it like a raw upload.
 * The staged file is named by a stage record from the start, so one never completed is deleted by the blob sweep a
 * day later (shared/envelopes/blob-staging.ts); a completed one is deleted once its checked copy is committed.
 */

export const UPLOAD_URL_SECONDS = 15 * 60;
/** The object's user metadata carrying the requested file name (URI-encoded: S3 metadata is ASCII). */
const FILENAME = 'filename';

export interface UploadUrl {
  uploadId: string;
  method: 'POST';
  url: string;
  fields: Record<string, string>;
  maxBytes: number;
  expiresAt: string;
}

/** A presigned POST for one more document on a draft; `sizeBytes`, when given, is checked against the limit first. */
export async function createUploadUrl(deps: CoreDeps & Pick<Carriers, 'blobs'>, appId: string, rawId: string, input: { filename: string | null; sizeBytes: number | null }): Promise<UploadUrl> {
  const envelope = await loadEnvelope(deps, appId, rawId);
  requireDraft(envelope, 'upload a document');
  if (input.sizeBytes !== null && input.sizeBytes > MAX_UPLOAD_BYTES) throw new PayloadTooLarge('The document is larger than 25 MB');
  const uploadId = deps.ids.next();
  const now = deps.clock.now();
  const key = uploadKey(envelope.id, uploadId);
  await deps.envelopes.stageBlobs({ id: uploadId, envelopeId: envelope.id, keys: [key], createdAt: now.toISOString() });
  const filename = input.filename?.trim();
  const { url, fields } = await deps.blobs.presignPost(key, { maxBytes: MAX_UPLOAD_BYTES, expiresInSeconds: UPLOAD_URL_SECONDS, metadata: filename ? { [FILENAME]: encodeURIComponent(filename) } : {} });
  return { uploadId, method: 'POST', url, fields, maxBytes: MAX_UPLOAD_BYTES, expiresAt: new Date(now.getTime() + UPLOAD_URL_SECONDS * 1000).toISOString() };
}

function decoded(value: string | undefined): string | null {
  if (!value) return null;
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/**
 * Checks the uploaded file exactly as a raw upload (400 not a PDF, encrypted, damaged; 413 over 25 MB) and adds it; a
 * second call answers the same document. 409 while nothing was uploaded. A refused file stays staged (a retry answers
 * the same refusal; the client may POST a corrected file while the URL lasts) until the sweep deletes it.
 */
export async function completeUpload(deps: UploadDeps, appId: string, rawId: string, rawUploadId: string, meta: RequestMeta): Promise<Document> {
  const envelope = await loadEnvelope(deps, appId, rawId);
  const uploadId = parseId('doc', rawUploadId);
  if (!uploadId) throw new NotFound('No such upload on this envelope');
  const done = envelope.documents.find((d) => d.id === uploadId);
  if (done) return done;
  requireDraft(envelope, 'upload a document');
  const key = uploadKey(envelope.id, uploadId);
  const object = await deps.blobs.read(key);
  if (!object) throw new Conflict('Nothing was uploaded for this upload yet: POST the file to the upload URL first (it is valid 15 minutes)');
  const document = await uploadDocument(deps, appId, rawId, { bytes: object.bytes, filename: decoded(object.metadata[FILENAME]) }, meta, uploadId);
  await discardStage(deps, { id: uploadId, envelopeId: envelope.id, keys: [key], createdAt: '' });
  return document;
}
