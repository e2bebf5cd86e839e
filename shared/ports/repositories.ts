import type { AuditEntry } from '#shared/kernel/audit-chain.ts';
import type { EnvelopeChange } from '#shared/envelopes/envelope.ts';
import type { Envelope, EnvelopeStatus, TenantSettings } from '#shared/kernel/model.ts';
import type { EventLogPage, EventLogQuery } from '#shared/webhooks/event-log.ts';
import type { OutboxItem } from '#shared/notices/outbox.ts';
import type { Submission } from '#shared/signing/submission.ts';
import type { BlobStage } from '#shared/envelopes/blob-staging.ts';
import type { Delivery, DeliveryStatus, Webhook } from '#shared/webhooks/webhooks.ts';
import type { Contact } from '#shared/console/contacts.ts';
import type { Template } from '#shared/templates/templates.ts';
import type { BrandingRecord, StoredLogo } from '#shared/console/branding.ts';
import type { BulkCheck, BulkChunk, BulkRowResult, BulkSend } from '#shared/templates/bulk-send.ts';

export interface EnvelopeListQuery {
  appId: string;
  tenantId: string;
  status: EnvelopeStatus | null;
  /** Part of the subject or of a signer's email, any case (shared/envelopes/envelope-search.ts); null or absent: all. */
  search?: string | null;
  page: number;
  pageSize: number;
}

export interface EnvelopePage {
  data: Envelope[];
  total: number;
}

export interface EnvelopeRepository {
  /** The envelope if it exists and belongs to `appId`; another application's envelope is undefined. */
  get(appId: string, id: string): Promise<Envelope | undefined>;
  /** get() with the envelope's audit log, in one read. */
  getWithAudit(appId: string, id: string): Promise<{ envelope: Envelope; auditLog: AuditEntry[] } | undefined>;
  /** Any application's envelope: for signer links and workers, which are not scoped by a bearer token. */
  find(id: string): Promise<Envelope | undefined>;
  /** The envelope and sealed document whose sealed file has this SHA-256 (lower-case hex), recorded when it completed. */
  findSealed(sha256: string): Promise<{ envelopeId: string; documentId: string } | undefined>;
  submissions(envelopeId: string): Promise<Submission[]>;
  /** find() with the submissions and (unless `withAudit` is false: then empty) the audit log, in one read (what a seal needs). */
  findWhole(id: string, withAudit?: boolean): Promise<{ envelope: Envelope; auditLog: AuditEntry[]; submissions: Submission[] } | undefined>;
  auditLog(envelopeId: string): Promise<AuditEntry[]>;
  /** One transaction: envelope (optimistic lock), audit entries, outbox, submission, released stages, counters. Throws ConcurrentModification. */
  commit(change: EnvelopeChange): Promise<void>;
  list(query: EnvelopeListQuery): Promise<EnvelopePage>;
  /** A page of the application's event log, oldest first, written by `commit` with the changes that raised them. */
  events(query: EventLogQuery): Promise<EventLogPage>;
  /** Ids of live envelopes whose deadline has passed by `now`. */
  dueForExpiry(now: Date, limit: number): Promise<string[]>;
  /** Ids of live envelopes with a signer's reminder due by `now` (decision 37). */
  dueForReminder(now: Date, limit: number): Promise<string[]>;
  /** Ids of fully signed envelopes whose seal the sweep should look in on by `now`. */
  dueForSealCheck(now: Date, limit: number): Promise<string[]>;
  /** Ids of ended envelopes with stored PDFs whose deletion comes before `until`. */
  retainedUntil(until: Date, limit: number): Promise<string[]>;
  /**
   * Ended envelopes with stored PDFs past the position `after` (`<ISO time>#~` for those deleted after that time, or
   * the position of the last one a previous page answered), in deletion order: the archive renewal walks them with it.
   */
  retainedAfter(after: string, limit: number): Promise<{ id: string; position: string }[]>;
  pendingOutbox(envelopeId: string): Promise<OutboxItem[]>;
  /** Outbox items due by `now`: never dispatched a minute after their commit, or waiting out a failure's backoff. */
  staleOutbox(now: Date, limit: number): Promise<OutboxItem[]>;
  /** Stores an outbox item's delivery state after a failed dispatch (attempts, next try, or dead-lettered). */
  saveOutbox(item: OutboxItem): Promise<void>;
  removeOutbox(envelopeId: string, itemIds: readonly string[]): Promise<void>;
  /** Names blobs about to be written before the commit that will name them (shared/envelopes/blob-staging.ts). */
  stageBlobs(stage: BlobStage): Promise<void>;
  /** Stages written before `before` and never released by a commit. */
  abandonedStages(before: Date, limit: number): Promise<BlobStage[]>;
  removeStage(id: string): Promise<void>;
}

export interface TenantRepository {
  /** Stored settings, or the defaults for a tenant that has none yet. */
  get(appId: string, tenantId: string): Promise<TenantSettings>;
  /** Stores the settings; the tenant's envelope counters are left as they are. */
  put(settings: TenantSettings): Promise<void>;
  /** The application's branding (`tenantId` null) or a tenant's override; null when none was set. */
  branding(appId: string, tenantId: string | null): Promise<BrandingRecord | null>;
  /** What a new envelope takes from its tenant, in one read: the settings, the application's branding and the tenant's override. */
  forEnvelope(appId: string, tenantId: string): Promise<{ settings: TenantSettings; app: BrandingRecord | null; tenant: BrandingRecord | null }>;
  saveBranding(appId: string, tenantId: string | null, record: BrandingRecord): Promise<void>;
  /** A logo by its id (the SHA-256 of its bytes); stored once, never changed. */
  logo(logoId: string): Promise<StoredLogo | null>;
  saveLogo(logo: StoredLogo): Promise<void>;
}

export interface Application {
  appId: string;
  name: string;
  clientId: string;
  /** scrypt$<salt>$<hash>, never the secret itself. */
  secretHash: string;
  /** The client secret sealed by the SecretBox, for webhook signing (decision 24). */
  secretSealed: string;
  plan: string;
  envelopesLimit: number | null;
  overageAllowed: boolean;
  suspended: boolean;
  createdAt: string;
  /** Origins allowed to frame embedded signing (decision 36); absent: none. */
  embedOrigins?: string[];
  /** PDFs with JavaScript or launch actions are accepted (kept as they are into the sealed file); absent: refused. */
  allowActiveContent?: boolean;
}

/** What an application sets for itself through the console (decision 36). */
export interface ApplicationSettings {
  embedOrigins: string[];
}

export interface ApplicationRepository {
  get(appId: string): Promise<Application | undefined>;
  getByClientId(clientId: string): Promise<Application | undefined>;
  /** Fails with Conflict when the client id is taken. */
  create(app: Application): Promise<void>;
  /** Replaces the stored secret of an existing application (the local dev app's fixed secret). */
  updateSecret(appId: string, secretHash: string, secretSealed: string): Promise<void>;
  /** Stores the application's console settings. */
  saveSettings(appId: string, settings: ApplicationSettings): Promise<void>;
}

/** What a console user may do: an `admin` everything, a `sender` no users, API clients, webhooks or settings. */
export type ConsoleRole = 'admin' | 'sender';

/** A person who signs in to the console, in one application; `userId` is their `sub` at the OpenID provider. */
export interface ConsoleUser {
  appId: string;
  userId: string;
  email: string;
  name: string | null;
  role: ConsoleRole;
  createdAt: string;
}

/** A further client-credentials pair of an application (its first is the application's own `clientId`). */
export interface ApiClient {
  appId: string;
  clientId: string;
  name: string;
  /** scrypt$<salt>$<hash>, never the secret itself. */
  secretHash: string;
  createdAt: string;
}

/** An application's console users and API clients. */
export interface TeamRepository {
  users(appId: string): Promise<ConsoleUser[]>;
  /** The user with this `sub`, in whichever application. */
  userBySubject(userId: string): Promise<ConsoleUser | undefined>;
  /** Fails with Conflict when the user exists. */
  addUser(user: ConsoleUser): Promise<void>;
  /** Stores a changed role or name of an existing user. */
  saveUser(user: ConsoleUser): Promise<void>;
  /** False when the application has no such user. */
  removeUser(appId: string, userId: string): Promise<boolean>;
  clients(appId: string): Promise<ApiClient[]>;
  client(clientId: string): Promise<ApiClient | undefined>;
  /** Fails with Conflict when the client id is taken (by an application's own client too). */
  addClient(client: ApiClient): Promise<void>;
  /** False when the application has no such client. */
  removeClient(appId: string, clientId: string): Promise<boolean>;
}

/**
 * Which webhook events the application's active webhooks subscribe to, and the version of that answer: every webhook
 * put or delete advances it, so a commit that skipped an event on this answer can insist it still holds.
 */
export interface WebhookSubscriptions {
  version: number;
  events: readonly string[];
}

export interface WebhookRepository {
  list(appId: string): Promise<Webhook[]>;
  /** The events the application's active webhooks subscribe to, read consistently. */
  subscriptions(appId: string): Promise<WebhookSubscriptions>;
  get(appId: string, id: string): Promise<Webhook | undefined>;
  put(webhook: Webhook): Promise<void>;
  /** Stores `webhook` only while its stored secret is still `expectedSealed` (and it exists); false otherwise. */
  replaceSecret(webhook: Webhook, expectedSealed: string | null): Promise<boolean>;
  /** False when there was no such webhook. */
  delete(appId: string, id: string): Promise<boolean>;
  /** False when a delivery with this id exists already (a redelivered event). */
  createDelivery(delivery: Delivery): Promise<boolean>;
  saveDelivery(delivery: Delivery): Promise<void>;
  getDelivery(appId: string, webhookId: string, id: string): Promise<Delivery | undefined>;
  deliveries(appId: string, webhookId: string, status: DeliveryStatus | null, limit: number): Promise<Delivery[]>;
}

export interface ContactRepository {
  /** The application's contacts, ordered by email; `search` matches name or email, case-insensitively. */
  list(appId: string, search: string | null): Promise<Contact[]>;
  /** Creates, or updates the contact with the same email (case-insensitive), keeping its id and createdAt. */
  upsert(contact: Contact): Promise<Contact>;
  /** False when the application has no contact with this id. */
  delete(appId: string, id: string): Promise<boolean>;
}

export interface UsageRepository {
  /** Envelopes sent by the application in the period (`yyyy-mm`); the counter is advanced by the send's own commit. */
  envelopesSent(appId: string, period: string): Promise<number>;
}

export interface TemplateListQuery {
  appId: string;
  tenantId: string;
  page: number;
  pageSize: number;
}

/** Templates (decision 34), scoped to their application like envelopes. */
export interface TemplateRepository {
  /** The template if it exists and belongs to `appId`. */
  get(appId: string, id: string): Promise<Template | undefined>;
  /** Stores a new template (Conflict-free: ids are fresh) and counts it for the tenant's `total`. */
  create(template: Template): Promise<void>;
  /** Replaces a template whose stored version is `template.version - 1`; else throws ConcurrentModification. */
  save(template: Template): Promise<void>;
  /** False when there was no such template of `appId`. */
  delete(appId: string, id: string): Promise<boolean>;
  /** Newest first, with the tenant's count of templates. */
  list(query: TemplateListQuery): Promise<{ data: Template[]; total: number }>;
}

/** Bulk sends (decision 35): the batch, its rows in chunks, and one result per row. */
export interface BulkSendRepository {
  /** The batch and its chunks of rows, in one transaction. */
  create(batch: BulkSend, chunks: readonly BulkChunk[]): Promise<void>;
  get(appId: string, id: string): Promise<BulkSend | undefined>;
  /** Chunk `index` (0-based) with its rows, or undefined when the batch has no such chunk. */
  chunk(batchId: string, index: number): Promise<BulkChunk | undefined>;
  /** Every row's result so far, by row number. */
  results(batchId: string): Promise<BulkRowResult[]>;
  /** Records a row's result; with `ifAbsent`, only when the row has none yet (false then when it had one). */
  recordResult(batchId: string, result: BulkRowResult, ifAbsent: boolean): Promise<boolean>;
  /** Unfinished batches whose check is due by `now`, for the bulk sweep. */
  dueForCheck(now: Date, limit: number): Promise<BulkSend[]>;
  /** The batch's next check; null once finished (out of the sweep). */
  saveCheck(batchId: string, check: BulkCheck | null): Promise<void>;
}
