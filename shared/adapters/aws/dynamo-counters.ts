import { QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { EnvelopeChange } from '#shared/envelopes/envelope.ts';
import type { EnvelopeStatus } from '#shared/kernel/model.ts';
import type { UsageIncrement } from '#shared/console/usage.ts';

type Item = Record<string, unknown>;
type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * The per-tenant counts (the list's `total`) and the per-application usage of a month are written inside the
 * envelope's own transaction, so a crash can never leave a count out of step with the envelopes. One item per
 * tenant (or per application) would make every concurrent change of that tenant touch the same item, and DynamoDB
 * cancels concurrent transactions on one item (TransactionConflict). So each count is split over `COUNTER_SHARDS`
 * items: a write adds to one shard picked at random, a read sums them all. Sixteen small shards fit in the 4 KB of
 * one read unit (one Query), and cut the chance that two writers meet on one item sixteenfold.
 */
export const COUNTER_SHARDS = 16;

export const randomShard = (shards = COUNTER_SHARDS) => Math.floor(Math.random() * shards);

const pad = (shard: number) => String(shard).padStart(2, '0');

/** A tenant's count shards share one partition key (the tenant id comes last, so no other tenant's key extends it). */
const tenantCountsPk = (appId: string, tenantId: string) => `COUNTS#${appId}#${tenantId}`;

/** Shard 0 of a month's usage is the item that held the whole count before it was sharded: those counts stay read. */
const usageKey = (appId: string, period: string, shard: number) => ({ PK: `APP#${appId}`, SK: shard === 0 ? `USE#${period}` : `USE#${period}#${pad(shard)}` });

/** Keeps the per-tenant counts in step with creations and status changes: one shard, in the change's transaction. */
export function tenantCountsItem(table: string, change: EnvelopeChange, shard: number): TransactItem | undefined {
  const { before, after } = change;
  if (before?.status === after.status) return undefined;
  const counts: Partial<Record<EnvelopeStatus | 'total', number>> = { [after.status]: 1 };
  if (before) counts[before.status] = -1;
  else counts.total = 1;
  const entries = Object.entries(counts);
  return {
    Update: {
      TableName: table,
      Key: { PK: tenantCountsPk(after.appId, after.tenantId), SK: `SHARD#${pad(shard)}` },
      UpdateExpression: `SET appId = :app, tenantId = :tenant, itemType = :type ADD ${entries.map((_, i) => `#c${String(i)} :c${String(i)}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#c${String(i)}`, `count_${k}`])),
      ExpressionAttributeValues: {
        ':app': after.appId, ':tenant': after.tenantId, ':type': 'tenant-counts',
        ...Object.fromEntries(entries.map(([, n], i) => [`:c${String(i)}`, n])),
      },
    },
  };
}

/** A tenant's count of one status (or of all envelopes): the sum over its shards. */
export async function tenantCount(db: DynamoDBDocumentClient, table: string, appId: string, tenantId: string, status: EnvelopeStatus | null): Promise<number> {
  const shards = await queryAll(db, {
    TableName: table, ConsistentRead: true,
    KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': tenantCountsPk(appId, tenantId) },
  });
  return sumOf(shards, `count_${status ?? 'total'}`);
}

/**
 * A month's quota split over the shards so that the shards' limits add up to it exactly: shard `i` takes at most
 * `usageShardLimit(i, limit)` sends. A send refused by a full shard is tried again on one with room
 * (`openUsageShards`); only when every shard is full is the quota used up.
 */
export function usageShardLimit(shard: number, limit: number): number {
  return Math.floor(limit / COUNTER_SHARDS) + (shard < limit % COUNTER_SHARDS ? 1 : 0);
}

/** A shard to count one send on: any shard without a limit, else one whose share of the limit is not 0. */
export function usageShard(usage: UsageIncrement): number {
  return randomShard(usage.limit === null ? COUNTER_SHARDS : Math.max(1, Math.min(COUNTER_SHARDS, usage.limit)));
}

/**
 * The send's atomic ADD on one usage shard, for the send's own transaction: with a limit, the condition
 * `count < shard's limit` makes two concurrent sends unable to both take the shard's last unit. A shard not written
 * yet counts as 0, so it passes only a limit above 0.
 */
export function usageIncrementItem(table: string, usage: UsageIncrement, shard: number): TransactItem {
  const limit = usage.limit === null ? null : usageShardLimit(shard, usage.limit);
  const condition = limit !== null && limit > 0 ? 'attribute_not_exists(envelopesSent) OR envelopesSent < :limit' : 'envelopesSent < :limit';
  return {
    Update: {
      TableName: table,
      Key: usageKey(usage.appId, usage.period, shard),
      UpdateExpression: 'SET appId = :app, #period = :period, itemType = :type ADD envelopesSent :one',
      ExpressionAttributeNames: { '#period': 'period' },
      ...(limit === null ? {} : { ConditionExpression: condition }),
      ExpressionAttributeValues: {
        ':app': usage.appId, ':period': usage.period, ':type': 'usage', ':one': 1,
        ...(limit === null ? {} : { ':limit': limit }),
      },
    },
  };
}

/** Each usage shard's count for a month (absent shards count 0); `USE#<yyyy-mm>` is a fixed-length prefix. */
export async function usageShardCounts(db: DynamoDBDocumentClient, table: string, appId: string, period: string): Promise<number[]> {
  const items = await queryAll(db, {
    TableName: table, ConsistentRead: true,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': `APP#${appId}`, ':prefix': `USE#${period}` },
  });
  const counts = new Array<number>(COUNTER_SHARDS).fill(0);
  for (const item of items) {
    const suffix = String(item.SK).slice(`USE#${period}`.length);
    const shard = suffix === '' ? 0 : Number(suffix.slice(1));
    if (Number.isInteger(shard) && shard >= 0 && shard < COUNTER_SHARDS) counts[shard] = sumOf([item], 'envelopesSent');
  }
  return counts;
}

/** Shards with room left under the limit, after a send was refused by a full one. */
export async function openUsageShards(db: DynamoDBDocumentClient, table: string, usage: UsageIncrement & { limit: number }): Promise<number[]> {
  const counts = await usageShardCounts(db, table, usage.appId, usage.period);
  return counts.flatMap((count, shard) => (count < usageShardLimit(shard, usage.limit) ? [shard] : []));
}

function sumOf(items: Item[], attribute: string): number {
  return items.reduce((sum, item) => sum + (typeof item[attribute] === 'number' ? item[attribute] : 0), 0);
}

async function queryAll(db: DynamoDBDocumentClient, input: QueryCommandInput): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Item | undefined;
  do {
    const page = await db.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}
