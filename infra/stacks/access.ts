/**
 * What each function's code uses, read from its handler and the use cases it calls: the one place grants are
 * decided. Every handler of the manifest (routes, workers, workflow tasks) needs a row; synth fails without one.
 *
 * Every route also runs the traffic control of shared/http/traffic.ts (rate counters and Idempotency-Key records):
 * routes that do not write the table get writes to those items only (bindTrafficRecords).
 *
 * Recurring reasons, so the rows stay short:
 * - bearer routes verify the JWT (JWT_SECRET) and read the application (table);
 * - loading an envelope applies a passed deadline (lazy expiry, DECISIONS 14): a commit, whose outbox puts the
 *   `envelope.expired` event and the retention job on the jobs queue, so those routes write and send jobs;
 * - signing links and download links are HS256 tokens under LINK_SECRET;
 * - invitations and OTP codes go out by email (SES) or SMS (SNS) right after the commit that queued them.
 *
 * Derived, not written in the rows: every route the signing host serves (shared/http/signing-host-policy.ts) reads
 * ORIGIN_VERIFY_SECRET, so that behind CloudFront it records the viewer's address, not the edge's (accessOf).
 *
 * Plain data, no CDK type: the local runtime reads these rows too, to give each function the environment CDK gives it.
 */
import type { SecretName } from '#adapters/aws/secret-names.ts';
import { servedBySigningHost } from '#http/signing-host-policy.ts';
import { routes } from '../routes.ts';

export type DocumentPrefix = 'original/' | 'sealed/' | 'signatures/';

export interface DocumentAccess {
  read?: readonly DocumentPrefix[];
  write?: readonly DocumentPrefix[];
  delete?: readonly DocumentPrefix[];
  /** Retention tagging: the object is copied onto itself with its class tag (BlobStore.retain). */
  tag?: readonly DocumentPrefix[];
}

export interface Access {
  table?: 'read' | 'write';
  documents?: DocumentAccess;
  secrets?: readonly SecretName[];
  /** Sends email through SES. */
  mail?: boolean;
  /** Sends SMS through SNS. */
  sms?: boolean;
  /** Sends to the jobs queue. */
  jobs?: boolean;
  /** Starts executions of these workflows. */
  starts?: readonly ('seal' | 'webhookRetry')[];
  /** Signs with the seal key (KMS). */
  sign?: boolean;
  memorySize?: number;
  timeoutSeconds?: number;
}

const bearer = { table: 'read', secrets: ['JWT_SECRET'] } as const satisfies Access;
const envelopeWrite = { table: 'write', secrets: ['JWT_SECRET'], jobs: true } as const satisfies Access;
const link = { table: 'write', secrets: ['LINK_SECRET'], jobs: true } as const satisfies Access;
const invites = { secrets: ['JWT_SECRET', 'LINK_SECRET'], mail: true, sms: true } as const satisfies Access;
const pdfHandling = { memorySize: 1024, timeoutSeconds: 29 } as const satisfies Access;

export const ACCESS: Readonly<Record<string, Access>> = {
  // Routes
  'functions/api/oauth-token.ts': { ...bearer },
  'functions/api/create-envelope.ts': { ...envelopeWrite, documents: { write: ['original/'], delete: ['original/'] }, ...pdfHandling },
  'functions/api/list-envelopes.ts': { ...bearer },
  'functions/api/get-envelope.ts': { ...envelopeWrite },
  'functions/api/send-envelope.ts': { ...envelopeWrite, ...invites },
  'functions/api/void-envelope.ts': { ...envelopeWrite },
  'functions/api/get-document.ts': { ...envelopeWrite, documents: { read: ['original/', 'sealed/'] }, ...pdfHandling },
  'functions/api/upload-document.ts': { ...envelopeWrite, documents: { write: ['original/'], delete: ['original/'] }, ...pdfHandling },
  'functions/api/delete-document.ts': { ...envelopeWrite },
  'functions/api/add-signer.ts': { ...envelopeWrite },
  // An anchor is found in the document's stored text index (original/<envelope>/<document>.text.json).
  'functions/api/add-field.ts': { ...envelopeWrite, documents: { read: ['original/'] } },
  'functions/api/verify-audit.ts': { ...envelopeWrite },
  'functions/api/resend-signer.ts': { ...envelopeWrite, ...invites },
  // Later signers see what earlier ones entered: drawn signatures are read from signatures/.
  'functions/api/signing-context.ts': { ...link, documents: { read: ['signatures/'] } },
  'functions/api/otp-request.ts': { ...link, mail: true, sms: true },
  'functions/api/otp-verify.ts': { ...link },
  'functions/api/consent.ts': { ...link },
  // The last signature queues sealing (a workflow start); a finished routing group queues the next one.
  // Drawn signatures are staged before the commit; a refused or lost request deletes its own (DECISIONS 31).
  'functions/api/sign.ts': { ...link, documents: { write: ['signatures/'], delete: ['signatures/'] }, starts: ['seal'] },
  'functions/api/decline.ts': { ...link },
  'functions/api/signing-document.ts': { ...link, documents: { read: ['original/'] }, ...pdfHandling },
  // The portal reads without committing; the download itself is recorded in the audit chain.
  'functions/api/download-status.ts': { table: 'read', secrets: ['LINK_SECRET'] },
  'functions/api/download-document.ts': { table: 'write', secrets: ['LINK_SECRET'], documents: { read: ['sealed/'] }, ...pdfHandling },
  'functions/api/list-webhooks.ts': { ...bearer },
  // A webhook's own secret is stored sealed under DATA_KEY.
  'functions/api/create-webhook.ts': { ...bearer, table: 'write', secrets: ['JWT_SECRET', 'DATA_KEY'] },
  'functions/api/delete-webhook.ts': { ...bearer, table: 'write' },
  'functions/api/list-deliveries.ts': { ...bearer },
  // One attempt now: opens the signing secret (DATA_KEY) and POSTs to the endpoint (outbound internet, no VPC).
  'functions/api/resend-delivery.ts': { ...bearer, table: 'write', secrets: ['JWT_SECRET', 'DATA_KEY'] },
  'functions/api/get-tenant.ts': { ...bearer },
  'functions/api/put-tenant.ts': { ...bearer, table: 'write' },
  'functions/api/list-contacts.ts': { ...bearer },
  'functions/api/save-contact.ts': { ...bearer, table: 'write' },
  'functions/api/delete-contact.ts': { ...bearer, table: 'write' },
  'functions/api/get-usage.ts': { ...bearer },
  // The document is built from the manifest and the schemas: no data, no secret (only its rate counter).
  'functions/api/openapi.ts': {},
  // The $default route: 404 or 405 from the manifest, counted like any request against its caller (a bearer token's
  // application, so JWT_SECRET to tell it; else the address); its rate counter is all it writes.
  'functions/api/no-route.ts': { ...bearer },

  // Workers
  // routing.advance (links, invitations), webhook.event (first attempt, then a retry workflow), retention.tag,
  // blobs.delete (a replaced draft document).
  'functions/workers/jobs.ts': {
    table: 'write', secrets: ['LINK_SECRET', 'DATA_KEY'], mail: true, sms: true, jobs: true, starts: ['webhookRetry'],
    documents: { tag: ['original/', 'sealed/', 'signatures/'], delete: ['original/'] }, timeoutSeconds: 120,
  },
  'functions/workers/expiry-sweep.ts': { table: 'write', jobs: true, timeoutSeconds: 120 },
  // Whatever a crash left in an outbox, or whose backoff ran out: invitations, completion emails (the sealed copy
  // attached), reminders, jobs, sealing starts, webhook events.
  'functions/workers/outbox-sweep.ts': {
    table: 'write', secrets: ['LINK_SECRET'], mail: true, sms: true, jobs: true, starts: ['seal'], documents: { read: ['sealed/'] },
    memorySize: 1024, timeoutSeconds: 120,
  },
  // A fully signed envelope still not completed gets its next seal round (a new execution).
  'functions/workers/seal-sweep.ts': { table: 'write', jobs: true, starts: ['seal'], timeoutSeconds: 120 },
  // Blobs staged for a commit that never came are deleted a day later.
  'functions/workers/blob-sweep.ts': { table: 'write', documents: { delete: ['original/', 'sealed/', 'signatures/'] }, timeoutSeconds: 300 },
  'functions/workers/deletion-reminders.ts': { table: 'write', secrets: ['LINK_SECRET'], mail: true, timeoutSeconds: 300 },
  'functions/workers/object-removed.ts': { table: 'write', timeoutSeconds: 60 },

  // Workflow tasks
  // Sized for a 25 MB, 500-page PDF (DESIGN 8): reads the original and the drawn signatures, stages sealed/ (a stage
  // record in the table names it until finalize's commit does).
  'functions/workers/seal.ts': {
    table: 'write', documents: { read: ['original/', 'signatures/'], write: ['sealed/'] }, sign: true,
    memorySize: 2048, timeoutSeconds: 300,
  },
  // Completes the envelope; its outbox emails every party the sealed copy (attached up to 7 MB) and a portal link.
  // A round that lost to a completed envelope deletes its own file.
  'functions/workers/finalize.ts': {
    table: 'write', secrets: ['LINK_SECRET'], jobs: true, mail: true, documents: { read: ['sealed/'], delete: ['sealed/'] },
    memorySize: 1024, timeoutSeconds: 120,
  },
  // The seal workflow's catch: records why a round failed.
  'functions/workers/seal-failed.ts': { table: 'write', jobs: true, timeoutSeconds: 30 },
  'functions/workers/webhook-attempt.ts': { table: 'write', secrets: ['DATA_KEY'], timeoutSeconds: 30 },
};

/** The routes reached through the signing host, whose viewer address comes from CloudFront. */
const behindSigningHost = new Set(routes.filter((route) => servedBySigningHost(route.path)).map((route) => route.handler));

/** A handler's row, with what is derived from its routes. */
export function accessOf(handler: string): Access {
  const access = ACCESS[handler];
  if (!access) throw new Error(`${handler} has no row in infra/stacks/access.ts: decide what it may use before it is deployed`);
  if (!behindSigningHost.has(handler)) return access;
  return { ...access, secrets: [...new Set([...(access.secrets ?? []), 'ORIGIN_VERIFY_SECRET' as const])] };
}
