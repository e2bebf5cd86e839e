/**
 * Response bodies of the envelope routes, as valibot schemas for the OpenAPI document only: nothing parses responses
 * with them. The shapes follow the envelope views (shared/envelopes/envelope-views.ts).
 */
import * as v from 'valibot';
import { attachmentFieldEntries } from '../attachments/attachment-response-schemas.ts';
import { LOCALES } from '#shared/i18n/locales.ts';
import { AUTH_METHODS, ENVELOPE_STATUSES, FIELD_ORIGINS, FIELD_TYPES, SIGNER_STATUSES } from '#shared/kernel/model.ts';
import { DOCUMENT_KINDS, PURGE_STATUSES, count, positive, sha256Hex, timestamp, uuid } from '../http/response-primitives.ts';

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
  showIf: v.pipe(v.nullable(v.object({ label: v.string(), equals: v.optional(v.nullable(v.string())), notEmpty: v.optional(v.boolean()) })), v.description('Shown only while this condition on another field holds; null: always shown')),
  validation: v.pipe(v.nullable(v.object({
    format: v.optional(v.picklist(['email', 'number', 'date'])), minLength: v.optional(v.number()), maxLength: v.optional(v.number()), pattern: v.optional(v.string()),
  })), v.description('What a text field\'s value must look like; null: anything')),
  ...attachmentFieldEntries,
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
  actor: v.pipe(v.string(), v.description('`signer:<signerId>`, `user:<email>` (a console user) or `system`')),
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
  sender: v.pipe(v.nullable(v.object({ name: v.string(), email: v.nullable(v.string()) })), v.description('Who asks the signers: given at create, else the signed-in user who created it; null: not named')),
  signers: v.array(SignerResponse),
  fields: v.array(FieldResponse),
  allowReassign: v.pipe(v.boolean(), v.description('Whether a signer may hand their place to someone else from the signing page')),
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

/** A field placed by an anchor: one per occurrence. */
export const AnchoredFieldsResponse = v.object({ data: v.array(FieldResponse) });

export const RemindResponse = v.object({
  envelopeId: uuid,
  remindedAt: timestamp,
  signers: v.pipe(v.array(v.object({ id: uuid, name: v.string(), email: v.pipe(v.string(), v.email()) })), v.description('Who was reminded: the current routing group\'s signers who have not signed or declined (embedded signers excepted)')),
});
