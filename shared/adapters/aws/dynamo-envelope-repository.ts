import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, type BatchGetCommandOutput, DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient, type QueryCommandInput, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { AuditEntry } from '#shared/kernel/audit-chain.ts';
import type { EnvelopeChange } from '#shared/envelopes/envelope.ts';
import { ConcurrentModification, QuotaExceeded, SubscriptionsChanged } from '#shared/kernel/errors.ts';
import type { Envelope } from '#shared/kernel/model.ts';
import type { OutboxItem } from '#shared/notices/outbox.ts';
import { StageExpired, type BlobStage } from '#shared/envelopes/blob-staging.ts';
import type { Submission } from '#shared/signing/submission.ts';
import type { EventLogPage, EventLogQuery } from '#shared/webhooks/event-log.ts';
import type { EnvelopeListQuery, EnvelopePage, EnvelopeRepository } from '#shared/ports/repositories.ts';
import { matchesSearch, SEARCH_SCAN_LIMIT, searchNeedle } from '#shared/envelopes/envelope-search.ts';
import { cancelledBy, deleteAll, lostRace } from './dynamo.ts';
import { openUsageShards, randomShard, tenantCount, tenantCountsItem, usageIncrementItem, usageShard } from './dynamo-counters.ts';
import { EVENT_SETTLE_MS, eventLogPuts, readEventLog } from './dynamo-event-log.ts';
import { findSealedHash, sealedHashItem } from './dynamo-sealed-hashes.ts';
import { subscriptionsCheck } from './dynamo-webhook-repository.ts';
import { SHARDS, auditItem, envKey, envPk, envelopeItem, envelopeOf, idOfPk, listPk, outboxItem, recordOf, stageItem, stageKey, submissionItem, tenantKey, type Item } from './dynamo-envelope-items.ts';

/**
 * What the table holds per envelope (decision 41), all under `PK = ENV#<id>`:
 * - `SK = ENV`: the envelope with its signers, fields, documents and download links inside (one read per envelope;
 *   the caps of 50 signers and 1,000 fields keep it far below 400 KB); GSI1/GSI2 list it, GSI4 holds it while it
 *   is live (by deadline) or waiting for its seal (by when to check), GSI5 once ended with PDFs kept (by deletion).
 * - `SK = AUD#<seq>`: one audit entry, written once (`attribute_not_exists`), never updated.
 * - `SK = OUT#<id>`: an outbox item until dispatched; GSI3 finds it when due again (`OUTBOX#<shard>`).
 * - `SK = SUB#<signerId>`: one signer's submitted values.
 * - `PK = SEALED#<sha256>`: a sealed file's hash, put by the commit that stores the file (completion, archive renewal;
 *   dynamo-sealed-hashes.ts).
 * The commit also writes the webhook events it raises into the application's event log (dynamo-event-log.ts).
 * Beside them: `STAGE#<id>` items name blobs written before the commit that will name them (GSI3 `STAGED#<shard>`),
 * and `COUNTS#<appId>#<tenantId> / SHARD#<nn>` keep the tenant's counts for the list's `total` (dynamo-counters.ts; the
 * tenant item `APP#<appId> / TENANT#<tenantId>` holds the counts written before they were sharded).
 */
type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** The items of one change, each tagged with why it may cancel the transaction. */
type Role = 'version' | 'usage' | 'stage' | 'subscriptions' | 'other';

function transactionOf(table: string, change: EnvelopeChange, usageAt: number): { items: TransactItem[]; roles: Role[] } {
  const { before, after } = change;
  const items: TransactItem[] = [];
  const roles: Role[] = [];
  const add = (item: TransactItem, role: (typeof roles)[number] = 'other') => { items.push(item); roles.push(role); };
  add({
    Put: {
      TableName: table, Item: envelopeItem(after),
      ...(before
        ? { ConditionExpression: 'version = :expected', ExpressionAttributeValues: { ':expected': before.version } }
        : { ConditionExpression: 'attribute_not_exists(PK)' }),
    },
  }, 'version');
  for (const entry of change.audit) add({ Put: { TableName: table, Item: auditItem(entry), ConditionExpression: 'attribute_not_exists(PK)' } });
  for (const item of change.outbox) add({ Put: { TableName: table, Item: outboxItem(item) } });
  for (const put of eventLogPuts(table, change, new Date())) add(put);
  if (change.submission) add({ Put: { TableName: table, Item: submissionItem(change.submission), ConditionExpression: 'attribute_not_exists(PK)' } });
  // Every sealed file a commit stores stays findable by its hash: the completion's, and an archive renewal's new revision.
  const known = new Set(before?.documents.filter((d) => d.kind === 'sealed').map((d) => d.sha256) ?? []);
  for (const document of after.documents.filter((d) => d.kind === 'sealed' && !known.has(d.sha256))) {
    add({ Put: { TableName: table, Item: sealedHashItem(after.id, document.id, document.sha256) } });
  }
  for (const id of change.releases ?? []) add({ Delete: { TableName: table, Key: stageKey(id), ConditionExpression: 'attribute_exists(PK)' } }, 'stage');
  const counts = tenantCountsItem(table, change, randomShard());
  if (counts) add(counts);
  if (change.usage) add(usageIncrementItem(table, change.usage, usageAt), 'usage');
  if (change.subscriptions) add(subscriptionsCheck(table, change.subscriptions.appId, change.subscriptions.version), 'subscriptions');
  return { items, roles };
}

/** How often a commit cancelled only by concurrent transactions on its items is sent again, and who hears of it. */
export interface CommitRetry {
  attempts: number;
  onConflict?: (attempt: number) => void;
}

/** True when no item failed its condition: the transaction only met another one in flight, and may simply run again. */
function conflictOnly(error: unknown): boolean {
  if (!(error instanceof TransactionCanceledException)) return false;
  const codes = (error.CancellationReasons ?? []).map((r) => r.Code);
  return codes.includes('TransactionConflict') && !codes.includes('ConditionalCheckFailed');
}

export class DynamoEnvelopeRepository implements EnvelopeRepository {
  constructor(private readonly db: DynamoDBDocumentClient, private readonly table: string, private readonly retry: CommitRetry = { attempts: 10 }, private readonly eventSettleMs = EVENT_SETTLE_MS) {}

  events(query: EventLogQuery): Promise<EventLogPage> {
    return readEventLog(this.db, this.table, query, this.eventSettleMs);
  }

  async get(appId: string, id: string): Promise<Envelope | undefined> {
    const envelope = await this.find(id);
    return envelope?.appId === appId ? envelope : undefined;
  }

  async find(id: string): Promise<Envelope | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: envKey(id), ConsistentRead: true }));
    return Item ? envelopeOf(Item) : undefined;
  }

  /** The envelope and its audit log in one Query: `AUD#...` entries sort just before `ENV`. */
  findSealed(sha256: string): Promise<{ envelopeId: string; documentId: string } | undefined> {
    return findSealedHash(this.db, this.table, sha256);
  }

  async getWithAudit(appId: string, id: string): Promise<{ envelope: Envelope; auditLog: AuditEntry[] } | undefined> {
    const items = await this.queryAll({
      TableName: this.table, ConsistentRead: true,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': envPk(id), ':from': 'AUD#', ':to': 'ENV' },
    });
    const last = items.at(-1);
    if (last?.SK !== 'ENV' || last.appId !== appId) return undefined;
    return { envelope: envelopeOf(last), auditLog: items.slice(0, -1).map((item) => recordOf<AuditEntry>(item)) };
  }

  /** The envelope's partition in one Query, from `ENV` on without the audit log (its outbox items, few, are left out of the answer). */
  async findWhole(id: string, withAudit = true): Promise<{ envelope: Envelope; auditLog: AuditEntry[]; submissions: Submission[] } | undefined> {
    const items = await this.queryAll({
      TableName: this.table, ConsistentRead: true, KeyConditionExpression: withAudit ? 'PK = :pk' : 'PK = :pk AND SK >= :env',
      ExpressionAttributeValues: { ':pk': envPk(id), ...(withAudit ? {} : { ':env': 'ENV' }) },
    });
    const envelope = items.find((item) => item.SK === 'ENV');
    if (!envelope) return undefined;
    const of = (prefix: string) => items.filter((item) => String(item.SK).startsWith(prefix));
    return { envelope: envelopeOf(envelope), auditLog: of('AUD#').map((item) => recordOf<AuditEntry>(item)), submissions: of('SUB#').map((item) => recordOf<Submission>(item)) };
  }

  submissions(envelopeId: string): Promise<Submission[]> {
    return this.children<Submission>(envelopeId, 'SUB#');
  }

  auditLog(envelopeId: string): Promise<AuditEntry[]> {
    return this.children<AuditEntry>(envelopeId, 'AUD#');
  }

  pendingOutbox(envelopeId: string): Promise<OutboxItem[]> {
    return this.children<OutboxItem>(envelopeId, 'OUT#');
  }

  /** Outbox items due again by `now` (never dispatched, or failed and waiting out their backoff). */
  async staleOutbox(now: Date, limit: number): Promise<OutboxItem[]> {
    const keys = await this.sweepIndex('GSI3', 'OUTBOX', `${now.toISOString()}#~`, limit);
    const items = await Promise.all(keys.map((key) => this.db.send(new GetCommand({ TableName: this.table, Key: { PK: key.PK, SK: key.SK }, ConsistentRead: true }))));
    return items.flatMap(({ Item }) => (Item && !Item.deadAt ? [recordOf<OutboxItem>(Item)] : []));
  }

  /** Ids of ended envelopes with stored PDFs whose deletion is due before `until`. */
  async retainedUntil(until: Date, limit: number): Promise<string[]> {
    return (await this.sweepIndex('GSI5', 'RET', `${until.toISOString()}#~`, limit)).map((key) => idOfPk(key.PK));
  }

  async retainedAfter(after: string, limit: number): Promise<{ id: string; position: string }[]> {
    const pages = await Promise.all(SHARDS.map((shard) => this.db.send(new QueryCommand({
      TableName: this.table, IndexName: 'GSI5', Limit: limit, KeyConditionExpression: 'GSI5PK = :pk AND GSI5SK > :after',
      ExpressionAttributeValues: { ':pk': `RET#${String(shard)}`, ':after': after },
    }))));
    const found = pages.flatMap((page) => (page.Items ?? []).map((item) => ({ id: idOfPk(item.PK), position: String(item.GSI5SK) })));
    return found.sort((a, b) => (a.position < b.position ? -1 : 1)).slice(0, limit);
  }

  /** Ids of live envelopes whose deadline is at or before `now`. */
  async dueForExpiry(now: Date, limit: number): Promise<string[]> {
    return (await this.sweepIndex('GSI4', 'LIVE', `${now.toISOString()}#~`, limit)).map((key) => idOfPk(key.PK));
  }

  /** Ids of fully signed envelopes whose seal should be checked on by `now`. */
  async dueForReminder(now: Date, limit: number): Promise<string[]> {
    return (await this.sweepIndex('GSI5', 'REMIND', `${now.toISOString()}#~`, limit)).map((key) => idOfPk(key.PK));
  }

  async dueForSealCheck(now: Date, limit: number): Promise<string[]> {
    return (await this.sweepIndex('GSI4', 'SEAL', `${now.toISOString()}#~`, limit)).map((key) => idOfPk(key.PK));
  }

  /**
   * One transaction; sent again (counter shards picked afresh) while it only met concurrent transactions, and while
   * the usage shard it picked was full and another has room (each such turn saw one more shard fill up, so they end).
   * Nothing of a cancelled transaction was written.
   */
  async commit(change: EnvelopeChange): Promise<void> {
    let usageShards = change.usage ? [usageShard(change.usage)] : [0];
    for (let conflicts = 0; ;) {
      const { items, roles } = transactionOf(this.table, change, usageShards[randomShard(usageShards.length)] ?? 0);
      try {
        await this.db.send(new TransactWriteCommand({ TransactItems: items }));
        return;
      } catch (error) {
        const failed = cancelledBy(error, roles);
        if (conflictOnly(error) && ++conflicts < this.retry.attempts) {
          this.retry.onConflict?.(conflicts);
          await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(500, 10 * 2 ** conflicts))); // full jitter
          continue;
        }
        // A lost version race is retried first: the winner may have sent the envelope already.
        if (failed.has('version') || !failed.size) {
          if (lostRace(error)) throw new ConcurrentModification(change.after.id);
          throw error;
        }
        if (failed.has('usage') && change.usage?.limit != null) {
          usageShards = await openUsageShards(this.db, this.table, { ...change.usage, limit: change.usage.limit });
          if (usageShards.length > 0) continue;
          throw new QuotaExceeded('The envelope quota of this billing period is used up, and the plan does not allow overage');
        }
        if (failed.has('stage')) throw new StageExpired(change.releases ?? []);
        if (failed.has('subscriptions') && change.subscriptions) throw new SubscriptionsChanged(change.after.id, change.subscriptions.appId);
        if (lostRace(error)) throw new ConcurrentModification(change.after.id);
        throw error;
      }
    }
  }

  /** Keeps a failed outbox item for a later attempt, or dead-letters it (`deadAt`), outside any envelope change. */
  async saveOutbox(item: OutboxItem): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: outboxItem(item) }));
  }

  async list(query: EnvelopeListQuery): Promise<EnvelopePage> {
    const needle = searchNeedle(query.search);
    if (needle) return this.search(query, needle);
    const [keys, total] = await Promise.all([this.pageKeys(query), this.total(query)]);
    return { data: await this.batchGet(keys), total };
  }

  async removeOutbox(envelopeId: string, itemIds: readonly string[]): Promise<void> {
    await deleteAll(this.db, this.table, itemIds.map((id) => ({ PK: envPk(envelopeId), SK: `OUT#${id}` })));
  }

  async stageBlobs(stage: BlobStage): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: stageItem(stage), ConditionExpression: 'attribute_not_exists(PK)' }));
  }

  /** Stages written before `before` that no commit released: their blobs are named by no record. */
  async abandonedStages(before: Date, limit: number): Promise<BlobStage[]> {
    const keys = await this.sweepIndex('GSI3', 'STAGED', `${before.toISOString()}#~`, limit);
    const items = await Promise.all(keys.map((key) => this.db.send(new GetCommand({ TableName: this.table, Key: { PK: key.PK, SK: key.SK }, ConsistentRead: true }))));
    return items.flatMap(({ Item }) => (Item ? [recordOf<BlobStage>(Item)] : []));
  }

  async removeStage(id: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: stageKey(id) }));
  }

  /** Keys of one sparse index's entries up to `until`, across its shards (`<prefix>#<shard>`). */
  private async sweepIndex(index: 'GSI3' | 'GSI4' | 'GSI5', prefix: string, until: string, limit: number): Promise<{ PK: unknown; SK: unknown }[]> {
    const pages = await Promise.all(SHARDS.map((shard) => this.db.send(new QueryCommand({
      TableName: this.table, IndexName: index, Limit: limit,
      KeyConditionExpression: `${index}PK = :pk AND ${index}SK <= :until`,
      ExpressionAttributeValues: { ':pk': `${prefix}#${String(shard)}`, ':until': until },
    }))));
    return pages.flatMap((page) => (page.Items ?? []).map((item): { PK: unknown; SK: unknown } => ({ PK: item.PK, SK: item.SK }))).slice(0, limit);
  }

  /** One kind of child item of an envelope (`AUD#`, `OUT#`, `SUB#`), in sort-key order. */
  private async children<T>(envelopeId: string, prefix: string): Promise<T[]> {
    const items = await this.queryAll({
      TableName: this.table, ConsistentRead: true,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': envPk(envelopeId), ':prefix': prefix },
    });
    return items.map((item) => recordOf<T>(item));
  }

  /**
   * A search walks the tenant's list newest first (the list indexes hold keys only) and reads the envelopes in
   * batches of 100, up to SEARCH_SCAN_LIMIT of them: the total counts the matches among those.
   */
  private async search(query: EnvelopeListQuery, needle: string): Promise<EnvelopePage> {
    const input = this.listInput(query);
    const from = (query.page - 1) * query.pageSize;
    const data: Envelope[] = [];
    let total = 0;
    let scanned = 0;
    let startKey: Item | undefined;
    do {
      const page = await this.db.send(new QueryCommand({ ...input, Limit: 100, ExclusiveStartKey: startKey }));
      const keys = (page.Items ?? []).map((item): Item => ({ PK: item.PK, SK: item.SK }));
      scanned += keys.length;
      for (const envelope of await this.batchGet(keys)) {
        if (!matchesSearch(envelope, needle)) continue;
        if (total >= from && data.length < query.pageSize) data.push(envelope);
        total++;
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey && scanned < SEARCH_SCAN_LIMIT);
    return { data, total };
  }

  private listInput(query: EnvelopeListQuery): QueryCommandInput {
    const base = listPk(query.appId, query.tenantId);
    const index = query.status ? 'GSI2' : 'GSI1';
    return {
      TableName: this.table, IndexName: index, ScanIndexForward: false,
      KeyConditionExpression: `${index}PK = :pk`,
      ExpressionAttributeValues: { ':pk': query.status ? `${base}#ST#${query.status}` : base },
    };
  }

  /** Keys of the requested page, newest first: earlier pages are skipped reading index keys only. */
  private async pageKeys(query: EnvelopeListQuery): Promise<Item[]> {
    const input = this.listInput(query);
    let toSkip = (query.page - 1) * query.pageSize;
    let startKey: Item | undefined;
    while (toSkip > 0) {
      const skipped = await this.db.send(new QueryCommand({ ...input, Limit: Math.min(toSkip, 1000), ExclusiveStartKey: startKey }));
      toSkip -= skipped.Count ?? 0;
      startKey = skipped.LastEvaluatedKey;
      if (!startKey) return [];
    }
    const page = await this.db.send(new QueryCommand({ ...input, Limit: query.pageSize, ExclusiveStartKey: startKey }));
    return (page.Items ?? []).map((item): Item => ({ PK: item.PK, SK: item.SK }));
  }

  /** The sum of the tenant's count shards, plus what the tenant item counted before the counts were sharded. */
  private async total(query: EnvelopeListQuery): Promise<number> {
    const [sharded, { Item }] = await Promise.all([
      tenantCount(this.db, this.table, query.appId, query.tenantId, query.status),
      this.db.send(new GetCommand({ TableName: this.table, Key: tenantKey(query.appId, query.tenantId), ConsistentRead: true })),
    ]);
    const before: unknown = Item?.[`count_${query.status ?? 'total'}`];
    return sharded + (typeof before === 'number' ? before : 0);
  }

  private async batchGet(keys: Item[]): Promise<Envelope[]> {
    if (keys.length === 0) return [];
    const found = new Map<string, Envelope>();
    let pending: Item[] | undefined = keys;
    while (pending && pending.length > 0) {
      const result: BatchGetCommandOutput = await this.db.send(new BatchGetCommand({ RequestItems: { [this.table]: { Keys: pending, ConsistentRead: true } } }));
      for (const item of result.Responses?.[this.table] ?? []) found.set(String(item.PK), envelopeOf(item));
      pending = result.UnprocessedKeys?.[this.table]?.Keys;
    }
    return keys.flatMap((key) => found.get(String(key.PK)) ?? []);
  }

  private async queryAll(input: QueryCommandInput): Promise<Item[]> {
    const items: Item[] = [];
    let startKey: Item | undefined;
    do {
      const page = await this.db.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return items;
  }
}
