import type { Attachment, Field } from '../kernel/model.ts';

/** A signer's attachment as their submission names it: the seal embeds the file whose SHA-256 this records. */
export interface AttachmentValue {
  fieldId: string;
  type: 'attachment';
  kind: 'attachment';
  attachmentId: string;
  name: string;
  sha256: string;
  sizeBytes: number;
}

/** The value of an attachment field: the attachment the sign request names, which must be the one added for that field. */
export function attachmentValue(field: Field, attachmentId: string | null, attachments: readonly Attachment[]): AttachmentValue | string | null {
  if (attachmentId === null) return field.required ? 'is required: add the file, then name its attachmentId' : null;
  const attachment = attachments.find((a) => a.id === attachmentId && a.fieldId === field.id && a.signerId === field.signerId);
  if (!attachment) return 'attachmentId does not name the file added for this field (add it again, or name the current one)';
  return { fieldId: field.id, type: 'attachment', kind: 'attachment', attachmentId: attachment.id, name: attachment.name, sha256: attachment.sha256, sizeBytes: attachment.sizeBytes };
}
