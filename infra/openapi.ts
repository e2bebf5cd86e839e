/**
 * The OpenAPI 3.1 document, generated from the route manifest and the valibot schemas. Each manifest route
 * takes its documentation from OPERATIONS by operationId; a route without an entry makes the build throw.
 */
import { toJsonSchemaDefs, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import {
  AddFieldRequest, CreateEnvelopeRequest, CreateFieldRequest, CreateSignerRequest, DocumentQuery, ListEnvelopesQuery, SendRequest, VoidRequest,
} from '#schemas/envelopes.ts';
import { TokenRequest } from '#schemas/auth.ts';
import { TenantParams, TenantSettingsRequest } from '#schemas/tenants.ts';
import { ContactRequest, ContactsQuery } from '#schemas/console.ts';
import { CreateWebhookRequest, DeliveriesQuery, DeliveryParams } from '#schemas/webhooks.ts';
import { DeclineRequest, OtpVerifyRequest, SignRequest, SignerParams, TokenParams } from '#schemas/signing.ts';
import * as res from '#schemas/responses.ts';
import { routes as manifest, type RouteDef } from './routes.ts';

const COMPONENT_SCHEMAS = {
  Envelope: res.EnvelopeResponse,
  Signer: res.SignerResponse,
  Field: res.FieldResponse,
  Document: res.DocumentResponse,
  AuditEvent: res.AuditEventResponse,
  EnvelopeList: res.EnvelopeListResponse,
  DocumentUpload: res.DocumentUploadResponse,
  AuditVerification: res.AuditVerificationResponse,
  TokenResponse: res.TokenResponse,
  SigningContext: res.SigningContextResponse,
  OtpRequested: res.OtpRequestedResponse,
  OtpVerification: res.OtpVerificationResponse,
  Consent: res.ConsentResponse,
  SignResult: res.SignResultResponse,
  DeclineResult: res.DeclineResultResponse,
  SigningLink: res.SigningLinkResponse,
  DownloadStatus: res.DownloadStatusResponse,
  Webhook: res.WebhookResponse,
  TenantSettings: res.TenantSettingsResponse,
  Contact: res.ContactResponse,
  ContactList: res.ContactListResponse,
  Usage: res.UsageResponse,
  ContactRequest,
  TenantSettingsRequest,
  WebhookList: res.WebhookListResponse,
  Delivery: res.DeliveryResponse,
  DeliveryList: res.DeliveryListResponse,
  CreateWebhookRequest,
  Error: res.ErrorResponse,
  OpenApiDocument: res.OpenApiDocumentResponse,
  TokenRequest,
  CreateEnvelopeRequest,
  CreateSignerRequest,
  CreateFieldRequest,
  AddFieldRequest,
  SendRequest,
  VoidRequest,
  OtpVerifyRequest,
  SignRequest,
  DeclineRequest,
};
type ComponentName = keyof typeof COMPONENT_SCHEMAS;

/** Rules the request schemas check in code (`v.check`) and JSON Schema cannot say. */
const COMPONENT_NOTES: Partial<Record<ComponentName, string>> = {
  CreateSignerRequest: '`phone` is required when `authMethod` is `sms_otp`.',
  CreateFieldRequest: 'Name the signer with `signerIndex` (0-based position in `signers`) or `signerEmail`: signers have no ids yet (DECISIONS 4).',
  AddFieldRequest: '`signerId` and `documentId` take a UUID or the prefixed form (`sgn_<uuid>`, `doc_<uuid>`); the field must lie inside the page (DECISIONS 25).',
  SignRequest:
    'Every required field of the signer needs a value, and a value for a field that is not the signer\'s is a 400 (DECISIONS 26). ' +
    '`signature`/`initial`: `signatureImageBase64` (a PNG, at most 1 MB decoded) or, typed, `textValue` with `fontLabel`; ' +
    '`date`: filled by the service with the signing date (a submitted value is ignored); `text`: `textValue`, at most 1,000 characters; ' +
    '`checkbox`: `textValue` `"true"` or `"false"`. `fieldId` takes a UUID or the prefixed form `fld_<uuid>`.',
  Error: 'One body that is both published error shapes (DECISIONS 7).',
};

const CONVERSION: ConversionConfig = {
  target: 'draft-2020-12',
  typeMode: 'input', // what the client sends, before trim/transform
  ignoreActions: ['trim', 'check', 'finite'], // no JSON Schema equivalent; listed so any other unsupported action still throws
  overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
};

/** A schema object: JSON Schema 2020-12 plus the content keywords the converter's type leaves out. */
interface SchemaObject extends JsonSchema {
  contentSchema?: SchemaObject;
}

interface Media { schema: SchemaObject; encoding?: Record<string, { contentType: string }> }
type Content = Record<string, Media>;
interface HeaderDoc { description: string; schema: SchemaObject }

const ERROR_STATUSES = [400, 401, 403, 404, 409, 410, 413, 415, 429, 500] as const;
type ErrorStatus = (typeof ERROR_STATUSES)[number];

interface OperationDoc {
  description?: string;
  /** The path parameters' schema, for constraints beyond "a string"; descriptions come from PATH_PARAMETERS. */
  params?: v.ObjectSchema<v.ObjectEntries, undefined>;
  query?: v.ObjectSchema<v.ObjectEntries, undefined>;
  body?: { required: boolean; description?: string; content: Content };
  success: { status: 200 | 201 | 204; description: string; content?: Content; headers?: Record<string, HeaderDoc> };
  /** Endpoint-specific meaning of each error status; 401 (bearer, link), 403 (bearer), 415 (body) and 500 are implied. */
  errors: Partial<Record<ErrorStatus, string>>;
}

const ref = (name: ComponentName): SchemaObject => ({ $ref: `#/components/schemas/${name}` });
const json = (name: ComponentName): Content => ({ 'application/json': { schema: ref(name) } });
const pdf: SchemaObject = { type: 'string', contentMediaType: 'application/pdf' };
const jsonText = (schema: SchemaObject): SchemaObject => ({ type: 'string', contentMediaType: 'application/json', contentSchema: schema });
const createProperty = (name: keyof typeof CreateEnvelopeRequest.entries): SchemaObject => ({ $ref: `#/components/schemas/CreateEnvelopeRequest/properties/${name}` });

/** Variant A (DECISIONS 4): the PDF plus either a `data` part with the JSON request or flat form fields. */
const multipartCreate: Media = {
  schema: {
    anyOf: [
      { title: 'PDF and data part', type: 'object', required: ['file', 'data'], properties: { file: pdf, data: jsonText(ref('CreateEnvelopeRequest')) } },
      {
        title: 'PDF and flat fields',
        type: 'object',
        required: ['file', 'tenantId', 'signers'],
        properties: {
          file: pdf,
          ...Object.fromEntries((['tenantId', 'subject', 'createdBy', 'expiresInDays', 'fieldOrigin'] as const).map((name) => [name, createProperty(name)])),
          signers: jsonText({ type: 'array', minItems: 1, items: ref('CreateSignerRequest') }),
          fields: jsonText({ type: 'array', items: ref('CreateFieldRequest') }),
        },
      },
    ],
  },
  encoding: { file: { contentType: 'application/pdf' }, data: { contentType: 'application/json' }, signers: { contentType: 'application/json' }, fields: { contentType: 'application/json' } },
};

const concurrent = 'Another request changed the envelope at the same time; retry';
const linkUnusable = 'The link is invalid, expired or replaced by a newer one, or the envelope is voided, declined or expired';
const linkUsed = 'The link has been used: the signer already signed or declined (DECISIONS 12)';
const linkBeforeOtp = `${linkUnusable}; or the one-time code is not verified yet`;

const OPERATIONS: Record<string, OperationDoc> = {
  issueToken: {
    description: 'OAuth 2.0 client credentials; the client id and secret may also be sent as HTTP Basic credentials.',
    body: { required: true, content: { 'application/x-www-form-urlencoded': { schema: ref('TokenRequest') } } },
    success: { status: 200, description: 'A bearer token valid for 3600 seconds', content: json('TokenResponse') },
    errors: { 400: 'Missing field or unsupported grant_type', 401: 'Invalid client credentials', 403: 'The application is suspended' },
  },
  createEnvelope: {
    description: 'Multipart carries the PDF; a JSON create is followed by `POST /v1/envelopes/{id}/document` (DECISIONS 4).',
    body: { required: true, content: { 'multipart/form-data': multipartCreate, ...json('CreateEnvelopeRequest') } },
    success: { status: 201, description: 'The envelope, in draft', content: json('Envelope') },
    errors: { 400: 'Validation error, or the file is not a usable PDF', 413: 'The file is larger than 25 MB' },
  },
  listEnvelopes: {
    query: ListEnvelopesQuery,
    success: { status: 200, description: "A page of the tenant's envelopes, newest first", content: json('EnvelopeList') },
    errors: { 400: 'Invalid query parameter' },
  },
  getEnvelope: {
    success: { status: 200, description: 'The envelope with signers, fields, documents and audit log', content: json('Envelope') },
    errors: { 404: 'No such envelope for this application' },
  },
  sendEnvelope: {
    body: { required: false, content: json('SendRequest') },
    success: { status: 200, description: 'The sent envelope; `signers[].signingUrl` carries the first routing group\'s links', content: json('Envelope') },
    errors: { 400: 'Not in draft, or a signer without fields, or no signers or fields', 403: 'Suspended application or envelope quota reached', 404: 'No such envelope for this application', 409: concurrent },
  },
  voidEnvelope: {
    body: { required: false, content: json('VoidRequest') },
    success: { status: 200, description: 'The voided envelope', content: json('Envelope') },
    errors: { 400: 'The envelope is already terminal (DECISIONS 6)', 404: 'No such envelope for this application', 409: concurrent },
  },
  getDocument: {
    query: DocumentQuery,
    success: {
      status: 200,
      description: 'The PDF',
      content: { 'application/pdf': { schema: pdf } },
      headers: {
        'Content-Disposition': { description: 'attachment, named after the subject', schema: { type: 'string' } },
        'X-Document-Sha256': { description: 'SHA-256 of the PDF, lowercase hex', schema: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
      },
    },
    errors: { 400: 'Invalid kind', 404: 'No such envelope, or no document uploaded yet', 409: 'The sealed document is requested before completion', 410: 'The document was purged' },
  },
  uploadDocument: {
    body: { required: true, description: 'The PDF bytes', content: { 'application/octet-stream': { schema: pdf }, 'application/pdf': { schema: pdf } } },
    success: { status: 201, description: 'The stored original document', content: json('DocumentUpload') },
    errors: { 400: 'Empty body, not a usable PDF, or the envelope is not in draft', 404: 'No such envelope for this application', 409: concurrent, 413: 'The PDF is larger than 25 MB' },
  },
  addSigner: {
    body: { required: true, content: json('CreateSignerRequest') },
    success: { status: 201, description: 'The new signer', content: json('Signer') },
    errors: { 400: 'Validation error, or the envelope is not in draft', 404: 'No such envelope for this application', 409: concurrent },
  },
  addField: {
    body: { required: true, content: json('AddFieldRequest') },
    success: { status: 201, description: 'The new field', content: json('Field') },
    errors: { 400: 'Validation error, a placement outside the page, or the envelope is not in draft', 404: 'No such envelope for this application', 409: concurrent },
  },
  verifyAudit: {
    success: { status: 200, description: 'Whether the audit hash chain recomputes to the recorded head', content: json('AuditVerification') },
    errors: { 404: 'No such envelope for this application' },
  },
  resendSigningLink: {
    description:
      'Issues a new signing link to a signer who was invited and has not signed or declined, for instance after the old link expired ' +
      '(DECISIONS 13), and emails it to them. The previous link stops working at once.',
    params: SignerParams,
    success: { status: 200, description: 'The new signing link', content: json('SigningLink') },
    errors: {
      400: 'The envelope is not `sent` or `in_progress`, or the signer is not yet invited or already signed or declined',
      404: 'No such envelope for this application, or no such signer on it',
      409: concurrent,
    },
  },
  getSigningContext: {
    description: 'The first read marks the signer `viewed` (and the envelope `in_progress`). Gates: OTP (when the signer\'s `authMethod` needs it), then consent, then sign (spec 3.3).',
    params: TokenParams,
    success: { status: 200, description: "The signing context, with only this signer's fields", content: json('SigningContext') },
    errors: { 401: linkUnusable, 409: concurrent, 410: linkUsed },
  },
  requestOtp: {
    description: 'Sends a fresh 6-digit code, valid for 10 minutes, by SMS to `sms_otp` signers with a phone, otherwise by email. A new code replaces the previous one.',
    params: TokenParams,
    success: { status: 200, description: 'Where the code went', content: json('OtpRequested') },
    errors: {
      400: 'This signer needs no code (`authMethod` `none`)',
      401: linkUnusable,
      409: concurrent,
      410: linkUsed,
      429: 'More than 5 code requests in 10 minutes; `Retry-After` says when to ask again',
    },
  },
  verifyOtp: {
    description: 'Three wrong attempts void the code (`signer.otp_failed`); a new one must then be requested. Verifying an already verified signer answers `verified: true`.',
    params: TokenParams,
    body: { required: true, content: json('OtpVerifyRequest') },
    success: { status: 200, description: 'The signer is verified', content: json('OtpVerification') },
    errors: {
      400: 'Validation error, a code that is incorrect, expired or never requested, or a signer that needs no code',
      401: linkUnusable,
      409: concurrent,
      410: linkUsed,
    },
  },
  giveConsent: {
    description: 'Consent to sign electronically, given once; the consent, IP address, user agent and disclosure version go to the audit trail.',
    params: TokenParams,
    success: { status: 200, description: 'Consent recorded', content: json('Consent') },
    errors: { 401: linkBeforeOtp, 409: `Consent was already given; or: ${concurrent.toLowerCase()}`, 410: linkUsed },
  },
  sign: {
    description:
      'Records the signer\'s field values (DECISIONS 26). When this completes the routing group the next group is invited; ' +
      'when every signer has signed, the document is sealed and `envelope.completed` is delivered.',
    params: TokenParams,
    body: { required: true, content: json('SignRequest') },
    success: { status: 200, description: 'The signature is recorded', content: json('SignResult') },
    errors: {
      400: 'Validation error: a required field without a value, an invalid value, or a value for a field that is not the signer\'s',
      401: `${linkBeforeOtp}, or consent is not given yet`,
      409: `The signer already signed or declined; or: ${concurrent.toLowerCase()}`,
    },
  },
  decline: {
    description: 'Declining ends the envelope (`declined`) for every signer; the reason goes to the audit trail.',
    params: TokenParams,
    body: { required: false, content: json('DeclineRequest') },
    success: { status: 200, description: 'The envelope is declined', content: json('DeclineResult') },
    errors: { 400: 'Validation error', 401: linkBeforeOtp, 409: `The signer already signed or declined; or: ${concurrent.toLowerCase()}` },
  },
  getSigningDocument: {
    description: 'The original PDF, for rendering on the signing page; available once the one-time code (where needed) is verified.',
    params: TokenParams,
    success: {
      status: 200,
      description: 'The original PDF',
      content: { 'application/pdf': { schema: pdf } },
      headers: {
        'Content-Disposition': { description: '`inline; filename="document.pdf"`', schema: { type: 'string' } },
        'X-Document-Sha256': { description: 'SHA-256 of the PDF, lowercase hex', schema: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
      },
    },
    errors: { 401: linkBeforeOtp, 410: `${linkUsed}; or the document is no longer available` },
  },
  getDownload: {
    description: 'The download portal link from the completion email (when the sealed copy was too large to attach). The token is the credential.',
    params: TokenParams,
    success: { status: 200, description: 'Whether the sealed copy can be downloaded', content: json('DownloadStatus') },
    errors: { 401: 'The download link is invalid or expired', 410: 'The sealed PDF was deleted at the end of its retention period' },
  },
  downloadSealedDocument: {
    description: 'The sealed PDF. The download is recorded in the audit trail and stops the deletion reminders for this recipient.',
    params: TokenParams,
    success: {
      status: 200,
      description: 'The sealed PDF',
      content: { 'application/pdf': { schema: pdf } },
      headers: {
        'Content-Disposition': { description: 'attachment, named after the subject', schema: { type: 'string' } },
        'X-Document-Sha256': { description: 'SHA-256 of the PDF (documentHashFinal)', schema: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
      },
    },
    errors: { 401: 'The download link is invalid or expired', 409: concurrent, 410: 'The sealed PDF was deleted at the end of its retention period' },
  },
  listWebhooks: {
    success: { status: 200, description: "The application's webhooks (secrets are never returned)", content: json('WebhookList') },
    errors: {},
  },
  createWebhook: {
    description: 'Subscribes an HTTPS endpoint to events. Deliveries are signed with `X-Service-Signature: sha256=<hex HMAC-SHA256 of the body>`, keyed with `secret` when given, else with the client secret (DECISIONS 9).',
    body: { required: true, content: json('CreateWebhookRequest') },
    success: { status: 201, description: 'The webhook', content: json('Webhook') },
    errors: { 400: 'Not an HTTPS URL, an unknown event name, no events, or a secret that is too short' },
  },
  deleteWebhook: {
    success: { status: 204, description: 'Deleted; no more deliveries start for it' },
    errors: { 404: 'No such webhook for this application' },
  },
  listDeliveries: {
    description: 'The failed-deliveries console (DECISIONS 20): `?status=failed` lists what needs a resend.',
    query: DeliveriesQuery,
    success: { status: 200, description: "The webhook's deliveries, newest first", content: json('DeliveryList') },
    errors: { 400: 'Invalid query parameter', 404: 'No such webhook for this application' },
  },
  resendDelivery: {
    description: 'Sends the delivery again now, with the same body and event id; the answer says how it went.',
    params: DeliveryParams,
    success: { status: 200, description: 'The delivery after the attempt', content: json('Delivery') },
    errors: { 404: 'No such webhook or delivery for this application' },
  },
  getTenant: {
    description: 'Per (application, tenantId) defaults (DECISIONS 15): `retentionDays` (30), `defaultExpiresInDays` (30), `fieldOrigin` (bottom-left). A tenant that never set them reads the defaults.',
    params: TenantParams,
    success: { status: 200, description: "The tenant's settings", content: json('TenantSettings') },
    errors: {},
  },
  putTenant: {
    description: 'Sets any of the settings; envelopes created afterwards take them. `retentionDays` is one of the retention classes (7, 30, 90, 365, 730, 2555): the PDFs are deleted that many days after the envelope ends.',
    params: TenantParams,
    body: { required: true, content: json('TenantSettingsRequest') },
    success: { status: 200, description: 'The settings now in force', content: json('TenantSettings') },
    errors: { 400: 'A value outside the allowed set' },
  },
  listContacts: {
    query: ContactsQuery,
    success: { status: 200, description: 'The contacts, ordered by email', content: json('ContactList') },
    errors: { 400: 'Invalid query parameter' },
  },
  saveContact: {
    description: 'Contacts are unique per application and email, compared case-insensitively: saving an existing email updates that contact (name, phone, the email\'s spelling) and keeps its id.',
    body: { required: true, content: json('ContactRequest') },
    success: { status: 200, description: 'The contact, created or updated', content: json('Contact') },
    errors: { 400: 'Validation error' },
  },
  deleteContact: {
    success: { status: 204, description: 'Deleted' },
    errors: { 404: 'No such contact for this application' },
  },
  getUsage: {
    description: 'Counts envelopes sent in the current calendar month (UTC). With `overageAllowed` false, a send that would go beyond `envelopesLimit` is refused with 403 `quota_exceeded`.',
    success: { status: 200, description: 'The usage summary of the current billing period', content: json('Usage') },
    errors: {},
  },
  getOpenApi: {
    success: { status: 200, description: 'This document', content: json('OpenApiDocument') },
    errors: {},
  },
};

const ERROR_RESPONSES: Record<ErrorStatus, { name: string; description: string }> = {
  400: { name: 'BadRequest', description: 'Validation error (`validation_error`) or a state that does not allow the request (`invalid_state`)' },
  401: { name: 'Unauthorized', description: 'Missing, expired or invalid credentials' },
  403: { name: 'Forbidden', description: 'The credentials are valid but not permitted here' },
  404: { name: 'NotFound', description: 'Not found, or not owned by the caller' },
  409: { name: 'Conflict', description: 'Conflict with the current state' },
  410: { name: 'Gone', description: 'No longer available' },
  413: { name: 'PayloadTooLarge', description: 'The body or file is larger than 25 MB' },
  415: { name: 'UnsupportedMediaType', description: 'This endpoint does not accept the request\'s Content-Type' },
  429: { name: 'TooManyRequests', description: 'Rate limited; retry after the seconds in `Retry-After`' },
  500: { name: 'InternalError', description: 'Internal error; the body carries the request id to quote' },
};

const PATH_PARAMETERS: Record<string, string> = {
  id: 'Envelope id: a UUID, or the prefixed form `env_<uuid>` (DECISIONS 1)',
  signerId: 'Signer id: a UUID, or the prefixed form `sgn_<uuid>` (DECISIONS 1)',
  deliveryId: 'Delivery id: a UUID, or the prefixed form `dlv_<uuid>` (DECISIONS 1)',
  tenantId: 'The customer identifier within the application (the `tenantId` of its envelopes)',
  token:
    'The opaque link token: the last path segment of the signer\'s `signingUrl` (DECISIONS 5). It is the credential of this call, ' +
    'which takes no bearer header. It is valid until the envelope\'s deadline (at most 30 days) and stops working when a newer link ' +
    'is issued (DECISIONS 13) or once the signer has signed or declined (DECISIONS 12).',
};

const WEBHOOK_ID = 'Webhook id: a UUID, or the prefixed form `whk_<uuid>` (DECISIONS 1)';
const CONTACT_ID = 'Contact id: a UUID, or the prefixed form `con_<uuid>` (DECISIONS 1)';

const DOWNLOAD_TOKEN =
  'The opaque download-portal token: the last path segment of the link in the completion email. It is the credential of this call, ' +
  'which takes no bearer header, and stays valid until the sealed PDF is deleted at the end of its retention period.';

const TAGS: Record<RouteDef['tag'], string> = {
  Auth: 'OAuth 2.0 client credentials',
  Envelopes: 'Envelopes, their signers, fields, documents and audit trail',
  Console: 'The self-serve console: tenant settings, saved contacts and the usage summary (spec 4.6)',
  Webhooks: 'Event subscriptions, signed deliveries with retries, and the failed-deliveries console (spec 4.5, 6)',
  Signing: 'The signer-facing steps behind a signing link: context, one-time code, consent, then sign or decline (spec 3.3, 4.3); and the download portal for the sealed copy (spec 4.4). No bearer header: the link token in the path is the credential.',
  Meta: 'About the API itself',
};

/** Spec 8: the budget headers are on every response, errors included. */
const commonHeaders = {
  'X-Request-Id': { $ref: '#/components/headers/RequestId' },
  'X-RateLimit-Limit': { $ref: '#/components/headers/RateLimitLimit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/RateLimitRemaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/RateLimitReset' },
};

const HEADERS = {
  RequestId: { description: 'Identifies the request in logs and error bodies', schema: { type: 'string' } },
  RateLimitLimit: { description: 'Requests allowed per window (DECISIONS 19: per application by plan; per link token and address on signer and portal routes)', schema: { type: 'integer' } },
  RateLimitRemaining: { description: 'Requests left in the current window', schema: { type: 'integer', minimum: 0 } },
  RateLimitReset: { description: 'Unix time (seconds) at which the current window ends', schema: { type: 'integer' } },
  IdempotentReplayed: { description: '`true` when this is the stored answer to an earlier request with the same Idempotency-Key', schema: { type: 'string', enum: ['true'] } },
};

/** POSTs with a credential take an Idempotency-Key (spec 8, DECISIONS 24). */
const idempotent = (route: RouteDef) => route.method === 'POST' && route.auth !== 'none';

const IDEMPOTENCY_KEY: OpenApiParameter = {
  name: 'Idempotency-Key', in: 'header', required: false,
  description:
    'Makes the request safe to retry: within 24 hours a request with the same key and the same method, path and body gets the stored answer ' +
    '(header `Idempotent-Replayed: true`) and creates nothing again. Keys are scoped to the application (bearer calls) or the link token ' +
    '(signer calls). 1 to 255 visible ASCII characters; a fresh UUID per logical request is a good choice.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

const idempotencyConflict = (own: string | undefined) =>
  `${own === undefined ? 'The' : `${own}; or: the`} Idempotency-Key was used for a different request (\`idempotency_key_reused\`), ` +
  'or the first request with it is still running (`request_in_progress`, retry shortly)';

export interface OpenApiParameter { name: string; in: 'path' | 'query' | 'header'; required: boolean; description?: string; schema: SchemaObject }
export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: OpenApiParameter[];
  requestBody?: OperationDoc['body'];
  responses: Record<string, object>;
}
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string; license: { name: string; identifier: string } };
  servers: { url: string }[];
  tags: { name: string; description: string }[];
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, SchemaObject>; responses: Record<string, object>; headers: Record<string, object>; securitySchemes: Record<string, object> };
}

/** `queryInt` values arrive as digit strings and are integers once parsed: document the integer. */
function queryInteger(entry: object): SchemaObject | undefined {
  const inner: object = 'wrapped' in entry && typeof entry.wrapped === 'object' && entry.wrapped !== null ? entry.wrapped : entry;
  const pipe = 'pipe' in inner && Array.isArray(inner.pipe) ? (inner.pipe as readonly { type: string; operation?: unknown; requirement?: unknown }[]) : [];
  const at = pipe.findIndex((step) => step.type === 'transform' && step.operation === Number);
  if (at < 0) return undefined;
  const schema: SchemaObject = { type: 'integer' };
  for (const step of pipe.slice(at + 1)) {
    if (step.type === 'min_value' && typeof step.requirement === 'number') schema.minimum = step.requirement;
    if (step.type === 'max_value' && typeof step.requirement === 'number') schema.maximum = step.requirement;
  }
  const fallback = 'default' in entry ? Number(entry.default) : Number.NaN;
  if (Number.isFinite(fallback)) schema.default = fallback;
  return schema;
}

function queryParameters(query: NonNullable<OperationDoc['query']>): OpenApiParameter[] {
  const converted = toJsonSchemaDefs({ query }, CONVERSION).query;
  return Object.entries(query.entries).map(([name, entry]) => {
    const property = converted.properties?.[name];
    const schema = queryInteger(entry) ?? (typeof property === 'object' ? property : {});
    return { name, in: 'query', required: converted.required?.includes(name) ?? false, schema };
  });
}

function pathParameters(route: RouteDef, doc: OperationDoc): OpenApiParameter[] {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '');
  if (route.auth === 'link' && !names.includes('token')) throw new Error(`OpenAPI: ${route.operationId} is a link route without a {token} path segment`);
  const converted = doc.params ? toJsonSchemaDefs({ params: doc.params }, CONVERSION).params.properties ?? {} : {};
  const stray = Object.keys(doc.params?.entries ?? {}).filter((name) => !names.includes(name));
  if (stray.length > 0) throw new Error(`OpenAPI: the params schema of ${route.operationId} has ${stray.join(', ')}, which its path ${route.path} lacks`);
  return names.map((name) => {
    const description = name === 'token' && route.path.startsWith('/v1/download/') ? DOWNLOAD_TOKEN
      : name === 'id' && route.path.startsWith('/v1/webhooks/') ? WEBHOOK_ID
        : name === 'id' && route.path.startsWith('/v1/console/contacts/') ? CONTACT_ID : PATH_PARAMETERS[name];
    if (!description) throw new Error(`OpenAPI: path parameter {${name}} of ${route.operationId} has no description in PATH_PARAMETERS (infra/openapi.ts)`);
    const schema = converted[name];
    return { name, in: 'path', required: true, description, schema: typeof schema === 'object' ? schema : { type: 'string' } };
  });
}

function responses(route: RouteDef, doc: OperationDoc): Record<string, object> {
  const { status, description, content, headers } = doc.success;
  const replayed = idempotent(route) ? { 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } } : {};
  const result: Record<string, object> = { [String(status)]: { description, headers: { ...commonHeaders, ...replayed, ...headers }, content } };
  const implied = (code: ErrorStatus) => code === 500 || code === 429 || (code === 415 && doc.body !== undefined) || ((code === 401 || code === 403) && route.auth === 'bearer') || (code === 401 && route.auth === 'link');
  for (const code of ERROR_STATUSES) {
    const own = doc.errors[code];
    const meaning = code === 409 && idempotent(route) ? idempotencyConflict(own) : own;
    if (meaning === undefined && !implied(code)) continue;
    result[String(code)] = { $ref: `#/components/responses/${ERROR_RESPONSES[code].name}`, ...(meaning === undefined ? {} : { description: meaning }) };
  }
  return result;
}

function operation(route: RouteDef, doc: OperationDoc): OpenApiOperation {
  const parameters = [...pathParameters(route, doc), ...(doc.query ? queryParameters(doc.query) : []), ...(idempotent(route) ? [IDEMPOTENCY_KEY] : [])];
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(doc.description === undefined ? {} : { description: doc.description }),
    tags: [route.tag],
    security: route.auth === 'bearer' ? [{ bearerAuth: [] }] : [], // 'link' and 'none': no header; a link route's credential is its {token}
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(doc.body === undefined ? {} : { requestBody: doc.body }),
    responses: responses(route, doc),
  };
}

function paths(routes: readonly RouteDef[]): OpenApiDocument['paths'] {
  const result: OpenApiDocument['paths'] = {};
  const seen = new Set<string>();
  for (const route of routes) {
    const doc = OPERATIONS[route.operationId];
    if (!doc) throw new Error(`OpenAPI: route ${route.method} ${route.path} (operationId "${route.operationId}") has no documentation: add it to OPERATIONS in infra/openapi.ts`);
    if (seen.has(route.operationId)) throw new Error(`OpenAPI: operationId "${route.operationId}" appears twice in the route manifest`);
    seen.add(route.operationId);
    const item = (result[route.path] ??= {});
    const method = route.method.toLowerCase();
    if (item[method]) throw new Error(`OpenAPI: ${route.method} ${route.path} appears twice in the route manifest`);
    item[method] = operation(route, doc);
  }
  return result;
}

function componentSchemas(): Record<string, SchemaObject> {
  const schemas: Record<string, SchemaObject> = toJsonSchemaDefs(COMPONENT_SCHEMAS, CONVERSION);
  for (const [name, note] of Object.entries(COMPONENT_NOTES)) {
    const schema = schemas[name];
    if (schema) schema.description = schema.description ? `${schema.description} ${note}` : note;
  }
  return schemas;
}

function errorResponses(): Record<string, object> {
  return Object.fromEntries(Object.entries(ERROR_RESPONSES).map(([code, { name, description }]) => {
    const headers = code === '401' ? { ...commonHeaders, 'WWW-Authenticate': { description: '`Bearer`', schema: { type: 'string' } } }
      : code === '429' ? { ...commonHeaders, 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } } }
        : commonHeaders;
    return [name, { description, headers, content: json('Error') }];
  }));
}

const securitySchemes = {
  bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token from `POST /oauth/token`' },
  oauth2: { type: 'oauth2', description: 'Client credentials; the token is then sent as a bearer token', flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes: {} } } },
};

/** Operation ids that have documentation, for the test that every entry still has a route. */
export const documentedOperationIds = (): string[] => Object.keys(OPERATIONS);

export function buildOpenApi(options: { serverUrl: string }, routes: readonly RouteDef[] = manifest): OpenApiDocument {
  const tags = [...new Set(routes.map((route) => route.tag))];
  return {
    openapi: '3.1.0',
    info: {
      title: 'E-signature service API',
      version: '1.0.0',
      description: 'Envelopes, signers, sealed PDFs and a hash-chained audit trail.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: options.serverUrl }],
    tags: tags.map((name) => ({ name, description: TAGS[name] })),
    security: [{ bearerAuth: [] }],
    paths: paths(routes),
    components: {
      schemas: componentSchemas(),
      responses: errorResponses(),
      headers: HEADERS,
      securitySchemes,
    },
  };
}
