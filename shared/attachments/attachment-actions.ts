/**
 * The signer's side of attachments: a presigned POST for one file (at most the field's maxBytes, 15 minutes, a key of
 * its own, staged from the start so an upload never completed is swept), then `complete` checks it by content and
 * commits it (attachment-intake-actions.ts, the one module that bundles the PDF and image checks); the signer may
 * remove it until they sign.
 */
import { NotFound, PayloadTooLarge } from '../kernel/errors.ts';
import { parseId } from '../kernel/ids.ts';
import type { RequestMeta } from '../kernel/model.ts';
import type { Carriers } from '../signing/signing-context.ts';
import { withLink, type SigningDeps } from '../signing/signing-actions.ts';
import { attachmentFieldOf, attachmentUploadKey, removeAttachment } from './attachments.ts';

export const ATTACHMENT_URL_SECONDS = 15 * 60;
/** The object's user metadata: the file name (URI-encoded: S3 metadata is ASCII), the field and the signer it is for. */
export const META = { filename: 'filename', field: 'field', signer: 'signer' } as const;
const MAX_NAME_CHARS = 255;

export type AttachmentDeps = SigningDeps & Pick<Carriers, 'blobs'>;

/** The envelope and the link's signer, with the gate of reading the document (the one-time code passed). */
export const openLink = (deps: AttachmentDeps, token: string, meta: RequestMeta) =>
  withLink(deps, token, meta, 'document', ({ envelope, signer }) => ({ change: null, result: { envelope, signer } }));

export async function createAttachmentUploadUrl(deps: AttachmentDeps, token: string, input: { fieldId: string; filename: string | null; sizeBytes: number | null }, meta: RequestMeta) {
  const { envelope, signer } = (await openLink(deps, token, meta)).result;
  const field = attachmentFieldOf(envelope, signer, input.fieldId);
  if (input.sizeBytes !== null && input.sizeBytes > field.maxBytes) throw new PayloadTooLarge(`The file is larger than this field allows (${String(field.maxBytes)} bytes)`);
  const uploadId = deps.ids.next();
  const now = deps.clock.now();
  const key = attachmentUploadKey(envelope.id, uploadId);
  await deps.envelopes.stageBlobs({ id: uploadId, envelopeId: envelope.id, keys: [key], createdAt: now.toISOString() });
  const filename = input.filename?.trim().slice(0, MAX_NAME_CHARS);
  const metadata = { [META.field]: field.id, [META.signer]: signer.id, ...(filename ? { [META.filename]: encodeURIComponent(filename) } : {}) };
  const { url, fields } = await deps.blobs.presignPost(key, { maxBytes: field.maxBytes, expiresInSeconds: ATTACHMENT_URL_SECONDS, metadata });
  return { uploadId, fieldId: field.id, method: 'POST' as const, url, fields, maxBytes: field.maxBytes, expiresAt: new Date(now.getTime() + ATTACHMENT_URL_SECONDS * 1000).toISOString() };
}

/** The signer takes a file back before signing; its stored copy goes once the change stands. */
export async function deleteAttachment(deps: SigningDeps, token: string, rawAttachmentId: string, meta: RequestMeta): Promise<void> {
  const attachmentId = parseId('att', rawAttachmentId);
  if (!attachmentId) throw new NotFound('No such attachment of yours');
  await withLink(deps, token, meta, 'document', ({ envelope, signer }, ctx) => ({ change: removeAttachment(envelope, signer, attachmentId, ctx), result: null }));
}
