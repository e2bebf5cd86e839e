import * as v from 'valibot';
import { idOf } from '../http/common-schemas.ts';

/** The link token in the path; its checks (signature, expiry, version) happen in the use case. */
export const TokenParams = v.object({ token: v.pipe(v.string(), v.maxLength(4096)) });

export const OtpVerifyRequest = v.object({
  code: v.pipe(v.string('is required'), v.length(6, 'must be exactly 6 characters')),
});

export const SignRequest = v.object({
  fields: v.pipe(v.array(v.object({
    fieldId: idOf('fld', 'field'),
    signatureImageBase64: v.optional(v.nullable(v.pipe(v.string('must be a base64 PNG'), v.maxLength(1_500_000, 'is larger than 1 MB')))),
    textValue: v.optional(v.nullable(v.string('must be a string'))),
    signatureSource: v.optional(v.nullable(v.pipe(
      v.picklist(['drawn', 'uploaded'], 'must be drawn or uploaded'),
      v.description('How the signer made `signatureImageBase64`: drawn on a pad, or an uploaded picture; the audit certificate states it'),
    ))),
    attachmentId: v.optional(v.nullable(v.pipe(idOf('att', 'attachment'), v.description('Attachment fields: the id `.../attachments/upload-url/{uploadId}/complete` answered')))),
  }), 'must be an array of field values'), v.maxLength(1000, 'has too many entries')),
  fontLabel: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(64, 'must be at most 64 characters'))), null),
});

export const DeclineRequest = v.object({
  reason: v.optional(v.nullable(v.pipe(v.string('must be a string'), v.trim(), v.maxLength(1000, 'must be at most 1000 characters'))), null),
});

/** The signer names who signs in their place. */
export const SigningReassignRequest = v.object({
  name: v.pipe(v.string('is required'), v.trim(), v.nonEmpty('is required'), v.maxLength(200, 'must be at most 200 characters')),
  email: v.pipe(v.string('must be an email address'), v.trim(), v.email('must be an email address'), v.maxLength(254, 'must be at most 254 characters')),
  reason: v.optional(v.nullable(v.pipe(v.string('must be a string'), v.trim(), v.maxLength(1000, 'must be at most 1000 characters'))), null),
});

export const SignerParams = v.object({ id: v.string(), signerId: v.string() });

export const EmbeddedUrlRequest = v.object({
  returnUrl: v.optional(v.nullable(v.pipe(v.string('must be a URL'), v.maxLength(2048, 'must be at most 2048 characters'), v.description('Where the page goes after signing or declining when it is not in a frame (`?event=signed|declined`)'))), null),
});
