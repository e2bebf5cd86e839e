/**
 * What the document says beyond the schemas' own shapes: a description of every published schema, and an example
 * request body for every operation that takes one (each example is parsed with the route's own schema in
 * test/infra/openapi.test.ts, so none can drift from what the API accepts).
 */
import type { ComponentName } from './components.ts';

const ENVELOPE = '0194a3b0-7c1e-7d2a-9f10-3a4b5c6d7e8f';
const SIGNER = '0194a3b0-7c1e-7d2a-9f10-3a4b5c6d7e90';
const FIELD = '0194a3b0-7c1e-7d2a-9f10-3a4b5c6d7e91';

export const COMPONENT_DESCRIPTIONS: Record<ComponentName, string> = {
  Envelope: 'An envelope: its documents, signers, fields and (on the detail read) its hash-chained audit log. Status moves draft → sent → in_progress → completed, or ends declined, voided or expired.',
  Signer: 'A signer of an envelope. Signers in the same `routingOrder` group sign in parallel; the next group is invited when the last signer of a group signs.',
  Field: 'A field a signer fills: a box on a page in PDF points (origin bottom-left unless `origin` is `top-left`).',
  AnchoredFields: 'The fields an anchor placed, one for each occurrence of its text.',
  Document: 'A PDF of an envelope: an uploaded original or the sealed copy, with its SHA-256 and retention.',
  AuditEvent: 'One entry of the envelope\'s audit log. Each entry\'s hash covers the previous entry\'s hash, so the log is a chain that `GET /v1/envelopes/{id}/audit/verify` recomputes.',
  EnvelopeList: 'One page of a tenant\'s envelopes, newest first.',
  DocumentUpload: 'The document just uploaded to a draft envelope.',
  AuditVerification: 'The result of recomputing the audit hash chain: valid, or where it breaks.',
  TokenResponse: 'An OAuth 2.0 access token: send it as `Authorization: Bearer <access_token>` until it expires (1 hour), then request a new one.',
  SigningContext: 'What a signer sees behind their link: the envelope, their fields, the document\'s pages, and which gates (one-time code, consent) remain.',
  OtpRequested: 'A one-time code was sent (6 digits, valid 10 minutes; at most 5 requests per 10 minutes).',
  OtpVerification: 'The one-time code was accepted: the link may now give consent and sign.',
  Consent: 'The signer\'s consent to sign electronically, recorded with IP address, user agent and time.',
  SignResult: 'The signature was recorded. When the signer was the last, the envelope is sealed in the background and completes.',
  DeclineResult: 'The signer declined: the envelope ends `declined` and nobody else can sign.',
  SigningLink: 'A new signing link for the signer; the previous one no longer works.',
  DownloadStatus: 'The download portal: the sealed documents of a completed envelope and whether they can still be downloaded.',
  Webhook: 'A webhook subscription. Deliveries are POSTs signed with `X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw body>`.',
  TenantSettings: 'A tenant\'s defaults for new envelopes and for how long their PDFs are kept.',
  Contact: 'A saved contact of the application.',
  ContactList: 'The application\'s saved contacts, sorted by name.',
  Usage: 'Envelopes sent in the current billing period (the calendar month in UTC) against the plan\'s limit.',
  ContactRequest: 'A contact to save; an existing contact with the same email (case-insensitive) is updated and keeps its id.',
  TenantSettingsRequest: 'Tenant settings to change; an omitted field keeps its current value.',
  WebhookList: 'The application\'s webhooks.',
  Delivery: 'One event delivered (or being delivered) to one webhook, with its attempts.',
  DeliveryList: 'Deliveries of a webhook, newest first.',
  CreateWebhookRequest: 'A webhook to create: an HTTPS URL (plain http only to loopback in local mode) and the events it receives (names under `webhooks` in this document).',
  Error: '',
  OpenApiDocument: 'This API as an OpenAPI 3.1 document.',
  TokenRequest: 'OAuth 2.0 client credentials, form-urlencoded; `client_id` and `client_secret` may instead be sent as HTTP Basic credentials.',
  CreateEnvelopeRequest: 'An envelope to create: at least one signer, and optionally fields placed on the document.',
  CreateSignerRequest: 'A signer to add: `authMethod` says how they prove who they are before signing (`email_otp` by default, `sms_otp`, or `none`).',
  CreateFieldRequest: 'A field in a create request, placed with `page`, `x` and `y`, or with an `anchor` (text found in the document).',
  AddFieldRequest: 'A field to add to a draft envelope, placed with `page`, `x` and `y`, or with an `anchor`.',
  SendRequest: 'Sends the envelope: the lowest routing-order group is invited by email (and SMS for `sms_otp` signers).',
  VoidRequest: 'Voids a sent envelope: its links stop working and nobody can sign.',
  OtpVerifyRequest: 'The 6-digit code the signer received.',
  SignRequest: 'The signer\'s values for their fields.',
  DeclineRequest: 'Declines to sign, with an optional reason.',
};

/** An example request body for every operation with a JSON (or form) body, by operationId. */
export const REQUEST_EXAMPLES: Record<string, unknown> = {
  createTemplate: { tenantId: 'acme', name: 'Mutual NDA', subject: 'NDA', roles: [{ role: 'client' }, { role: 'counsel', routingOrder: 2 }] },
  addTemplateField: { role: 'client', type: 'signature', page: 1, x: 72, y: 72, w: 180, h: 40, label: 'Client signature' },
  bulkSend: { rows: [{ recipients: { client: { name: 'Ana Silva', email: 'ana@example.com' } }, prefill: { Company: 'Acme Ltd' } }] },
  createEmbeddedSigningUrl: { returnUrl: 'https://app.example.com/contracts/42/signed' },
  putConsoleSettings: { embedOrigins: ['https://app.example.com'] },
  createEnvelopeAuthoringUrl: { mode: 'full', returnUrl: 'https://app.example.com/contracts/42', locale: 'de' },
  createTemplateAuthoringUrl: { mode: 'fields' },
  updateEnvelope: { subject: 'Lease 2027', message: 'Please sign by Friday' },
  replaceField: { signerId: SIGNER, type: 'signature', page: 2, x: 72, y: 96, w: 200, h: 44, label: 'Tenant', required: true },
  replaceSigner: { name: 'Ana Silva', email: 'ana.silva@example.com', routingOrder: 1, authMethod: 'email_otp', locale: 'pt-BR' },
  replaceTemplateField: { role: 'client', type: 'text', page: 1, x: 72, y: 300, w: 200, h: 20, label: 'Company', required: false },
  updateTemplate: { name: 'Mutual NDA', roles: [{ role: 'client' }, { role: 'counsel', routingOrder: 2 }] },
  issueToken: { grant_type: 'client_credentials', client_id: 'local-client', client_secret: 'local-secret' },
  createEnvelope: {
    tenantId: 'acme', subject: 'Sample NDA',
    signers: [{ name: 'Ana Silva', email: 'ana@example.com' }, { name: 'Ben Okafor', email: 'ben@example.com', routingOrder: 2 }],
    fields: [
      { signerIndex: 0, type: 'signature', page: 1, x: 72, y: 72, w: 180, h: 40 },
      { signerEmail: 'ben@example.com', type: 'signature', anchor: { text: '/sig2/' }, w: 180, h: 40 },
    ],
  },
  createDocumentUploadUrl: { filename: 'contract.pdf', sizeBytes: 18_500_000 },
  createAttachmentUploadUrl: { fieldId: '0190f5f2-6c1e-7b3a-9d2c-4e5f60718293', filename: 'Proof of address.pdf', sizeBytes: 412_000 },
  addField: { signerId: SIGNER, type: 'signature', page: 1, x: 72, y: 640, w: 180, h: 40, origin: 'top-left' },
  sendEnvelope: { message: 'Please sign by Friday' },
  addSigner: { name: 'Ben Okafor', email: 'ben@example.com', phone: '+14155550100', routingOrder: 2, authMethod: 'sms_otp' },
  voidEnvelope: { reason: 'Sent to the wrong address' },
  decline: { reason: 'The amount is wrong' },
  reassignSigner: { name: 'Carla Nunes', email: 'carla@example.com', reason: 'Ana is on leave; Carla signs for the team' },
  reassignFromSigning: { name: 'Carla Nunes', email: 'carla@example.com', reason: 'Carla signs contracts for our team' },
  verifyOtp: { code: '123456' },
  sign: { fields: [{ fieldId: FIELD, textValue: 'Ana Silva' }], fontLabel: 'Dancing Script' },
  createWebhook: { url: 'https://example.com/hooks/esign', events: ['envelope.completed', 'signer.signed'], secret: 'a-long-random-signing-secret', retrySchedule: 'B' },
  rotateWebhookSecret: { expireCurrentInHours: 24 },
  replayWebhookEvents: { since: '2026-01-02T00:00:00.000Z', until: '2026-01-03T00:00:00.000Z' },
  saveContact: { name: 'Ana Silva', email: 'ana@example.com', phone: '+14155550100' },
  putTenant: { retentionDays: 90, defaultExpiresInDays: 14, fieldOrigin: 'top-left' },
  putBranding: {
    organizationName: 'Acme Corp', primaryColor: '#0b5394', emailFromName: 'Acme Corp', replyTo: 'contracts@acme.example', supportEmail: 'help@acme.example',
    logo: 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCA0MCA0MCI+PGNpcmNsZSBjeD0iMjAiIGN5PSIyMCIgcj0iMTgiIGZpbGw9IiMwYjUzOTQiLz48L3N2Zz4=',
  },
  putTenantBranding: { organizationName: 'Acme Europe', primaryColor: '#ffd400' },
  inviteUser: { email: 'sam@example.com', name: 'Sam Reyes', role: 'sender' },
  updateUser: { role: 'admin' },
  createApiClient: { name: 'Billing system' },
};

const TEMPLATE = '0194a3b0-7c1e-7d2a-9f10-3a4b5c6d7e92';

/**
 * Named request examples for the tasks integrators ask about most, shown beside the operation's default example
 * (as `examples` on the media type: the reference offers them in a list).
 */
export const REQUEST_EXAMPLE_SETS: Record<string, Record<string, { summary: string; description?: string; value: unknown }>> = {
  createEnvelope: {
    fromTemplate: {
      summary: 'From a template, sent at once',
      description: 'A JSON body with `templateId` makes the envelope from a template: each of its roles gets a recipient, fields labelled in `prefill` start filled in, and `send: true` sends it in the same call (the answer carries the signing URLs).',
      value: {
        tenantId: 'acme', templateId: TEMPLATE,
        recipients: { client: { name: 'Ana Silva', email: 'ana@example.com' }, counsel: { name: 'Ben Okafor', email: 'ben@example.com', authMethod: 'email_otp' } },
        prefill: { Company: 'Acme Ltd', 'Contract value': 'EUR 12,000' },
        subject: 'Mutual NDA for Acme Ltd', message: 'Please review and sign', send: true,
      },
    },
    anchors: {
      summary: 'Fields placed by anchor text',
      description: 'Instead of `page`, `x` and `y`, an `anchor` places a field where a text occurs in the document (case-sensitive): at every occurrence, or only the first; `offsetX`/`offsetY` move it in PDF points; `ignoreIfMissing` skips an anchor the document lacks instead of refusing the envelope.',
      value: {
        tenantId: 'acme', subject: 'Order form',
        signers: [{ name: 'Ana Silva', email: 'ana@example.com' }, { name: 'Ben Okafor', email: 'ben@example.com', routingOrder: 2 }],
        fields: [
          { signerIndex: 0, type: 'signature', anchor: { text: '/sig1/', offsetY: -8 }, w: 180, h: 40 },
          { signerIndex: 0, type: 'date', anchor: { text: '/date1/', occurrence: 'first' }, w: 120, h: 20 },
          { signerEmail: 'ben@example.com', type: 'initial', anchor: { text: '/init2/', ignoreIfMissing: true }, w: 60, h: 30 },
        ],
      },
    },
  },
  addField: {
    anchor: {
      summary: 'By anchor: one field per occurrence',
      description: 'Answers `{ data: [Field, ...] }`, one field wherever `/sig1/` occurs.',
      value: { signerId: SIGNER, type: 'signature', anchor: { text: '/sig1/', offsetX: 0, offsetY: -4, occurrence: 'all' }, w: 180, h: 40 },
    },
  },
  createEmbeddedSigningUrl: {
    framed: {
      summary: 'For a frame in your app (no return URL)',
      description: 'Put the answered `url` in an iframe on an origin listed in the console\'s embed origins; the page posts `signed` or `declined` to the parent window instead of navigating.',
      value: {},
    },
  },
};

/** Example bodies for the schemas a newcomer reads first. */
export const COMPONENT_EXAMPLES: Partial<Record<ComponentName, unknown>> = {
  TokenResponse: { access_token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.…', token_type: 'Bearer', expires_in: 3600 },
  Error: {
    error: 'validation_error', reason: null, message: 'The request is not valid', details: { 'signers[0].email': ['must be an email address'] },
    type: 'validation_error', title: 'Validation error', status: 400, errors: { 'signers[0].email': ['must be an email address'] }, requestId: 'b3f0c1d2-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  },
};

export const EXAMPLE_IDS = { envelope: ENVELOPE, signer: SIGNER, field: FIELD };
