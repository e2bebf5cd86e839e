import { Gone, NotFound } from '../kernel/errors.ts';
import { parseId } from '../kernel/ids.ts';
import type { Attachment } from '../kernel/model.ts';
import { DOWNLOAD_URL_SECONDS, type Delivery, type DeliveryDeps } from '../envelopes/document-actions.ts';
import { loadEnvelope, type CoreDeps } from '../signing/signing-context.ts';
import { MIME_TYPES } from './attachment-formats.ts';
import { attachmentsOf } from './attachments.ts';

/** An envelope's attachments for its owner, each with whether its signer's signature named it. */
export async function listAttachments(deps: CoreDeps, appId: string, rawId: string): Promise<{ attachment: Attachment; submitted: boolean }[]> {
  const envelope = await loadEnvelope(deps, appId, rawId);
  const attachments = attachmentsOf(envelope);
  if (attachments.length === 0) return [];
  const named = new Set((await deps.envelopes.submissions(envelope.id)).flatMap((s) => s.values.flatMap((v) => (v.kind === 'attachment' ? [v.attachmentId] : []))));
  return attachments.map((attachment) => ({ attachment, submitted: named.has(attachment.id) }));
}

/** One attachment's file: its bytes, or over `directDownloadMaxBytes` a presigned URL; 410 once purged. */
export async function downloadAttachment(deps: CoreDeps & DeliveryDeps, appId: string, rawId: string, rawAttachmentId: string, disposition: (a: Attachment) => string): Promise<{ attachment: Attachment; delivery: Delivery }> {
  const envelope = await loadEnvelope(deps, appId, rawId);
  const id = parseId('att', rawAttachmentId);
  const attachment = attachmentsOf(envelope).find((a) => a.id === id);
  if (!attachment) throw new NotFound('No such attachment on this envelope');
  if (attachment.purgeStatus === 'purged') throw new Gone('The attachment was purged at the end of its retention period', {}, 'document_purged');
  if (attachment.sizeBytes > deps.config.directDownloadMaxBytes) {
    const url = await deps.blobs.presignGet(attachment.blobKey, { expiresInSeconds: DOWNLOAD_URL_SECONDS, contentDisposition: disposition(attachment), contentType: MIME_TYPES[attachment.format] });
    return { attachment, delivery: { url } };
  }
  const bytes = await deps.blobs.get(attachment.blobKey);
  if (!bytes) throw new Gone('The attachment is no longer stored', {}, 'document_purged');
  return { attachment, delivery: { bytes } };
}
