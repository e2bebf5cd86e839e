/**
 * The response bodies of the API functions, as valibot schemas for the OpenAPI document only: nothing
 * parses responses with them. The shapes follow `shared/http/views.ts` and `shared/http/errors.ts`.
 */
import * as v from 'valibot';
import { AUTH_METHODS, ENVELOPE_STATUSES, FIELD_ORIGINS, FIELD_TYPES, SIGNER_STATUSES, type Document } from '#domain/model.ts';

const DOCUMENT_KINDS = ['original', 'sealed'] as const satisfies readonly Document['kind'][];
const PURGE_STATUSES = ['active', 'purged'] as const satisfies readonly Document['purgeStatus'][];

const uuid = v.pipe(v.string(), v.uuid());
const timestamp = v.pipe(v.string(), v.isoTimestamp());
const sha256Hex = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/), v.description('SHA-256, lowercase hex'));
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const positive = v.pipe(v.number(), v.integer(), v.minValue(1));
const fieldErrors = v.record(v.string(), v.array(v.string()));

export const SignerResponse = v.object({
  id: uuid,
  name: v.string(),
  email: v.pipe(v.string(), v.email()),
  phone: v.nullable(v.pipe(v.string(), v.description('E.164, used for SMS'))),
  routingOrder: v.pipe(positive, v.description('Equal values sign in parallel; groups are invited in ascending order')),
  status: v.picklist(SIGNER_STATUSES),
  authMethod: v.picklist(AUTH_METHODS),
  signedAt: v.nullable(timestamp),
  declinedAt: v.nullable(timestamp),
  signingUrl: v.optional(v.nullable(v.pipe(v.string(), v.url(), v.description(
    'Only in the send response: the signing link for the first routing group, null for later groups (DECISIONS 5)',
  )))),
});

export const FieldResponse = v.object({
  id: uuid,
  documentId: v.nullable(v.pipe(uuid, v.description('Null until the envelope\'s PDF is uploaded'))),
  signerId: uuid,
  type: v.picklist(FIELD_TYPES),
  page: v.pipe(positive, v.description('1-based page number')),
  x: v.pipe(v.number(), v.description('Left edge, PDF points')),
  y: v.pipe(v.number(), v.description('Vertical position, PDF points, measured from `origin`')),
  w: v.pipe(v.number(), v.gtValue(0), v.description('Width, PDF points')),
  h: v.pipe(v.number(), v.gtValue(0), v.description('Height, PDF points')),
  required: v.boolean(),
  origin: v.picklist(FIELD_ORIGINS),
});

const retentionUntil = v.nullable(v.pipe(v.string(), v.isoDate()));
const purgeStatus = v.picklist(PURGE_STATUSES);

export const DocumentResponse = v.object({
  id: uuid,
  envelopeId: uuid,
  kind: v.picklist(DOCUMENT_KINDS),
  mimeType: v.literal('application/pdf'),
  sha256: sha256Hex,
  pageCount: positive,
  sizeBytes: count,
  createdAt: timestamp,
  retentionUntil,
  purgeStatus,
  retention_until: v.pipe(retentionUntil, v.description('Same value as retentionUntil (DECISIONS 3)')),
  purge_status: v.pipe(purgeStatus, v.description('Same value as purgeStatus (DECISIONS 3)')),
});

export const AuditEventResponse = v.object({
  id: uuid,
  envelopeId: uuid,
  seq: positive,
  event: v.pipe(v.string(), v.description('Dotted event name (DECISIONS 23)'), v.examples(['envelope.created', 'signer.signed', 'envelope.completed'])),
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
  signers: v.array(SignerResponse),
  fields: v.array(FieldResponse),
  documents: v.array(DocumentResponse),
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
  sha256: sha256Hex,
  pageCount: positive,
  sizeBytes: count,
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
  message: v.string(),
  details: v.pipe(v.nullable(fieldErrors), v.description('Same map as `errors`, or null when it is empty')),
  type: v.pipe(v.string(), v.description('Same machine code as `error`')),
  title: v.string(),
  status: v.pipe(v.number(), v.integer(), v.minValue(400), v.maxValue(599)),
  errors: v.pipe(fieldErrors, v.description('Field path (e.g. `signers[0].email`) to messages; empty when not a validation error')),
  requestId: v.pipe(v.string(), v.description('Also in the X-Request-Id header; quote it when reporting a problem')),
});

export const OpenApiDocumentResponse = v.looseObject({
  openapi: v.pipe(v.string(), v.examples(['3.1.0'])),
  info: v.looseObject({ title: v.string(), version: v.string() }),
  paths: v.record(v.string(), v.unknown()),
});

/** The token request form, which `functions/api/oauth-token.ts` parses with a schema of its own (not exported). */
