import { RETENTION_DAYS } from '#domain/retention.ts';
import { WEBHOOK_EVENTS } from '#domain/outbox.ts';
import { ERROR_REASONS } from '#domain/errors.ts';
import { LOCALES } from '#shared/i18n/locales.ts';
/**
 * The response bodies of the API functions, as valibot schemas for the OpenAPI document only: nothing
 * parses responses with them. The shapes follow `shared/http/views.ts` and `shared/http/errors.ts`.
 */
import * as v from 'valibot';
import { AUTH_METHODS, ENVELOPE_STATUSES, FIELD_ORIGINS, FIELD_TYPES, SIGNER_STATUSES, type Document, type PageGeometry } from '#domain/model.ts';

const DOCUMENT_KINDS = ['original', 'sealed'] as const satisfies readonly Document['kind'][];
const PURGE_STATUSES = ['active', 'purged'] as const satisfies readonly Document['purgeStatus'][];
const PAGE_ROTATIONS = [0, 90, 180, 270] as const satisfies readonly PageGeometry['rotate'][];
const OTP_CHANNELS = ['email', 'sms'] as const;

const uuid = v.pipe(v.string(), v.uuid());
const timestamp = v.pipe(v.string(), v.isoTimestamp());
const sha256Hex = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/), v.description('SHA-256, lowercase hex'));
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const positive = v.pipe(v.number(), v.integer(), v.minValue(1));
const fieldErrors = v.record(v.string(), v.array(v.string()));

export const ReminderSettingsResponse = v.object({
  firstAfterDays: v.pipe(positive, v.description('Days after the invitation before the first reminder')),
  everyDays: v.pipe(v.nullable(positive), v.description('Days between later reminders; null: only one')),
});

export const SignerResponse = v.object({
  id: uuid,
  name: v.string(),
  email: v.pipe(v.string(), v.email()),
  phone: v.nullable(v.pipe(v.string(), v.description('E.164, used for SMS'))),
  routingOrder: v.pipe(positive, v.description('Equal values sign in parallel; groups are invited in ascending order')),
  status: v.picklist(SIGNER_STATUSES),
  authMethod: v.picklist(AUTH_METHODS),
  locale: v.pipe(v.picklist(LOCALES), v.description("The language of the signer's emails, SMS and signing page")),
  signedAt: v.nullable(timestamp),
  declinedAt: v.nullable(timestamp),
  embedded: v.pipe(v.boolean(), v.description('Signs inside the integrator\'s app: no invitation is sent')),
  signingUrl: v.optional(v.nullable(v.pipe(v.string(), v.url(), v.description(
    'Only in the send response: the signing link for the first routing group, null for later groups (they are invited when the earlier groups have signed)',
  )))),
});

export const FieldResponse = v.object({
  id: uuid,
  documentId: v.nullable(v.pipe(uuid, v.description('The document the field is on; null only while the envelope has no document'))),
  signerId: uuid,
  type: v.picklist(FIELD_TYPES),
  page: v.pipe(positive, v.description('1-based page number')),
  x: v.pipe(v.number(), v.description('Left edge, PDF points')),
  y: v.pipe(v.number(), v.description('Vertical position, PDF points, measured from `origin`')),
  w: v.pipe(v.number(), v.gtValue(0), v.description('Width, PDF points')),
  h: v.pipe(v.number(), v.gtValue(0), v.description('Height, PDF points')),
  required: v.pipe(v.boolean(), v.description('Always false for a read-only field')),
  origin: v.picklist(FIELD_ORIGINS),
  label: v.pipe(v.nullable(v.pipe(v.string(), v.maxLength(100))), v.description('The name the signer sees, e.g. "Company name"')),
  value: v.pipe(v.nullable(v.string()), v.description('A prefilled value (text; `"true"`/`"false"` for a checkbox): kept if the signer submits nothing, sealed as is when read-only')),
  readOnly: v.pipe(v.boolean(), v.description('Shown to the signer with its value; never changed by them')),
});

const retentionUntil = v.nullable(v.pipe(v.string(), v.isoDate()));
const purgeStatus = v.picklist(PURGE_STATUSES);

export const DocumentResponse = v.object({
  id: uuid,
  envelopeId: uuid,
  kind: v.picklist(DOCUMENT_KINDS),
  name: v.pipe(v.string(), v.description('The uploaded filename, else `document-N.pdf`; a sealed document carries its original\'s')),
  order: v.pipe(positive, v.description('Position among the envelope\'s documents, 1-based')),
  sourceDocumentId: v.pipe(v.nullable(uuid), v.description('For a sealed document: the original it seals; null for an original')),
  mimeType: v.literal('application/pdf'),
  sha256: sha256Hex,
  pageCount: positive,
  sizeBytes: count,
  createdAt: timestamp,
  retentionUntil,
  purgeStatus,
  retention_until: v.pipe(retentionUntil, v.description('Same value as retentionUntil (both spellings are published)')),
  purge_status: v.pipe(purgeStatus, v.description('Same value as purgeStatus (both spellings are published)')),
});

export const AuditEventResponse = v.object({
  id: uuid,
  envelopeId: uuid,
  seq: positive,
  event: v.pipe(v.string(), v.description('Dotted audit event name'), v.examples(['envelope.created', 'signer.signed', 'envelope.completed'])),
  timestamp,
  actor: v.pipe(v.string(), v.description('`signer:<signerId>` or `system`')),
  ip: v.nullable(v.string()),
  userAgent: v.nullable(v.string()),
  detail: v.nullable(v.record(v.string(), v.unknown())),
  prevHash: sha256Hex,
  hash: v.pipe(sha256Hex, v.description('SHA-256 of prevHash followed by the canonical JSON of the event without its hash')),
});

export const EnvelopeResponse = v.object({
  id: uuid,
  tenantId: v.string(),
  status: v.picklist(ENVELOPE_STATUSES),
  createdBy: v.nullable(v.string()),
  subject: v.nullable(v.pipe(v.string(), v.maxLength(255))),
  documentHashOriginal: v.nullable(sha256Hex),
  documentHashFinal: v.nullable(sha256Hex),
  expiresAt: v.pipe(timestamp, v.description('Signing deadline')),
  sentAt: v.nullable(timestamp),
  completedAt: v.nullable(timestamp),
  voidedAt: v.nullable(timestamp),
  createdAt: timestamp,
  fieldOrigin: v.picklist(FIELD_ORIGINS),
  reminders: v.pipe(v.nullable(ReminderSettingsResponse), v.description('Automatic reminders; null: none')),
  cc: v.pipe(v.array(v.object({ name: v.string(), email: v.pipe(v.string(), v.email()) })), v.description('Carbon copies: receive the completion email and the notices')),
  signers: v.array(SignerResponse),
  fields: v.array(FieldResponse),
  documents: v.array(DocumentResponse),
  templateId: v.optional(v.pipe(uuid, v.description('The template the envelope was made from'))),
  sealing: v.pipe(v.nullable(v.object({
    rounds: v.pipe(count, v.description('Seal rounds started so far (the first by the last signature)')),
    startedAt: timestamp,
    nextCheckAt: v.pipe(v.nullable(timestamp), v.description('When the seal sweep starts the next round if this one does not complete; null once it gave up (`envelope.seal_stalled`)')),
    lastError: v.pipe(v.nullable(v.string()), v.description('Why the last round failed, as the workflow reported it')),
  })), v.description('Null until every signer has signed; then how sealing goes, until `completed`')),
  auditLog: v.optional(v.pipe(v.array(AuditEventResponse), v.description('Only in the detail read'))),
  auditChainHead: v.optional(v.pipe(sha256Hex, v.description('Only in the detail read: hash of the last audit event'))),
});

export const EnvelopeListResponse = v.object({
  data: v.pipe(v.array(EnvelopeResponse), v.description('Newest first')),
  total: count,
  page: positive,
  pageSize: v.pipe(positive, v.maxValue(100)),
});

export const DocumentUploadResponse = v.object({
  documentId: uuid,
  name: v.pipe(v.string(), v.description('`?filename=`, else `document-N.pdf`')),
  order: v.pipe(positive, v.description('Position among the envelope\'s documents, 1-based')),
  sha256: sha256Hex,
  pageCount: positive,
  sizeBytes: count,
});

export const UploadUrlResponse = v.object({
  uploadId: v.pipe(uuid, v.description('Names the upload in `.../upload-url/{uploadId}/complete`')),
  method: v.literal('POST'),
  url: v.pipe(v.string(), v.description('Where to POST the file: multipart/form-data with every `fields` entry first and the PDF last, as the part named `file`')),
  fields: v.record(v.string(), v.string()),
  maxBytes: v.pipe(positive, v.description('The largest file the URL accepts (25 MB); S3 refuses a larger one with its own 400')),
  expiresAt: v.pipe(v.string(), v.isoTimestamp(), v.description('The URL works until then (15 minutes)')),
});

export const AuditVerificationResponse = v.object({
  envelopeId: uuid,
  valid: v.boolean(),
  events: v.pipe(count, v.description('Number of audit events checked')),
  chainHead: v.pipe(sha256Hex, v.description('The head hash recorded on the envelope')),
  brokenAtSeq: v.optional(v.pipe(positive, v.description('When invalid: the first event that does not chain'))),
  reason: v.optional(v.pipe(v.string(), v.description('When invalid: why the chain breaks there'))),
});

export const TokenResponse = v.object({
  access_token: v.pipe(v.string(), v.description('Bearer token (JWT)')),
  token_type: v.literal('Bearer'),
  expires_in: v.pipe(positive, v.description('Seconds'), v.examples([3600])),
});

/** One body that is both published error shapes (DECISIONS 7). */
export const ErrorResponse = v.object({
  error: v.pipe(v.string(), v.description('Machine code'), v.examples(['validation_error', 'invalid_state', 'not_found'])),
  reason: v.pipe(v.nullable(v.picklist(ERROR_REASONS)), v.description('Why, where one code has several causes (the signing page picks its screen by it); null otherwise. Never parse `message`.')),
  message: v.string(),
  details: v.pipe(v.nullable(fieldErrors), v.description('Same map as `errors`, or null when it is empty')),
  type: v.pipe(v.string(), v.description('Same machine code as `error`')),
  title: v.string(),
  status: v.pipe(v.number(), v.integer(), v.minValue(400), v.maxValue(599)),
  errors: v.pipe(fieldErrors, v.description('Field path (e.g. `signers[0].email`) to messages; empty when not a validation error')),
  requestId: v.pipe(v.string(), v.description('Also in the X-Request-Id header; quote it when reporting a problem')),
  downloadUrl: v.optional(v.pipe(v.string(), v.description('Only on a signing link\'s 410 `already_signed` once the envelope is complete: the signer\'s download page'))),
});

export const OpenApiDocumentResponse = v.looseObject({
  openapi: v.pipe(v.string(), v.examples(['3.1.0'])),
  info: v.looseObject({ title: v.string(), version: v.string() }),
  paths: v.record(v.string(), v.unknown()),
});


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

const pdfPoints = (what: string) => v.pipe(v.number(), v.description(`${what}, PDF points`));

/** The signing context (spec 2.7) plus what the signing page needs to render and to gate its steps. */
export const SigningContextResponse = v.object({
  envelopeId: uuid,
  signerId: uuid,
  signerName: v.string(),
  signerEmail: v.pipe(v.string(), v.email()),
  locale: v.pipe(v.picklist(LOCALES), v.description("The signer's language: the page starts in it (the signer may switch)")),
  fields: v.pipe(v.array(SigningFieldResponse), v.description("Only this signer's fields")),
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
  completedFields: v.pipe(v.array(CompletedFieldResponse), v.description('What signers who signed before entered, to be shown read-only in place')),
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
});

/** A field placed by an anchor: one per occurrence. */
export const AnchoredFieldsResponse = v.object({ data: v.array(FieldResponse) });

export const WebhookResponse = v.object({
  id: uuid,
  url: v.pipe(v.string(), v.url()),
  events: v.array(v.picklist(WEBHOOK_EVENTS)),
  active: v.boolean(),
  createdAt: v.pipe(v.string(), v.isoTimestamp()),
  retrySchedule: v.pipe(v.picklist(['A', 'B']), v.description('B (default): 1 min, 10 min, 1 h, 6 h between attempts; A: 30 s, 2 min, 10 min, 1 h; five attempts in all, then the delivery is `failed`')),
  signedWith: v.pipe(v.picklist(['secret', 'client_secret']), v.description('Which key signs X-Service-Signature: the webhook\'s own `secret`, else the application\'s client secret; the secret itself is never returned')),
});

export const WebhookListResponse = v.array(WebhookResponse);

export const DeliveryResponse = v.object({
  id: uuid,
  webhookId: uuid,
  eventId: v.pipe(v.string(), v.description('The event id: the same on every delivery of this event')),
  event: v.picklist(WEBHOOK_EVENTS),
  envelopeId: uuid,
  status: v.picklist(['pending', 'delivered', 'failed']),
  attempts: v.pipe(v.number(), v.integer(), v.description('Attempts made so far (at most 5 on the automatic schedule)')),
  lastStatusCode: v.nullable(v.pipe(v.number(), v.integer())),
  lastError: v.nullable(v.string()),
  lastResponse: v.nullable(v.pipe(v.string(), v.description('The first bytes of the receiver\'s last answer'))),
  createdAt: v.pipe(v.string(), v.isoTimestamp()),
  lastAttemptAt: v.nullable(v.pipe(v.string(), v.isoTimestamp())),
  nextAttemptAt: v.nullable(v.pipe(v.string(), v.isoTimestamp())),
  deliveredAt: v.nullable(v.pipe(v.string(), v.isoTimestamp())),
});

export const DeliveryListResponse = v.object({ data: v.array(DeliveryResponse) });

export const TenantSettingsResponse = v.object({
  tenantId: v.string(),
  defaultExpiresInDays: v.pipe(v.number(), v.integer()),
  retentionDays: v.picklist(RETENTION_DAYS),
  fieldOrigin: v.picklist(FIELD_ORIGINS),
  defaultLocale: v.pipe(v.picklist(LOCALES), v.description('The locale of signers created without one (default `en`)')),
  defaultReminders: v.pipe(v.nullable(ReminderSettingsResponse), v.description('Reminders of envelopes created without `reminders`')),
});

export const ContactResponse = v.object({
  id: uuid,
  appId: uuid,
  name: v.string(),
  email: v.pipe(v.string(), v.email(), v.description('As last saved; unique per application, compared case-insensitively')),
  phone: v.nullable(v.string()),
  createdAt: timestamp,
});

export const ContactListResponse = v.array(ContactResponse);

export const UsageResponse = v.object({
  plan: v.string(),
  periodStart: v.pipe(v.string(), v.isoDate(), v.description('First day of the billing period: the calendar month in UTC')),
  periodEnd: v.pipe(v.string(), v.isoDate(), v.description('Last day of the billing period')),
  envelopesUsed: v.pipe(count, v.description('Envelopes sent in the period')),
  envelopesLimit: v.pipe(v.nullable(count), v.description('Envelopes the plan includes per period; null when unlimited')),
  overageAllowed: v.pipe(v.boolean(), v.description('False: a send beyond the limit is refused with 403 `quota_exceeded`')),
});

export const RemindResponse = v.object({
  envelopeId: uuid,
  remindedAt: timestamp,
  signers: v.pipe(v.array(v.object({ id: uuid, name: v.string(), email: v.pipe(v.string(), v.email()) })), v.description('Who was reminded: the current routing group\'s signers who have not signed or declined (embedded signers excepted)')),
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

export const ConsoleSettingsResponse = v.object({
  embedOrigins: v.pipe(v.array(v.string()), v.description('Origins allowed to frame embedded signing')),
});
