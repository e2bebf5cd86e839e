import type { Attachment, Field } from '../kernel/model.ts';
import { MIME_TYPES } from './attachment-formats.ts';

/** An attachment field's settings on a field view; nothing for other types. */
export const attachmentFieldView = ({ accept, maxBytes }: Pick<Field, 'accept' | 'maxBytes'>) => (accept ? { accept: [...accept], ...(maxBytes ? { maxBytes } : {}) } : {});

/** The signer's own attachment, as the signing page shows it. */
export const signerAttachmentView = (a: Attachment) => ({
  id: a.id, fieldId: a.fieldId, name: a.name, format: a.format, mimeType: MIME_TYPES[a.format], sizeBytes: a.sizeBytes, sha256: a.sha256, createdAt: a.createdAt,
});

/** An attachment as its envelope's owner lists it; `submitted` once its signer's signature named it. */
export const attachmentView = (a: Attachment, submitted: boolean) => ({
  ...signerAttachmentView(a), signerId: a.signerId, submitted, retentionUntil: a.retentionUntil, purgeStatus: a.purgeStatus,
});
