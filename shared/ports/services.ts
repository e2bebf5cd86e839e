import type { WebhookRetryStart } from '#shared/background/workflow-schemas.ts';

export interface Clock {
  now(): Date;
}

export interface Ids {
  /** A fresh time-ordered UUID (v7). */
  next(): string;
}

/** An object's bytes: one buffer, or chunks stored as their concatenation (a sealed file: the original, then its update). */
export type BlobBody = Uint8Array | readonly Uint8Array[];

export interface BlobStore {
  /** Chunks are written one after the other, never joined in memory first. */
  put(key: string, body: BlobBody, contentType: string): Promise<void>;
  /** Undefined when the object does not exist (never stored, or purged). */
  get(key: string): Promise<Uint8Array | undefined>;
  delete(key: string): Promise<void>;
  /** Tags the object with its retention class and restarts its age, so the lifecycle rule counts from now. */
  retain(key: string, tag: { key: string; value: string }): Promise<void>;
  /** The object with its user metadata (`x-amz-meta-*` on S3, names without the prefix); undefined when it does not exist. */
  read(key: string): Promise<StoredBlob | undefined>;
  /**
   * A presigned POST (decision 18): a client stores one object under exactly `key`, of 1..`maxBytes` bytes, with
   * exactly `metadata`, until `expiresInSeconds` have passed; the store refuses anything else.
   */
  presignPost(key: string, options: { maxBytes: number; expiresInSeconds: number; metadata: Record<string, string> }): Promise<PresignedPost>;
  /** A presigned GET of `key`, valid `expiresInSeconds`, whose response carries `contentDisposition` and `contentType`. */
  presignGet(key: string, options: { expiresInSeconds: number; contentDisposition: string; contentType: string }): Promise<string>;
}

export interface StoredBlob {
  bytes: Uint8Array;
  metadata: Record<string, string>;
}

/** Where and how to POST a file: `fields` first, then the file as the part named `file` (multipart/form-data). */
export interface PresignedPost {
  url: string;
  fields: Record<string, string>;
}

export interface EmailAttachment {
  filename: string;
  contentType: string;
  content: Uint8Array;
}

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: EmailAttachment[];
  /** The From display name ("Acme Corp via ..."); the address is always the service's verified sender. */
  fromName?: string;
  replyTo?: string[];
}

export interface Mailer {
  send(message: EmailMessage): Promise<void>;
}

/**
 * The console's identity provider, administered (a Cognito user pool on AWS; locally the local OpenID provider's
 * accounts, answered in process): accounts are made for invited users and removed with them.
 */
export interface IdentityAdmin {
  /** Makes the account with a temporary password; answers its `sub`. Conflict when the email has an account. */
  createUser(input: { email: string; name: string | null; temporaryPassword: string }): Promise<{ userId: string }>;
  /** Removes the account of this email; none is no error. */
  deleteUser(email: string): Promise<void>;
}

export interface SmsMessage {
  to: string;
  text: string;
}

export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}

/** Symmetric sealing of small secrets at rest (KMS on AWS, a local data key otherwise). */
export interface SecretBox {
  seal(plain: string): Promise<string>;
  open(sealed: string): Promise<string>;
}

/** The background jobs queue (SQS on AWS); delivery is at least once, so every job is idempotent. */
export interface JobQueue {
  send(job: import('#shared/notices/outbox.ts').JobMessage): Promise<void>;
}

/** Long-running workflows (Step Functions on AWS). */
export interface Workflows {
  /** Starts sealing round `round` of the envelope (one execution per round); a second start of a round is a no-op. */
  startSealing(envelopeId: string, round: number): Promise<void>;
  /** Starts the retry schedule of a failed webhook delivery; one execution per (delivery, attempt). */
  startWebhookRetry(input: WebhookRetryStart): Promise<void>;
}

/** The webhook-retry workflow's start: its shape is shared/background/workflow-schemas.ts's. */
export type { WebhookRetryStart };

/** The seal certificate chain alone (no key): what the service publishes as its trust anchors. */
export type SealChain = Pick<DocumentSigner, 'certificateChain'>;

/** One key holder for the seal: a local key file, or a KMS asymmetric key. */
export interface DocumentSigner {
  /** `rsa-sha256` (RSASSA-PKCS1-v1_5) or `ecdsa-sha256` (ECDSA P-256, DER signature). */
  readonly algorithm: 'rsa-sha256' | 'ecdsa-sha256';
  /** DER-encoded certificates: the signing certificate first, then its chain (may be just the one). */
  certificateChain(): Promise<Uint8Array[]>;
  /** The signature over a SHA-256 digest computed by the caller. */
  signDigest(digest: Uint8Array): Promise<Uint8Array>;
  /** The DER SubjectPublicKeyInfo of the key that signs, to check the signing certificate against (absent: unchecked). */
  signingPublicKey?(): Promise<Uint8Array>;
}

/** Structured log lines: a message and fields (ids, counts, errors); never secrets or tokens. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  /** `alarm: true` among the fields marks a line the deployment alarms on. */
  error(message: string, fields?: Record<string, unknown>): void;
}

/**
 * What the service counts (CloudWatch metrics as EMF on AWS, namespace `Esign`): every committed audit event by
 * name (`AuditEvents`, dimension `event`: envelopes sent and completed, signers reminded...), the seal's duration,
 * webhook deliveries that failed, bulk-send rows. Writing a metric never throws.
 */
export interface Metrics {
  count(name: MetricName, value?: number, dimension?: { name: string; value: string }): void;
  milliseconds(name: MetricName, value: number): void;
}

export type MetricName = 'AuditEvents' | 'SealDuration' | 'WebhookDeliveryFailures' | 'OutboxDeadLetters' | 'BulkSendRows';

export type TargetCheck = { ok: true } | { ok: false; reason: string };

/** What one webhook POST came to: a 2xx within the time limit, or why not. */
export type WebhookSendResult =
  | { ok: true; statusCode: number; durationMs: number; responseSnippet: string }
  | { ok: false; statusCode: number | null; durationMs: number; error: string; responseSnippet: string | null };

/** Webhook deliveries over the wire (HTTPS, safe targets only, the time limit), with no business logic. */
export interface WebhookSender {
  /** Whether `url` may be a webhook target at all (scheme, host form); the addresses are checked again at each send. */
  checkTarget(url: string): Promise<TargetCheck>;
  send(request: { url: string; body: string; headers: Record<string, string> }): Promise<WebhookSendResult>;
}

/** An RFC 3161 timestamp authority (TSA_URL on AWS, the local responder under `npm start`). */
export interface TimestampAuthority {
  /** A TimeStampToken (DER ContentInfo holding a SignedData over TSTInfo) for a SHA-256 digest. Throws TimestampUnavailable. */
  timestamp(digest: Uint8Array): Promise<Uint8Array>;
}

/** Revocation data for one certificate, as the CA publishes it (DER). */
export interface RevocationData {
  crls: Uint8Array[];
  ocspResponses: Uint8Array[];
}

/** Where revocation data comes from: the certificate's CRL distribution points or its OCSP responder. */
export interface RevocationSource {
  /**
   * The current CRL or OCSP response for `certificate` (DER), issued by `issuer`, and issued at or after
   * `options.issuedAfter` when given (a CRL's thisUpdate, an OCSP response's producedAt). Throws RevocationUnavailable.
   */
  revocation(certificate: Uint8Array, issuer: Uint8Array, options?: { issuedAfter?: Date }): Promise<RevocationData>;
}

/** The API's OpenAPI description, as generated from the route declarations (infra/openapi.ts). */
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- a type, so any object document fits (no index signature needed)
export type ApiDocument = {
  openapi: string;
  info: { title: string; version: string; [key: string]: unknown };
  paths: Record<string, Partial<Record<string, object>>>;
  servers: { url: string }[];
};

/** Where a function finds the API description: a file beside its bundle on Lambda, built in memory locally. */
export interface ApiDescription {
  document(): Promise<ApiDocument>;
}
