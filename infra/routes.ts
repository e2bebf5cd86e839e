/**
 * THE route manifest: every HTTP route exists here once. The local server, the OpenAPI generator and the
 * CDK API stack all read it. `handler` is the function module, relative to the repository root.
 */
export type AuthKind = 'bearer' | 'link' | 'none';

export interface RouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  handler: string;
  auth: AuthKind;
  operationId: string;
  summary: string;
  tag: 'Auth' | 'Envelopes' | 'Signing' | 'Webhooks' | 'Console' | 'Meta';
}

export const routes: readonly RouteDef[] = [
  { method: 'POST', path: '/oauth/token', handler: 'functions/api/oauth-token.ts', auth: 'none', operationId: 'issueToken', summary: 'Exchange client credentials for a bearer token', tag: 'Auth' },
  { method: 'POST', path: '/v1/envelopes', handler: 'functions/api/create-envelope.ts', auth: 'bearer', operationId: 'createEnvelope', summary: 'Create an envelope (multipart with the PDF, or JSON)', tag: 'Envelopes' },
  { method: 'GET', path: '/v1/envelopes', handler: 'functions/api/list-envelopes.ts', auth: 'bearer', operationId: 'listEnvelopes', summary: "List a tenant's envelopes, newest first", tag: 'Envelopes' },
  { method: 'GET', path: '/v1/envelopes/{id}', handler: 'functions/api/get-envelope.ts', auth: 'bearer', operationId: 'getEnvelope', summary: 'Read an envelope with signers, fields, documents and audit log', tag: 'Envelopes' },
  { method: 'POST', path: '/v1/envelopes/{id}/send', handler: 'functions/api/send-envelope.ts', auth: 'bearer', operationId: 'sendEnvelope', summary: 'Send a draft envelope to its first routing group', tag: 'Envelopes' },
  { method: 'POST', path: '/v1/envelopes/{id}/void', handler: 'functions/api/void-envelope.ts', auth: 'bearer', operationId: 'voidEnvelope', summary: 'Void an envelope that is not yet terminal', tag: 'Envelopes' },
  { method: 'GET', path: '/v1/envelopes/{id}/document', handler: 'functions/api/get-document.ts', auth: 'bearer', operationId: 'getDocument', summary: 'Download the original or sealed PDF', tag: 'Envelopes' },
  { method: 'POST', path: '/v1/envelopes/{id}/document', handler: 'functions/api/upload-document.ts', auth: 'bearer', operationId: 'uploadDocument', summary: 'Add a document to a draft, as raw PDF bytes', tag: 'Envelopes' },
  { method: 'DELETE', path: '/v1/envelopes/{id}/documents/{documentId}', handler: 'functions/api/delete-document.ts', auth: 'bearer', operationId: 'deleteDocument', summary: 'Remove a document from a draft', tag: 'Envelopes' },
  { method: 'POST', path: '/v1/envelopes/{id}/signers', handler: 'functions/api/add-signer.ts', auth: 'bearer', operationId: 'addSigner', summary: 'Add a signer to a draft envelope', tag: 'Envelopes' },
  { method: 'POST', path: '/v1/envelopes/{id}/fields', handler: 'functions/api/add-field.ts', auth: 'bearer', operationId: 'addField', summary: 'Place a field on a draft envelope', tag: 'Envelopes' },
  { method: 'GET', path: '/v1/envelopes/{id}/audit/verify', handler: 'functions/api/verify-audit.ts', auth: 'bearer', operationId: 'verifyAudit', summary: "Recompute the envelope's audit hash chain", tag: 'Envelopes' },
  { method: 'POST', path: '/v1/envelopes/{id}/signers/{signerId}/resend', handler: 'functions/api/resend-signer.ts', auth: 'bearer', operationId: 'resendSigningLink', summary: "Re-issue a live signer's signing link", tag: 'Envelopes' },
  { method: 'GET', path: '/v1/signing/{token}', handler: 'functions/api/signing-context.ts', auth: 'link', operationId: 'getSigningContext', summary: "The signer's signing context", tag: 'Signing' },
  { method: 'POST', path: '/v1/signing/{token}/otp/request', handler: 'functions/api/otp-request.ts', auth: 'link', operationId: 'requestOtp', summary: 'Send a one-time code to the signer', tag: 'Signing' },
  { method: 'POST', path: '/v1/signing/{token}/otp/verify', handler: 'functions/api/otp-verify.ts', auth: 'link', operationId: 'verifyOtp', summary: 'Verify the one-time code', tag: 'Signing' },
  { method: 'POST', path: '/v1/signing/{token}/consent', handler: 'functions/api/consent.ts', auth: 'link', operationId: 'giveConsent', summary: 'Consent to sign electronically', tag: 'Signing' },
  { method: 'POST', path: '/v1/signing/{token}/sign', handler: 'functions/api/sign.ts', auth: 'link', operationId: 'sign', summary: "Submit the signer's field values", tag: 'Signing' },
  { method: 'POST', path: '/v1/signing/{token}/decline', handler: 'functions/api/decline.ts', auth: 'link', operationId: 'decline', summary: 'Decline to sign', tag: 'Signing' },
  { method: 'GET', path: '/v1/signing/{token}/document', handler: 'functions/api/signing-document.ts', auth: 'link', operationId: 'getSigningDocument', summary: 'The original PDF, for rendering', tag: 'Signing' },
  { method: 'GET', path: '/v1/download/{token}', handler: 'functions/api/download-status.ts', auth: 'link', operationId: 'getDownload', summary: 'Download portal: is the sealed copy available', tag: 'Signing' },
  { method: 'GET', path: '/v1/download/{token}/document', handler: 'functions/api/download-document.ts', auth: 'link', operationId: 'downloadSealedDocument', summary: 'Download portal: the sealed PDF (the download is recorded)', tag: 'Signing' },
  { method: 'GET', path: '/v1/webhooks', handler: 'functions/api/list-webhooks.ts', auth: 'bearer', operationId: 'listWebhooks', summary: "The application's webhooks", tag: 'Webhooks' },
  { method: 'POST', path: '/v1/webhooks', handler: 'functions/api/create-webhook.ts', auth: 'bearer', operationId: 'createWebhook', summary: 'Subscribe an HTTPS endpoint to events', tag: 'Webhooks' },
  { method: 'DELETE', path: '/v1/webhooks/{id}', handler: 'functions/api/delete-webhook.ts', auth: 'bearer', operationId: 'deleteWebhook', summary: 'Remove a webhook', tag: 'Webhooks' },
  { method: 'GET', path: '/v1/webhooks/{id}/deliveries', handler: 'functions/api/list-deliveries.ts', auth: 'bearer', operationId: 'listDeliveries', summary: "A webhook's deliveries, newest first", tag: 'Webhooks' },
  { method: 'POST', path: '/v1/webhooks/{id}/deliveries/{deliveryId}/resend', handler: 'functions/api/resend-delivery.ts', auth: 'bearer', operationId: 'resendDelivery', summary: 'Send a delivery again now', tag: 'Webhooks' },
  { method: 'GET', path: '/v1/console/tenants/{tenantId}', handler: 'functions/api/get-tenant.ts', auth: 'bearer', operationId: 'getTenant', summary: "A tenant's settings (expiry, retention, field origin)", tag: 'Console' },
  { method: 'PUT', path: '/v1/console/tenants/{tenantId}', handler: 'functions/api/put-tenant.ts', auth: 'bearer', operationId: 'putTenant', summary: "Set a tenant's settings", tag: 'Console' },
  { method: 'GET', path: '/v1/console/contacts', handler: 'functions/api/list-contacts.ts', auth: 'bearer', operationId: 'listContacts', summary: "The application's saved contacts, optionally searched", tag: 'Console' },
  { method: 'POST', path: '/v1/console/contacts', handler: 'functions/api/save-contact.ts', auth: 'bearer', operationId: 'saveContact', summary: 'Create a contact, or update the one with the same email', tag: 'Console' },
  { method: 'DELETE', path: '/v1/console/contacts/{id}', handler: 'functions/api/delete-contact.ts', auth: 'bearer', operationId: 'deleteContact', summary: 'Remove a contact', tag: 'Console' },
  { method: 'GET', path: '/v1/console/usage', handler: 'functions/api/get-usage.ts', auth: 'bearer', operationId: 'getUsage', summary: "The application's usage in the current billing period", tag: 'Console' },
  { method: 'GET', path: '/v1/openapi.json', handler: 'functions/api/openapi.ts', auth: 'none', operationId: 'getOpenApi', summary: 'This API as an OpenAPI 3.1 document', tag: 'Meta' },
];

/** Every request no route takes: 404 or 405 in the error shape, through traffic control (the HTTP API's `$default` route). */
export const fallbackRoute = { handler: 'functions/api/no-route.ts', operationId: 'noRoute' } as const;

/** Background functions: what triggers each. CDK and the local runtime both read this list. */
export interface WorkerDef {
  name: string;
  handler: string;
  trigger: { kind: 'queue'; queue: 'jobs' } | { kind: 'schedule'; everySeconds: number } | { kind: 'objectRemoved'; prefixes: readonly string[] };
}

export const workers: readonly WorkerDef[] = [
  { name: 'jobs', handler: 'functions/workers/jobs.ts', trigger: { kind: 'queue', queue: 'jobs' } },
  { name: 'expiry-sweep', handler: 'functions/workers/expiry-sweep.ts', trigger: { kind: 'schedule', everySeconds: 60 } },
  { name: 'outbox-sweep', handler: 'functions/workers/outbox-sweep.ts', trigger: { kind: 'schedule', everySeconds: 60 } },
  { name: 'seal-sweep', handler: 'functions/workers/seal-sweep.ts', trigger: { kind: 'schedule', everySeconds: 60 } },
  { name: 'blob-sweep', handler: 'functions/workers/blob-sweep.ts', trigger: { kind: 'schedule', everySeconds: 3600 } },
  { name: 'deletion-reminders', handler: 'functions/workers/deletion-reminders.ts', trigger: { kind: 'schedule', everySeconds: 86_400 } },
  { name: 'object-removed', handler: 'functions/workers/object-removed.ts', trigger: { kind: 'objectRemoved', prefixes: ['original/', 'sealed/'] } },
];

/** State machines: the ASL file (shared by CDK and the local runner) and the function behind each Task state. */
export interface WorkflowDef {
  name: string;
  definition: string;
  /** Task state name -> the substitution variable in the ASL and the handler module. */
  tasks: Record<string, { variable: string; handler: string }>;
}

export const workflows: readonly WorkflowDef[] = [
  {
    name: 'seal-envelope',
    definition: 'infra/workflows/seal-envelope.asl.json',
    tasks: {
      Seal: { variable: 'SealFunctionArn', handler: 'functions/workers/seal.ts' },
      Finalize: { variable: 'FinalizeFunctionArn', handler: 'functions/workers/finalize.ts' },
      RecordFailure: { variable: 'SealFailedFunctionArn', handler: 'functions/workers/seal-failed.ts' },
    },
  },
  {
    name: 'webhook-retry',
    definition: 'infra/workflows/webhook-retry.asl.json',
    tasks: { Attempt: { variable: 'WebhookAttemptFunctionArn', handler: 'functions/workers/webhook-attempt.ts' } },
  },
];
