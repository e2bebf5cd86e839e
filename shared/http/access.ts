/**
 * What a function's code uses: each function module declares it (shared/http/endpoint.ts), and infra/stacks grants
 * exactly that. Plain data, no CDK type: the local runtime reads it too, to give each function the environment CDK
 * gives it.
 *
 * Recurring reasons, so declarations stay short (the constants below):
 * - bearer routes verify the JWT (JWT_SECRET) and read the application (table);
 * - loading an envelope applies a passed deadline (lazy expiry, decision 11): a commit, whose outbox puts the
 *   `envelope.expired` event and the retention job on the jobs queue, so those routes write and send jobs;
 * - signing links and download links are HS256 tokens under LINK_SECRET;
 * - invitations and OTP codes go out by email (SES) or SMS (SNS) right after the commit that queued them.
 *
 * Every route also runs the traffic control of shared/http/pipeline.ts (rate counters and Idempotency-Key records):
 * routes that do not write the table get writes to those items only. Every route the signing host serves reads
 * ORIGIN_VERIFY_SECRET, so that behind CloudFront it records the viewer's address, not the edge's. Both are derived
 * (infra/stacks/access.ts), not declared.
 */
import type { SecretName } from '#shared/adapters/aws/secret-names.ts';

export type DocumentPrefix = 'original/' | 'sealed/' | 'signatures/' | 'uploads/' | 'templates/' | 'attachments/';

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
  /** Creates and deletes console users' accounts at the identity provider (the Cognito user pool's Admin* calls). */
  identities?: boolean;
  /** Sends to the jobs queue. */
  jobs?: boolean;
  /** Starts executions of these workflows. */
  starts?: readonly ('seal' | 'webhookRetry')[];
  /** Signs with the seal key (KMS); it reads the seal certificate chain too. */
  sign?: boolean;
  /** Reads the seal certificate chain (the SSM parameter `seal-cert import` writes, else the one issued at deploy), without the key. */
  sealChain?: boolean;
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

/**
 * The ports each part of an access row binds: the one mapping both the deps a function's code may use (`DepsFor`) and
 * the adapters its bundle and environment bind (infra/stacks/environment.ts) are computed from.
 */
export const ACCESS_PORTS = {
  table: ['envelopes', 'tenants', 'applications', 'webhooks', 'contacts', 'usage', 'templates', 'bulkSends', 'team'],
  documents: ['blobs'],
  mail: ['mailer'],
  sms: ['sms'],
  identities: ['identities'],
  jobs: ['jobs'],
  starts: ['workflows'],
  sign: ['documentSigner', 'sealEvidence', 'sealChain'],
  timestamps: ['sealEvidence'],
  sealChain: ['sealChain'],
  apiDescription: ['apiDescription'],
} as const;

/** Every function has these: configuration, time, ids, logs and metrics, the traffic control, the webhook sender (plain HTTP). */
export const ALWAYS_PORTS = ['config', 'clock', 'ids', 'logger', 'metrics', 'rateLimiter', 'idempotency', 'webhookSender'] as const;

/** The data key (DATA_KEY) is what the secret box encrypts stored secrets with. */
export const SECRET_BOX_KEY = 'DATA_KEY' satisfies SecretName;

type Granted<V> = V extends undefined | false | readonly [] ? false : true;
type BoundBy<A extends Access> = {
  [K in keyof typeof ACCESS_PORTS]: K extends keyof A ? (Granted<A[K]> extends true ? (typeof ACCESS_PORTS)[K][number] : never) : never;
}[keyof typeof ACCESS_PORTS];
type SecretBoxOf<A extends Access> = A['secrets'] extends readonly (infer S)[] ? (typeof SECRET_BOX_KEY extends S ? 'secrets' : never) : never;

/** The names of the ports an access row binds. */
export type PortsFor<A extends Access> = (typeof ALWAYS_PORTS)[number] | BoundBy<A> | SecretBoxOf<A>;

/** Any port name the mapping knows. */
export type PortName = (typeof ALWAYS_PORTS)[number] | (typeof ACCESS_PORTS)[keyof typeof ACCESS_PORTS][number] | 'secrets';

/** The ports an access row binds, at run time: what `PortsFor` says at compile time. */
export function portsFor(access: Access): Set<PortName> {
  const ports = new Set<PortName>(ALWAYS_PORTS);
  for (const [key, names] of Object.entries(ACCESS_PORTS) as [keyof typeof ACCESS_PORTS, readonly PortName[]][]) {
    const value = access[key];
    if (value && !(Array.isArray(value) && value.length === 0)) for (const name of names) ports.add(name);
  }
  if (access.secrets?.includes(SECRET_BOX_KEY)) ports.add('secrets');
  return ports;
}
