import {
  BatchGetCommand, GetCommand, QueryCommand, TransactWriteCommand, DeleteCommand,
  type DynamoDBDocumentClient, type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { AuditEntry } from '#domain/audit-chain.ts';
import type { EnvelopeChange } from '#domain/envelope.ts';
import { ConcurrentModification, QuotaExceeded } from '#domain/errors.ts';
import { DEFAULT_TENANT, type Envelope, type EnvelopeStatus } from '#domain/model.ts';
import type { OutboxItem } from '#domain/outbox.ts';
import type { Submission } from '#domain/submission.ts';
import type { EnvelopeListQuery, EnvelopePage, EnvelopeRepository } from '#ports/repositories.ts';
import { lostRace } from './dynamo.ts';
import { failedConditionAt, usageIncrementItem } from './dynamo-usage-repository.ts';
import { INDEX_SHARDS } from './table-schema.ts';

/** A stable shard of a UUID, for the sparse indexes. */
const shardOf = (id: string) => parseInt(id.replace(/-/g, '').slice(-4), 16) % INDEX_SHARDS;

type Item = Record<string, unknown>;
type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

const envKey = (id: string) => ({ PK: `ENV#${id}`, SK: 'ENV' });
const tenantKey = (appId: string, tenantId: string) => ({ PK: `APP#${appId}`, SK: `TENANT#${tenantId}` });
const listPk = (appId: string, tenantId: string) => `APP#${appId}#TEN#${tenantId}`;

function envelopeItem(envelope: Envelope): Item {
  const sortKey = `${envelope.createdAt}#${envelope.id}`;
  const live = envelope.status === 'sent' || envelope.status === 'in_progress';
  const retained = envelope.deletionAt && envelope.documents.some((d) => d.purgeStatus === 'active');
  return {
    ...(live ? { GSI4PK: `LIVE#${String(shardOf(envelope.id))}`, GSI4SK: `${envelope.expiresAt}#${envelope.id}` } : {}),
    ...(retained ? { GSI5PK: `RET#${String(shardOf(envelope.id))}`, GSI5SK: `${envelope.deletionAt ?? ''}#${envelope.id}` } : {}),
    ...envelope,
    ...envKey(envelope.id),
    itemType: 'envelope',
    GSI1PK: listPk(envelope.appId, envelope.tenantId),
    GSI1SK: sortKey,
    GSI2PK: `${listPk(envelope.appId, envelope.tenantId)}#ST#${envelope.status}`,
    GSI2SK: sortKey,
  };
}

function fromItem(item: Item): Envelope {
  const { PK: _pk, SK: _sk, itemType: _t, GSI1PK: _a, GSI1SK: _b, GSI2PK: _c, GSI2SK: _d, GSI4PK: _e, GSI4SK: _f, GSI5PK: _g, GSI5SK: _h, ...envelope } = item;
  return { retentionDays: DEFAULT_TENANT.retentionDays, ...envelope } as unknown as Envelope; // records older than retentionDays
}

/** Audit entries sort by their zero-padded sequence number. */
const auditSk = (seq: number) => `AUD#${String(seq).padStart(10, '0')}`;

function auditItem(entry: AuditEntry): Item {
  return { ...entry, PK: `ENV#${entry.envelopeId}`, SK: auditSk(entry.seq), itemType: 'audit' };
}

function outboxItem(item: OutboxItem): Item {
  return {
    ...item, PK: `ENV#${item.envelopeId}`, SK: `OUT#${item.id}`, itemType: 'outbox',
    GSI3PK: `OUTBOX#${String(shardOf(item.id))}`, GSI3SK: `${item.createdAt}#${item.id}`,
  };
}

function strip(item: Item): Item {
  const { PK: _pk, SK: _sk, itemType: _t, GSI3PK: _a, GSI3SK: _b, ...rest } = item;
  return rest;
}

function submissionItem(submission: Submission): Item {
  return { ...submission, PK: `ENV#${submission.envelopeId}`, SK: `SUB#${submission.signerId}`, itemType: 'submission' };
}

/** Keeps the per-tenant counts (the list's `total`) in step with creations and status changes. */
function counterUpdate(table: string, change: EnvelopeChange): TransactItem | undefined {
  const { before, after } = change;
  if (before?.status === after.status) return undefined;
  const counts: Partial<Record<EnvelopeStatus | 'total', number>> = { [after.status]: 1 };
  if (before) counts[before.status] = -1;
  else counts.total = 1;
  const entries = Object.entries(counts);
  return {
    Update: {
      TableName: table,
      Key: tenantKey(after.appId, after.tenantId),
      UpdateExpression: `SET appId = :app, tenantId = :tenant, itemType = :type ADD ${entries.map((_, i) => `#c${String(i)} :c${String(i)}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#c${String(i)}`, `count_${k}`])),
      ExpressionAttributeValues: {
        ':app': after.appId, ':tenant': after.tenantId, ':type': 'tenant',
        ...Object.fromEntries(entries.map(([, n], i) => [`:c${String(i)}`, n])),
      },
    },
  };
}

export class DynamoEnvelopeRepository implements EnvelopeRepository {
  constructor(private readonly db: DynamoDBDocumentClient, private readonly table: string) {}

  async get(appId: string, id: string): Promise<Envelope | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: envKey(id), ConsistentRead: true }));
    if (Item?.appId !== appId) return undefined;
    return fromItem(Item);
  }

  async find(id: string): Promise<Envelope | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: envKey(id), ConsistentRead: true }));
    return Item ? fromItem(Item) : undefined;
  }

  async submissions(envelopeId: string): Promise<Submission[]> {
    const items = await this.queryAll({
      TableName: this.table, ConsistentRead: true,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': `ENV#${envelopeId}`, ':prefix': 'SUB#' },
    });
    return items.map((item) => strip(item) as unknown as Submission);
  }

  /** Outbox items written before `before` and still there: their dispatch after the commit did not happen. */
  async staleOutbox(before: Date, limit: number): Promise<OutboxItem[]> {
    const shards = Array.from({ length: INDEX_SHARDS }, (_, shard) => this.db.send(new QueryCommand({
      TableName: this.table, IndexName: 'GSI3', Limit: limit,
      KeyConditionExpression: 'GSI3PK = :pk AND GSI3SK < :before',
      ExpressionAttributeValues: { ':pk': `OUTBOX#${String(shard)}`, ':before': before.toISOString() },
    })));
    const keys = (await Promise.all(shards)).flatMap((page) => page.Items ?? []).slice(0, limit);
    const items = await Promise.all(keys.map((key) => this.db.send(new GetCommand({ TableName: this.table, Key: { PK: key.PK as unknown, SK: key.SK as unknown }, ConsistentRead: true }))));
    return items.flatMap(({ Item }) => (Item ? [strip(Item) as unknown as OutboxItem] : []));
  }

  /** Ids of ended envelopes with stored PDFs whose deletion is due before `until`. */
  async retainedUntil(until: Date, limit: number): Promise<string[]> {
    const shards = Array.from({ length: INDEX_SHARDS }, (_, shard) => this.db.send(new QueryCommand({
      TableName: this.table, IndexName: 'GSI5', Limit: limit,
      KeyConditionExpression: 'GSI5PK = :pk AND GSI5SK <= :until',
      ExpressionAttributeValues: { ':pk': `RET#${String(shard)}`, ':until': `${until.toISOString()}#~` },
    })));
    return (await Promise.all(shards)).flatMap((page) => (page.Items ?? []).map((item) => String(item.PK).replace(/^ENV#/, ''))).slice(0, limit);
  }

  /** Ids of live envelopes whose deadline is at or before `now`, across every shard of the index. */
  async dueForExpiry(now: Date, limit: number): Promise<string[]> {
    const shards = Array.from({ length: INDEX_SHARDS }, (_, shard) => this.db.send(new QueryCommand({
      TableName: this.table, IndexName: 'GSI4', Limit: limit,
      KeyConditionExpression: 'GSI4PK = :pk AND GSI4SK <= :due',
      ExpressionAttributeValues: { ':pk': `LIVE#${String(shard)}`, ':due': `${now.toISOString()}#~` },
    })));
    const pages = await Promise.all(shards);
    return pages.flatMap((page) => (page.Items ?? []).map((item) => String(item.PK).replace(/^ENV#/, ''))).slice(0, limit);
  }

  async auditLog(envelopeId: string): Promise<AuditEntry[]> {
    const items = await this.queryAll({
      TableName: this.table, ConsistentRead: true,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': `ENV#${envelopeId}`, ':prefix': 'AUD#' },
    });
    return items.map((item) => strip(item) as unknown as AuditEntry);
  }

  async commit(change: EnvelopeChange): Promise<void> {
    const { before, after } = change;
    const envelopePut: TransactItem = {
      Put: {
        TableName: this.table,
        Item: envelopeItem(after),
        ...(before
          ? { ConditionExpression: 'version = :expected', ExpressionAttributeValues: { ':expected': before.version } }
          : { ConditionExpression: 'attribute_not_exists(PK)' }),
      },
    };
    const counter = counterUpdate(this.table, change);
    const transactItems: TransactItem[] = [
      envelopePut,
      ...change.audit.map((entry) => ({ Put: { TableName: this.table, Item: auditItem(entry), ConditionExpression: 'attribute_not_exists(PK)' } })),
      ...change.outbox.map((item) => ({ Put: { TableName: this.table, Item: outboxItem(item) } })),
      ...(change.submission ? [{ Put: { TableName: this.table, Item: submissionItem(change.submission), ConditionExpression: 'attribute_not_exists(PK)' } }] : []),
      ...(counter ? [counter] : []),
    ];
    const usageAt = change.usage ? transactItems.push(usageIncrementItem(this.table, change.usage)) - 1 : -1;
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: transactItems }));
    } catch (error) {
      // A lost version race is retried first: the winner may have sent the envelope already.
      if (usageAt >= 0 && failedConditionAt(error, usageAt) && !failedConditionAt(error, 0)) {
        throw new QuotaExceeded('The envelope quota of this billing period is used up, and the plan does not allow overage');
      }
      if (lostRace(error)) throw new ConcurrentModification(after.id);
      throw error;
    }
  }

  async list(query: EnvelopeListQuery): Promise<EnvelopePage> {
    const [keys, total] = await Promise.all([this.pageKeys(query), this.total(query)]);
    return { data: await this.batchGet(keys), total };
  }

  async pendingOutbox(envelopeId: string): Promise<OutboxItem[]> {
    const items = await this.queryAll({
      TableName: this.table, ConsistentRead: true,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': `ENV#${envelopeId}`, ':prefix': 'OUT#' },
    });
    return items.map((item) => strip(item) as unknown as OutboxItem);
  }

  async removeOutbox(envelopeId: string, itemIds: readonly string[]): Promise<void> {
    await Promise.all(itemIds.map((id) =>
      this.db.send(new DeleteCommand({ TableName: this.table, Key: { PK: `ENV#${envelopeId}`, SK: `OUT#${id}` } }))));
  }

  /** Keys of the requested page, newest first: earlier pages are skipped reading index keys only. */
  private async pageKeys(query: EnvelopeListQuery): Promise<Item[]> {
    const base = listPk(query.appId, query.tenantId);
    const input: QueryCommandInput = {
      TableName: this.table,
      IndexName: query.status ? 'GSI2' : 'GSI1',
      KeyConditionExpression: query.status ? 'GSI2PK = :pk' : 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': query.status ? `${base}#ST#${query.status}` : base },
      ScanIndexForward: false,
    };
    let toSkip = (query.page - 1) * query.pageSize;
    let startKey: Item | undefined;
    while (toSkip > 0) {
      const skipped = await this.db.send(new QueryCommand({ ...input, Limit: Math.min(toSkip, 1000), ExclusiveStartKey: startKey }));
      toSkip -= skipped.Count ?? 0;
      startKey = skipped.LastEvaluatedKey;
      if (!startKey) return [];
    }
    const page = await this.db.send(new QueryCommand({ ...input, Limit: query.pageSize, ExclusiveStartKey: startKey }));
    return (page.Items ?? []).map((item): Item => ({ PK: item.PK as unknown, SK: item.SK as unknown }));
  }

  private async total(query: EnvelopeListQuery): Promise<number> {
    const { Item } = await this.db.send(new GetCommand({
      TableName: this.table, Key: tenantKey(query.appId, query.tenantId), ConsistentRead: true,
    }));
    const count: unknown = Item?.[`count_${query.status ?? 'total'}`];
    return typeof count === 'number' ? count : 0;
  }

  private async batchGet(keys: Item[]): Promise<Envelope[]> {
    if (keys.length === 0) return [];
    const found = new Map<string, Envelope>();
    let pending: Item[] | undefined = keys;
    while (pending && pending.length > 0) {
      const result = await this.db.send(new BatchGetCommand({ RequestItems: { [this.table]: { Keys: pending, ConsistentRead: true } } }));
      for (const item of result.Responses?.[this.table] ?? []) found.set(String(item.PK), fromItem(item));
      pending = result.UnprocessedKeys?.[this.table]?.Keys as Item[] | undefined;
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
