import * as v from 'valibot';
import { idOf } from '../http/common-schemas.ts';
import type { Attachment } from '../kernel/model.ts';
import { TokenParams } from '../signing/signing-schemas.ts';

/** A presigned upload for one of the signer's attachment fields; its size when known (over the field's maxBytes: 413 at once). */
export const AttachmentUploadUrlRequest = v.object({
  fieldId: idOf('fld', 'field'),
  filename: v.optional(v.nullable(v.pipe(v.string('must be a string'), v.trim(), v.maxLength(255, 'must be at most 255 characters'))), null),
  sizeBytes: v.optional(v.nullable(v.pipe(v.number('must be a whole number of bytes'), v.integer('must be a whole number of bytes'), v.minValue(1, 'must be at least 1'))), null),
});

const token = TokenParams.entries.token;
const raw = v.pipe(v.string(), v.maxLength(64));
export const SigningUploadParams = v.object({ token, uploadId: raw });
export const SigningAttachmentParams = v.object({ token, attachmentId: raw });
export const AttachmentParams = v.object({ id: v.string(), attachmentId: raw });

export type { Attachment };
