/**
 * What a function's code uses: each function module declares it (shared/http/endpoint.ts), and infra/stacks grants
 * exactly that. Plain data, no CDK type: the local runtime reads it too, to give each function the environment CDK
 * gives it.
 *
 * Recurring reasons, so declarations stay short (the constants below):
 * - bearer routes verify the JWT (JWT_SECRET) and read the application (table);
 * - loading an envelope applies a passed deadline (lazy expiry, DECISIONS 14): a commit, whose outbox puts the
 *   `envelope.expired` event and the retention job on the jobs queue, so those routes write and send jobs;
 * - signing links and download links are HS256 tokens under LINK_SECRET;
 * - invitations and OTP codes go out by email (SES) or SMS (SNS) right after the commit that queued them.
 *
 * Every route also runs the traffic control of shared/http/pipeline.ts (rate counters and Idempotency-Key records):
 * routes that do not write the table get writes to those items only. Every route the signing host serves reads
 * ORIGIN_VERIFY_SECRET, so that behind CloudFront it records the viewer's address, not the edge's. Both are derived
 * (infra/stacks/access.ts), not declared.
 */
import type { SecretName } from '#adapters/aws/secret-names.ts';

export type DocumentPrefix = 'original/' | 'sealed/' | 'signatures/' | 'uploads/' | 'templates/';

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
  /** Asks the seal's timestamp authority and revocation sources (TSA_URL, its credentials, the PAdES level), without the key. */
  timestamps?: boolean;
  /** Reads the API's OpenAPI description, generated at build time and shipped beside the bundle (openapi.json). */
  apiDescription?: boolean;
  memorySize?: number;
  /** The Lambda timeout; DEFAULT_FUNCTION_TIMEOUT_SECONDS (aws-limits.ts) when absent. */
  timeoutSeconds?: number;
}

export const bearerAccess = { table: 'read', secrets: ['JWT_SECRET'] } as const satisfies Access;
export const envelopeWrite = { table: 'write', secrets: ['JWT_SECRET'], jobs: true } as const satisfies Access;
export const linkAccess = { table: 'write', secrets: ['LINK_SECRET'], jobs: true } as const satisfies Access;
export const invites = { secrets: ['JWT_SECRET', 'LINK_SECRET'], mail: true, sms: true } as const satisfies Access;
export const pdfHandling = { memorySize: 1024, timeoutSeconds: 29 } as const satisfies Access;
