/**
 * The documentation of each operation, by operationId, and the descriptions of the path parameters and tags.
 * infra/openapi.ts takes every manifest route's documentation from OPERATIONS; a route without an entry makes the build throw.
 */
import type * as v from 'valibot';
import { DocumentParams, DocumentQuery, LinkDocumentQuery, ListEnvelopesQuery, UploadQuery } from '#schemas/envelopes.ts';
import { TenantParams } from '#schemas/tenants.ts';
import { ContactsQuery } from '#schemas/console.ts';
import { DeliveriesQuery, DeliveryParams } from '#schemas/webhooks.ts';
import { SignerParams, TokenParams } from '#schemas/signing.ts';
import type { RouteDef } from '../routes.ts';
import { json, multipartCreate, pdf, ref, type Content, type ErrorStatus, type HeaderDoc } from './components.ts';

export interface OperationDoc {
  description?: string;
  /** The path parameters' schema, for constraints beyond "a string"; descriptions come from PATH_PARAMETERS. */
  params?: v.ObjectSchema<v.ObjectEntries, undefined>;
  query?: v.ObjectSchema<v.ObjectEntries, undefined>;
  body?: { required: boolean; description?: string; content: Content };
  success: { status: 200 | 201 | 204; description: string; content?: Content; headers?: Record<string, HeaderDoc> };
  /** Endpoint-specific meaning of each error status; 401 (bearer, link), 403 (bearer), 415 (body) and 500 are implied. */
  errors: Partial<Record<ErrorStatus, string>>;
}

const concurrent = 'Another request changed the envelope at the same time; retry';
const linkUnusable = 'The link is invalid, expired or replaced by a newer one, or the envelope is voided, declined or expired';
const linkUsed = 'The link has been used: the signer already signed or declined (DECISIONS 12)';
const linkBeforeOtp = `${linkUnusable}; or the one-time code is not verified yet`;

export const OPERATIONS: Record<string, OperationDoc> = {
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
    description: 'Adds one more document to a draft, after the others (ADDITIONS A2); `?filename=` names it, else `document-N.pdf`. Its text is indexed once for anchor placement.',
    query: UploadQuery,
    body: { required: true, description: 'The PDF bytes', content: { 'application/octet-stream': { schema: pdf }, 'application/pdf': { schema: pdf } } },
    success: { status: 201, description: 'The stored original document', content: json('DocumentUpload') },
    errors: { 400: 'Empty body, not a usable PDF, more than 10 documents or 100 MB together, or the envelope is not in draft', 404: 'No such envelope for this application', 409: concurrent, 413: 'The PDF is larger than 25 MB' },
  },
  deleteDocument: {
    description: 'Removes a document from a draft, with the fields on it; the others keep their order (ADDITIONS A2).',
    params: DocumentParams,
    success: { status: 204, description: 'Removed' },
    errors: { 400: 'The envelope is not in draft', 404: 'No such envelope or document for this application', 409: concurrent },
  },
  addSigner: {
    body: { required: true, content: json('CreateSignerRequest') },
    success: { status: 201, description: 'The new signer', content: json('Signer') },
    errors: { 400: 'Validation error, or the envelope is not in draft', 404: 'No such envelope for this application', 409: concurrent },
  },
  addField: {
    description: 'By coordinates (`page`, `x`, `y`): answers the Field. By `anchor` (a text in the document, e.g. `/sig1/`): one field per occurrence, or the first, answered as `{ data: [Field, ...] }` (empty when `ignoreIfMissing` and not found) (ADDITIONS A3).',
    body: { required: true, content: json('AddFieldRequest') },
    success: { status: 201, description: 'The new field, or `{ data }` for an anchor', content: { 'application/json': { schema: { oneOf: [ref('Field'), ref('AnchoredFields')] } } } },
    errors: { 400: 'Validation error, a placement outside the page, an anchor not in the document, or the envelope is not in draft', 404: 'No such envelope for this application', 409: concurrent },
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
    description: 'An original PDF (the first, or `?documentId=`), for rendering on the signing page; available once the one-time code (where needed) is verified.',
    params: TokenParams,
    query: LinkDocumentQuery,
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
    description: 'A sealed PDF (the first, or `?documentId=`: a sealed document or its original). The download is recorded in the audit trail and stops the deletion reminders for this recipient.',
    params: TokenParams,
    query: LinkDocumentQuery,
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

export const PATH_PARAMETERS: Record<string, string> = {
  id: 'Envelope id: a UUID, or the prefixed form `env_<uuid>` (DECISIONS 1)',
  signerId: 'Signer id: a UUID, or the prefixed form `sgn_<uuid>` (DECISIONS 1)',
  documentId: 'Document id: a UUID, or the prefixed form `doc_<uuid>` (DECISIONS 1)',
  deliveryId: 'Delivery id: a UUID, or the prefixed form `dlv_<uuid>` (DECISIONS 1)',
  tenantId: 'The customer identifier within the application (the `tenantId` of its envelopes)',
  token:
    'The opaque link token: the last path segment of the signer\'s `signingUrl` (DECISIONS 5). It is the credential of this call, ' +
    'which takes no bearer header. It is valid until the envelope\'s deadline (at most 30 days) and stops working when a newer link ' +
    'is issued (DECISIONS 13) or once the signer has signed or declined (DECISIONS 12).',
};

export const WEBHOOK_ID = 'Webhook id: a UUID, or the prefixed form `whk_<uuid>` (DECISIONS 1)';
export const CONTACT_ID = 'Contact id: a UUID, or the prefixed form `con_<uuid>` (DECISIONS 1)';

export const DOWNLOAD_TOKEN =
  'The opaque download-portal token: the last path segment of the link in the completion email. It is the credential of this call, ' +
  'which takes no bearer header, and stays valid until the sealed PDF is deleted at the end of its retention period.';

export const TAGS: Record<RouteDef['tag'], string> = {
  Auth: 'OAuth 2.0 client credentials',
  Envelopes: 'Envelopes, their signers, fields, documents and audit trail',
  Console: 'The self-serve console: tenant settings, saved contacts and the usage summary (spec 4.6)',
  Webhooks: 'Event subscriptions, signed deliveries with retries, and the failed-deliveries console (spec 4.5, 6)',
  Signing: 'The signer-facing steps behind a signing link: context, one-time code, consent, then sign or decline (spec 3.3, 4.3); and the download portal for the sealed copy (spec 4.4). No bearer header: the link token in the path is the credential.',
  Meta: 'About the API itself',
};
