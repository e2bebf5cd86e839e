import type { AuditEntry } from '#shared/kernel/audit-chain.ts';
import type { EnvelopeChange } from '#shared/envelopes/envelope.ts';
import { ConcurrentModification, QuotaExceeded, SubscriptionsChanged } from '#shared/kernel/errors.ts';
import type { Envelope, EnvelopeStatus } from '#shared/kernel/model.ts';
import type { OutboxItem } from '#shared/notices/outbox.ts';
import { nextReminderAt } from '#shared/notices/reminders.ts';
import { StageExpired, type BlobStage } from '#shared/envelopes/blob-staging.ts';
import type { Submission } from '#shared/signing/submission.ts';
import { loggedEventsOf, type EventLogPage, type EventLogQuery } from '#shared/webhooks/event-log.ts';
import type { EnvelopeListQuery, EnvelopePage, EnvelopeRepository } from '#shared/ports/repositories.ts';
import { MemoryEventLog } from './memory-event-log.ts';
import { MemoryUsageRepository } from './memory-usage-repository.ts';
import { byKey, copy, indexEntry, oversized, sweep, type IndexEntry } from './memory-table.ts';
import { matchesSearch, SEARCH_SCAN_LIMIT, searchNeedle } from '#shared/envelopes/envelope-search.ts';

/** DynamoDB's TransactWriteItems limit: a change beyond it fails there, so it fails here too. */
const MAX_TRANSACTION_ITEMS = 100;

/** Where the Dynamo adapter indexes an envelope: live by deadline, waiting for its seal by check time, ended with PDFs by deletion. */
function sweepEntry(envelope: Envelope): IndexEntry | undefined {
  const live = envelope.status === 'sent' || envelope.status === 'in_progress';
  if (live && envelope.sealing) return envelope.sealing.nextCheckAt ? indexEntry('SEAL', envelope.id, envelope.sealing.nextCheckAt) : undefined;
  if (live) return indexEntry('LIVE', envelope.id, envelope.expiresAt);
  const retained = envelope.deletionAt && envelope.documents.some((d) => d.purgeStatus === 'active');
  return retained ? indexEntry('RET', envelope.id, envelope.deletionAt ?? '') : undefined;
}

/** Live envelopes with a reminder to send, by when (the Dynamo adapter's GSI5 `REMIND`). */
function reminderEntry(envelope: Envelope): IndexEntry | undefined {
  const at = nextReminderAt(envelope);
  return at ? indexEntry('REMIND', envelope.id, at) : undefined;
}

/** An outbox item is due a minute after its commit, or when its backoff ends; a dead-lettered one never. */
function outboxEntry(item: OutboxItem): IndexEntry | undefined {
  if (item.deadAt) return undefined;
  return indexEntry('OUTBOX', item.id, item.nextAttemptAt ?? new Date(Date.parse(item.createdAt) + 60_000).toISOString());
}

const listKey = (envelope: Envelope) => `${envelope.createdAt}#${envelope.id}`;
const tenantKey = (appId: string, tenantId: string) => `${appId}#${tenantId}`;

/** Children of an envelope by their sort key, as one Query returns them. */
class Children<T> {
  private readonly byEnvelope = new Map<string, Map<string, T>>();

  has(envelopeId: string, key: string): boolean {
    return this.byEnvelope.get(envelopeId)?.has(key) ?? false;
  }

  put(envelopeId: string, key: string, value: T): void {
    const children = this.byEnvelope.get(envelopeId) ?? new Map<string, T>();
    this.byEnvelope.set(envelopeId, children.set(key, copy(value)));
  }

  delete(envelopeId: string, key: string): void {
    this.byEnvelope.get(envelopeId)?.delete(key);
  }

  list(envelopeId: string): T[] {
    return [...(this.byEnvelope.get(envelopeId) ?? new Map<string, T>())].sort(([a], [b]) => byKey(a, b)).map(([, value]) => copy(value));
  }

  *all(): Iterable<T> {
    for (const children of this.byEnvelope.values()) yield* children.values();
  }
}

/**
 * The envelope repository in memory, with the DynamoDB adapter's semantics: a commit checks every condition of its
 * transaction (version, write-once audit entries and submission, released stages, quota) before it writes anything.
 * Pass the MemoryUsageRepository that should see the sends it counts.
 */
export class MemoryEnvelopeRepository implements EnvelopeRepository {
  private readonly envelopes = new Map<string, Envelope>();
  private readonly audit = new Children<AuditEntry>();
  private readonly outbox = new Children<OutboxItem>();
  private readonly submitted = new Children<Submission>();
  private readonly stages = new Map<string, BlobStage>();
  private readonly counters = new Map<string, Partial<Record<EnvelopeStatus | 'total', number>>>();
  /** Every sealed file's hash a commit stored, kept after a renewal replaces the file (like the Dynamo adapter's items). */
  private readonly sealedHashes = new Map<string, { envelopeId: string; documentId: string }>();

  /** `webhooks`: whose subscriptions a commit that skipped webhook events checks (none: every check passes). */
  constructor(
    private readonly usage = new MemoryUsageRepository(), private readonly eventLog = new MemoryEventLog(),
    private readonly webhooks?: { subscriptionVersion(appId: string): number },
  ) {}

  events(query: EventLogQuery): Promise<EventLogPage> {
    return Promise.resolve(this.eventLog.read(query));
  }

  async get(appId: string, id: string): Promise<Envelope | undefined> {
    const envelope = await this.find(id);
    return envelope?.appId === appId ? envelope : undefined;
  }

  find(id: string): Promise<Envelope | undefined> {
    const envelope = this.envelopes.get(id);
    return Promise.resolve(envelope && copy(envelope));
  }

  findSealed(sha256: string): Promise<{ envelopeId: string; documentId: string } | undefined> {
    const found = this.sealedHashes.get(sha256);
    return Promise.resolve(found && { ...found });
  }

  async getWithAudit(appId: string, id: string): Promise<{ envelope: Envelope; auditLog: AuditEntry[] } | undefined> {
    const envelope = await this.get(appId, id);
    return envelope && { envelope, auditLog: this.audit.list(id) };
  }

  async findWhole(id: string, withAudit = true): Promise<{ envelope: Envelope; auditLog: AuditEntry[]; submissions: Submission[] } | undefined> {
    const envelope = await this.find(id);
    return envelope && { envelope, auditLog: withAudit ? this.audit.list(id) : [], submissions: this.submitted.list(id) };
  }

  submissions(envelopeId: string): Promise<Submission[]> {
    return Promise.resolve(this.submitted.list(envelopeId));
  }

  auditLog(envelopeId: string): Promise<AuditEntry[]> {
    return Promise.resolve(this.audit.list(envelopeId));
  }

  pendingOutbox(envelopeId: string): Promise<OutboxItem[]> {
    return Promise.resolve(this.outbox.list(envelopeId));
  }

  staleOutbox(now: Date, limit: number): Promise<OutboxItem[]> {
    return Promise.resolve(sweep(this.outbox.all(), outboxEntry, 'OUTBOX', now, limit).map(copy));
  }

  dueForExpiry(now: Date, limit: number): Promise<string[]> {
    return Promise.resolve(sweep(this.envelopes.values(), sweepEntry, 'LIVE', now, limit).map((e) => e.id));
  }

  dueForReminder(now: Date, limit: number): Promise<string[]> {
    return Promise.resolve(sweep(this.envelopes.values(), reminderEntry, 'REMIND', now, limit).map((e) => e.id));
  }

  dueForSealCheck(now: Date, limit: number): Promise<string[]> {
    return Promise.resolve(sweep(this.envelopes.values(), sweepEntry, 'SEAL', now, limit).map((e) => e.id));
  }

  retainedUntil(until: Date, limit: number): Promise<string[]> {
    return Promise.resolve(sweep(this.envelopes.values(), sweepEntry, 'RET', until, limit).map((e) => e.id));
  }

  retainedAfter(after: string, limit: number): Promise<{ id: string; position: string }[]> {
    const entries = [...this.envelopes.values()].flatMap((envelope) => {
      const entry = sweepEntry(envelope);
      return entry?.partition.startsWith('RET#') && entry.sortKey > after ? [{ id: envelope.id, position: entry.sortKey }] : [];
    });
    return Promise.resolve(entries.sort((a, b) => (a.position < b.position ? -1 : 1)).slice(0, limit));
  }

  /** Checks every condition first, then writes everything: nothing in between yields, so no other call interleaves. */
  commit(change: EnvelopeChange): Promise<void> {
    const refusal = this.refusal(change);
    if (refusal) return Promise.reject(refusal);
    const { after } = change;
    this.envelopes.set(after.id, copy(after));
    for (const d of after.documents) if (d.kind === 'sealed' && !this.sealedHashes.has(d.sha256)) this.sealedHashes.set(d.sha256, { envelopeId: after.id, documentId: d.id });
    for (const entry of change.audit) this.audit.put(entry.envelopeId, auditKey(entry.seq), entry);
    for (const item of change.outbox) this.outbox.put(item.envelopeId, item.id, item);
    if (change.submission) this.submitted.put(change.submission.envelopeId, change.submission.signerId, change.submission);
    for (const id of change.releases ?? []) this.stages.delete(id);
    this.count(change);
    if (change.usage) this.usage.increment(change.usage);
    this.eventLog.append(change);
    return Promise.resolve();
  }

  saveOutbox(item: OutboxItem): Promise<void> {
    this.outbox.put(item.envelopeId, item.id, item);
    return Promise.resolve();
  }

  removeOutbox(envelopeId: string, itemIds: readonly string[]): Promise<void> {
    for (const id of itemIds) this.outbox.delete(envelopeId, id);
    return Promise.resolve();
  }

  list(query: EnvelopeListQuery): Promise<EnvelopePage> {
    const needle = searchNeedle(query.search);
    const matching = [...this.envelopes.values()]
      .filter((e) => e.appId === query.appId && e.tenantId === query.tenantId && (query.status === null || e.status === query.status))
      .sort((a, b) => byKey(listKey(b), listKey(a)))
      .slice(0, needle ? SEARCH_SCAN_LIMIT : undefined)
      .filter((e) => !needle || matchesSearch(e, needle));
    const start = (query.page - 1) * query.pageSize;
    const total = needle ? matching.length : this.counters.get(tenantKey(query.appId, query.tenantId))?.[query.status ?? 'total'] ?? 0;
    return Promise.resolve({ data: matching.slice(start, start + query.pageSize).map(copy), total });
  }

  stageBlobs(stage: BlobStage): Promise<void> {
    if (this.stages.has(stage.id)) return Promise.reject(new Error(`stage ${stage.id} exists already`));
    this.stages.set(stage.id, copy(stage));
    return Promise.resolve();
  }

  abandonedStages(before: Date, limit: number): Promise<BlobStage[]> {
    return Promise.resolve(sweep(this.stages.values(), (s) => indexEntry('STAGED', s.id, s.createdAt), 'STAGED', before, limit).map(copy));
  }

  removeStage(id: string): Promise<void> {
    this.stages.delete(id);
    return Promise.resolve();
  }

  /** What the Dynamo adapter throws for this change's cancelled transaction, by the same precedence; undefined when it commits. */
  private refusal(change: EnvelopeChange): Error | undefined {
    const { before, after } = change;
    const stored = this.envelopes.get(after.id);
    const items = 1 + change.audit.length + change.outbox.length + loggedEventsOf(change).length + (change.submission ? 1 : 0) + (change.releases?.length ?? 0)
      + (before?.status === after.status ? 0 : 1) + (change.usage ? 1 : 0) + (change.subscriptions ? 1 : 0);
    if (items > MAX_TRANSACTION_ITEMS) return new Error(`a transaction holds at most ${String(MAX_TRANSACTION_ITEMS)} items; this change needs ${String(items)}`);
    const tooBig = oversized(after);
    if (tooBig) return tooBig;
    if (before ? stored?.version !== before.version : stored) return new ConcurrentModification(after.id);
    const guard = change.subscriptions;
    if (guard && (this.webhooks?.subscriptionVersion(guard.appId) ?? guard.version) !== guard.version) return new SubscriptionsChanged(after.id, guard.appId);
    if (change.usage && !this.usage.allows(change.usage)) {
      return new QuotaExceeded('The envelope quota of this billing period is used up, and the plan does not allow overage');
    }
    const releases = change.releases ?? [];
    if (releases.some((id) => !this.stages.has(id))) return new StageExpired(releases);
    const rewritten = change.audit.some((entry) => this.audit.has(entry.envelopeId, auditKey(entry.seq)))
      || (change.submission && this.submitted.has(change.submission.envelopeId, change.submission.signerId));
    return rewritten ? new ConcurrentModification(after.id) : undefined;
  }

  /** The tenant's counts behind the list's `total`, kept in step with creations and status changes. */
  private count({ before, after }: EnvelopeChange): void {
    if (before?.status === after.status) return;
    const key = tenantKey(after.appId, after.tenantId);
    const counts = this.counters.get(key) ?? {};
    counts[after.status] = (counts[after.status] ?? 0) + 1;
    if (before) counts[before.status] = (counts[before.status] ?? 0) - 1;
    else counts.total = (counts.total ?? 0) + 1;
    this.counters.set(key, counts);
  }
}

const auditKey = (seq: number) => String(seq).padStart(10, '0');
