/** Completing a signer's upload: the one attachment module that reads the file, so the only one bundling the PDF and image checks. */
import { createHash } from 'node:crypto';
import { Conflict, NotFound, PayloadTooLarge, ValidationError } from '../kernel/errors.ts';
import { parseId } from '../kernel/ids.ts';
import type { Attachment, RequestMeta } from '../kernel/model.ts';
import { discardStage, withStagedBlobs } from '../envelopes/blob-actions.ts';
import { withLink } from '../signing/signing-actions.ts';
import { checkAttachmentContent } from './attachment-content.ts';
import { EXTENSIONS } from './attachment-formats.ts';
import { META, openLink, type AttachmentDeps } from './attachment-actions.ts';
import { addAttachment, attachmentFieldOf, attachmentKey, attachmentsOf, attachmentUploadKey } from './attachments.ts';

function decoded(value: string | undefined): string | null {
  try {
    // Control characters and path separators would make a poor file name in a download or a PDF reader.
    return value ? Array.from(decodeURIComponent(value), (c) => (c.charCodeAt(0) < 0x20 || c === '\u007f' || c === '/' || c === '\\' ? '_' : c)).join('').trim() || null : null;
  } catch {
    return null;
  }
}

/**
 * Checks the uploaded file by its content against the field (format, size; a PDF as an original is checked) and
 * commits it as the field's attachment, replacing an earlier one; a second call answers the same attachment. A
 * refused file is deleted at once (the signer uploads another through a new URL); 409 while nothing was uploaded.
 */
export async function completeAttachmentUpload(deps: AttachmentDeps, token: string, rawUploadId: string, meta: RequestMeta): Promise<Attachment> {
  const { envelope, signer } = (await openLink(deps, token, meta)).result;
  const uploadId = parseId('att', rawUploadId);
  if (!uploadId) throw new NotFound('No such upload for this link');
  const mine = (list: readonly Attachment[]) => list.find((a) => a.id === uploadId && a.signerId === signer.id);
  const done = mine(attachmentsOf(envelope));
  if (done) return done;
  const key = attachmentUploadKey(envelope.id, uploadId);
  const object = await deps.blobs.read(key);
  if (!object) {
    // A racing complete may have committed it and deleted the upload since this call read the envelope.
    const now = mine(attachmentsOf((await openLink(deps, token, meta)).result.envelope));
    if (now) return now;
    throw new Conflict('Nothing was uploaded for this upload yet: POST the file to the upload URL first (it is valid 15 minutes)');
  }
  if (object.metadata[META.signer] !== signer.id) throw new NotFound('No such upload for this link');
  const uploadStage = { id: uploadId, envelopeId: envelope.id, keys: [key], createdAt: '' };
  const field = attachmentFieldOf(envelope, signer, object.metadata[META.field] ?? '');
  const { bytes } = object;
  if (bytes.byteLength > field.maxBytes) {
    await discardStage(deps, uploadStage);
    throw new PayloadTooLarge(`The file is larger than this field allows (${String(field.maxBytes)} bytes)`);
  }
  const check = await checkAttachmentContent(bytes, field.accept);
  if (!check.ok) {
    await discardStage(deps, uploadStage);
    throw new ValidationError(check.message, { file: [check.message] }, check.reason);
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const name = decoded(object.metadata[META.filename]) ?? `attachment.${EXTENSIONS[check.format]}`;
  const stored = await withStagedBlobs(deps, envelope.id, (stageId) => [{ key: attachmentKey(envelope.id, stageId, uploadId, check.format), bytes, contentType: check.mimeType }],
    (stage) => withLink(deps, token, meta, 'document', ({ envelope: latest, signer: current }, ctx) => {
      if (mine(attachmentsOf(latest))) return { change: null, result: null }; // a racing complete won
      const attachment: Attachment = {
        id: uploadId, fieldId: field.id, signerId: current.id, name, format: check.format, sizeBytes: bytes.byteLength, sha256,
        blobKey: stage.keys[0] ?? '', createdAt: ctx.now.toISOString(), retentionUntil: null, purgeStatus: 'active',
      };
      return { change: { ...addAttachment(latest, current, attachment, ctx), releases: [stage.id] }, result: null };
    }), (result) => result.change !== null);
  await discardStage(deps, uploadStage);
  const attachment = mine(attachmentsOf(stored.envelope));
  if (!attachment) throw new Conflict('The attachment was removed meanwhile');
  return attachment;
}
