/** Response bodies of the attachment routes (documented shapes; nothing parses them). */
import * as v from 'valibot';
import { ATTACHMENT_FORMATS } from '#shared/kernel/model.ts';
import { count, positive, PURGE_STATUSES, sha256Hex, timestamp, uuid } from '../http/response-primitives.ts';

/** An attachment field's settings, on every field view (absent on other types). */
export const attachmentFieldEntries = {
  accept: v.optional(v.pipe(v.array(v.picklist(ATTACHMENT_FORMATS)), v.description('Attachment fields: the formats the signer may add'))),
  maxBytes: v.optional(v.pipe(positive, v.description('Attachment fields: the largest file the signer may add'))),
};

/** The same on the signing page's fields, sent on every field: null on other types (optional for older readers' sake). */
export const signingAttachmentFieldEntries = {
  accept: v.optional(v.pipe(v.nullable(v.array(v.picklist(ATTACHMENT_FORMATS))), v.description('Attachment fields: the formats the signer may add; null on other types'))),
  maxBytes: v.optional(v.pipe(v.nullable(positive), v.description('Attachment fields: the largest file the signer may add; null on other types'))),
};

const attachmentEntries = {
  id: v.pipe(uuid, v.description('Name it in the sign request (`fields[].attachmentId`)')),
  fieldId: uuid,
  name: v.pipe(v.string(), v.description('The file name the signer gave')),
  format: v.picklist(ATTACHMENT_FORMATS),
  mimeType: v.string(),
  sizeBytes: count,
  sha256: sha256Hex,
  createdAt: timestamp,
};

/** The signer's own attachment (the signing page, and the complete call's answer). */
export const SignerAttachmentResponse = v.object(attachmentEntries);

export const AttachmentResponse = v.object({
  ...attachmentEntries,
  signerId: uuid,
  submitted: v.pipe(v.boolean(), v.description('True once the signer signed naming it; before, the signer may still replace or remove it')),
  retentionUntil: v.nullable(v.pipe(v.string(), v.isoDate())),
  purgeStatus: v.picklist(PURGE_STATUSES),
});

export const AttachmentListResponse = v.object({ attachments: v.array(AttachmentResponse) });

export const AttachmentUploadUrlResponse = v.object({
  uploadId: v.pipe(uuid, v.description('Names the upload in `.../upload-url/{uploadId}/complete`; the attachment gets this id')),
  fieldId: uuid,
  method: v.literal('POST'),
  url: v.pipe(v.string(), v.description('Where to POST the file: multipart/form-data with every `fields` entry first and the file last, as the part named `file`')),
  fields: v.record(v.string(), v.string()),
  maxBytes: v.pipe(positive, v.description("The field's maxBytes; the store refuses a larger file with its own 400")),
  expiresAt: v.pipe(timestamp, v.description('The URL works until then (15 minutes)')),
});
