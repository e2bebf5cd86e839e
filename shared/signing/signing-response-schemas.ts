/** Response bodies of the signing, download and embedded-signing routes (documented shapes; nothing parses them). */
import * as v from 'valibot';
import { LOCALES } from '#shared/i18n/locales.ts';
import { ENVELOPE_STATUSES, FIELD_ORIGINS, FIELD_TYPES, SIGNER_STATUSES } from '#shared/kernel/model.ts';
import { OTP_CHANNELS, PAGE_ROTATIONS, count, pdfPoints, positive, sha256Hex, timestamp, uuid } from '../http/response-primitives.ts';
import { FieldResponse } from '../envelopes/envelope-response-schemas.ts';
import { PageBrandingResponse } from '../console/branding-schemas.ts';
import { signingAttachmentFieldEntries, SignerAttachmentResponse } from '../attachments/attachment-response-schemas.ts';

/** A field of the signing context: the Field geometry without ids the signer has no use for. */
const SigningFieldResponse = v.object({
  id: FieldResponse.entries.id,
  type: FieldResponse.entries.type,
  page: FieldResponse.entries.page,
  x: FieldResponse.entries.x,
  y: FieldResponse.entries.y,
  w: FieldResponse.entries.w,
  h: FieldResponse.entries.h,
  required: FieldResponse.entries.required,
  origin: FieldResponse.entries.origin,
  documentId: v.pipe(v.nullable(uuid), v.description('The document the field is on (see `documents`)')),
  label: FieldResponse.entries.label,
  value: FieldResponse.entries.value,
  readOnly: FieldResponse.entries.readOnly,
  showIf: v.optional(FieldResponse.entries.showIf),
  validation: v.optional(FieldResponse.entries.validation),
  ...signingAttachmentFieldEntries,
});

/** What another signer entered, shown read-only to later signers in place. */
const CompletedFieldResponse = v.object({
  id: uuid,
  documentId: v.nullable(uuid),
  type: v.picklist(FIELD_TYPES),
  page: positive,
  x: v.number(),
  y: v.number(),
  w: v.number(),
  h: v.number(),
  origin: v.picklist(FIELD_ORIGINS),
  label: v.nullable(v.string()),
  signerId: uuid,
  signerName: v.string(),
  textValue: v.pipe(v.nullable(v.string()), v.description('Text, a typed signature, the date, or `"true"`/`"false"` for a checkbox')),
  imageDataUrl: v.pipe(v.nullable(v.string()), v.description('`data:image/png;base64,...` for a drawn signature or initials')),
  fontLabel: v.pipe(v.nullable(v.string()), v.description('The font of a typed signature')),
});

/** The signing context (the signer, their fields, the gates passed) plus what the signing page needs to render and to gate its steps. */
export const SigningContextResponse = v.object({
  envelopeId: uuid,
  signerId: uuid,
  signerName: v.string(),
  signerEmail: v.pipe(v.string(), v.email()),
  locale: v.pipe(v.picklist(LOCALES), v.description("The signer's language: the page starts in it (the signer may switch)")),
  fields: v.pipe(v.array(SigningFieldResponse), v.description("Only this signer's fields")),
  conditionValues: v.pipe(v.record(v.string(), v.string()), v.description("The values of other signers' fields that this signer's `showIf` conditions name, by label (what they entered, else the prefill)")),
  allowReassign: v.pipe(v.boolean(), v.description('Whether the signer may hand their place to someone else (`POST /v1/signing/{token}/reassign`)')),
  requiresOtpVerification: v.pipe(v.boolean(), v.description('False only for signers with `authMethod` `none`')),
  otpVerified: v.boolean(),
  otpChannel: v.pipe(v.nullable(v.picklist(OTP_CHANNELS)), v.description('Where a code goes: `sms` for `sms_otp` signers with a phone, else `email`; null when no code is needed')),
  consentGiven: v.boolean(),
  consentDisclosure: v.pipe(
    v.object({ version: v.pipe(v.string(), v.description('Recorded in the audit trail with the consent')), text: v.string() }),
    v.description('The electronic-records disclosure the signer consents to'),
  ),
  savedSignatureB64: v.pipe(v.nullable(v.string()), v.description('Always null: signatures are not kept between envelopes')),
  savedSignatureFontLabel: v.pipe(v.nullable(v.string()), v.description('Always null: signatures are not kept between envelopes')),
  subject: v.nullable(v.string()),
  message: v.pipe(v.nullable(v.string()), v.description('The message given at send')),
  expiresAt: v.pipe(timestamp, v.description('Signing deadline')),
  signerStatus: v.picklist(SIGNER_STATUSES),
  document: v.pipe(
    v.nullable(v.object({
      id: uuid,
      pageCount: positive,
      pages: v.pipe(v.array(v.object({
        box: v.pipe(
          v.object({ x: pdfPoints('Left edge'), y: pdfPoints('Bottom edge'), width: pdfPoints('Width'), height: pdfPoints('Height') }),
          v.description('The visible page area: the crop box, clipped to the media box'),
        ),
        rotate: v.pipe(v.picklist(PAGE_ROTATIONS), v.description('Page rotation, degrees clockwise')),
      })), v.description('Page geometry in page order')),
    })),
    v.description('The first original PDF (fetch it from `GET /v1/signing/{token}/document`); null when none is uploaded'),
  ),
  documents: v.pipe(v.array(v.object({ id: uuid, name: v.string(), pageCount: positive, pages: v.array(v.unknown()) })), v.description('Every original in order, with its page geometry (`GET /v1/signing/{token}/document?documentId=`)')),
  branding: v.pipe(PageBrandingResponse, v.description('The envelope\'s branding for the page header (logo, name, colours with their contrast-checked text colours); null: none')),
  completedFields: v.pipe(v.array(CompletedFieldResponse), v.description('What signers who signed before entered, to be shown read-only in place')),
  attachments: v.pipe(v.array(SignerAttachmentResponse), v.description("The files this signer added for their attachment fields, not yet signed")),
});

export const OtpRequestedResponse = v.object({
  maskedEmail: v.pipe(v.string(), v.description("The signer's email address, partly masked"), v.examples(['a***@example.com'])),
  channel: v.pipe(v.picklist(OTP_CHANNELS), v.description('Where the code was sent')),
  maskedPhone: v.pipe(v.nullable(v.string()), v.description('The phone number, partly masked, when the code went by SMS; else null')),
  expiresInSeconds: v.pipe(positive, v.description('How long the code is valid'), v.examples([600])),
});

export const OtpVerificationResponse = v.object({
  verified: v.pipe(v.boolean(), v.description('Always true: a wrong or expired code is a 400')),
});

export const ConsentResponse = v.object({
  consented: v.literal(true),
  consentedAt: timestamp,
});

export const SignResultResponse = v.object({
  signed: v.literal(true),
  signedAt: timestamp,
  envelopeStatus: v.pipe(v.picklist(ENVELOPE_STATUSES), v.description('The envelope after this signature; `completed` follows once every signer has signed and sealing has run')),
  allSigned: v.pipe(v.boolean(), v.description('Whether this was the last signature: every signer has signed, and the envelope completes as soon as it is sealed')),
});

export const ReassignResultResponse = v.object({
  reassigned: v.pipe(v.literal(true), v.description('The person named is invited; this link no longer works')),
});

export const DeclineResultResponse = v.object({
  declined: v.literal(true),
  declinedAt: timestamp,
  envelopeStatus: v.pipe(v.literal('declined'), v.description('A decline ends the envelope for every signer')),
});

export const SigningLinkResponse = v.object({
  signerId: uuid,
  signingUrl: v.pipe(v.string(), v.url(), v.description('The new signing link (`{SIGNING_URL}/sign/{token}`); the previous one no longer works')),
});

export const DownloadStatusResponse = v.object({
  envelopeId: uuid,
  available: v.pipe(v.boolean(), v.description('True while the sealed PDF is stored (a purged one answers 410 instead)')),
  subject: v.nullable(v.string()),
  completedAt: v.nullable(v.pipe(v.string(), v.isoTimestamp())),
  locale: v.pipe(v.picklist(LOCALES), v.description("The recipient's language (a signer's own, else the envelope's): the page starts in it")),
  sha256: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  pageCount: v.pipe(v.number(), v.integer()),
  sizeBytes: v.pipe(v.number(), v.integer()),
  retentionUntil: v.nullable(v.pipe(v.string(), v.isoDate(), v.description('The day the sealed PDF is deleted'))),
  documents: v.pipe(v.array(v.object({ documentId: uuid, name: v.string(), sizeBytes: count, pageCount: positive, sha256: sha256Hex })),
    v.description('Every sealed document (`GET /v1/download/{token}/document?documentId=`); the top-level fields describe the first')),
  branding: v.pipe(PageBrandingResponse, v.description('The envelope\'s branding for the page header; null: none')),
});

export const EmbeddedUrlResponse = v.object({
  url: v.pipe(v.string(), v.url(), v.description('Open it in an iframe on one of the application\'s `embedOrigins` (or a browser tab); valid until `expiresAt`, once')),
  expiresAt: v.pipe(timestamp, v.description('5 minutes after issue; opening the URL spends it')),
});

export const EmbeddedSessionResponse = v.object({
  token: v.pipe(v.string(), v.description('The signer\'s signing link token, for `/v1/signing/{token}/...`')),
  envelopeId: uuid,
  signerId: uuid,
  returnUrl: v.pipe(v.nullable(v.string()), v.description('Where the page goes when it is not framed')),
  embedOrigins: v.pipe(v.array(v.string()), v.description('The origins the page may post its events to')),
});
