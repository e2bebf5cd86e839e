import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { BULK_CHUNK_ROWS, type BulkCheck, type BulkChunk, type BulkRowInput, type BulkRowResult, type BulkSend } from '#shared/templates/bulk-send.ts';
import type { BulkSendRepository } from '#shared/ports/repositories.ts';
import { INDEX_SHARDS } from './table-schema.ts';

type Item = Record<string, unknown>;

/**
 * Bulk sends in the one table (decision 41), all under `BULK#<id>`: `BULK` the batch, `IN#<chunk>` its rows in chunks
 * (the rows as one JSON string of at most BULK_CHUNK_BYTES, far below 400 KB whatever the rows hold), `ROW#<row>` one
 * result per row (written once the row's envelope exists, or it failed). While unfinished, the batch is on GSI3
 * (`BULKCHECK#<shard>`, by its next check) for the bulk sweep.
 */
const pk = (id: string) => `BULK#${id}`;
const pad = (n: number) => String(n).padStart(6, '0');
const shardOf = (id: string) => parseInt(id.replace(/-/g, '').slice(-4), 16) % INDEX_SHARDS;
const checkIndex = (id: string, check: BulkCheck | null) => (check ? { GSI3PK: `BULKCHECK#${String(shardOf(id))}`, GSI3SK: `${check.at}#${id}` } : {});

function batchOf(item: Item): BulkSend {
  const { id, appId, templateId, tenantId, total, chunks, createdAt, sender, check } = item as unknown as BulkSend;
  return { id, appId, templateId, tenantId, total, chunks, createdAt, ...(sender ? { sender } : {}), check: check ?? null };
}

export class DynamoBulkSendRepository implements BulkSendRepository {
  constructor(private readonly db: DynamoDBDocumentClient, private readonly table: string) {}

  async create(batch: BulkSend, chunks: readonly BulkChunk[]): Promise<void> {
    await this.db.send(new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: this.table, Item: { ...batch, PK: pk(batch.id), SK: 'BULK', itemType: 'bulkSend', ...checkIndex(batch.id, batch.check) }, ConditionExpression: 'attribute_not_exists(PK)' } },
        ...chunks.map((chunk, i) => ({ Put: { TableName: this.table, Item: { PK: pk(batch.id), SK: `IN#${pad(i)}`, itemType: 'bulkRows', first: chunk.first, rowsJson: JSON.stringify(chunk.rows) } } })),
      ],
    }));
  }

  async get(appId: string, id: string): Promise<BulkSend | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: { PK: pk(id), SK: 'BULK' }, ConsistentRead: true }));
    return Item?.appId === appId ? batchOf(Item) : undefined;
  }

  async chunk(batchId: string, index: number): Promise<BulkChunk | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: { PK: pk(batchId), SK: `IN#${pad(index)}` }, ConsistentRead: true }));
    if (!Item) return undefined;
    // Chunks stored before rows were kept as JSON held 20 rows each, as a list.
    const rows = typeof Item.rowsJson === 'string' ? JSON.parse(Item.rowsJson) as BulkRowInput[] : Item.rows as BulkRowInput[];
    return { first: typeof Item.first === 'number' ? Item.first : index * BULK_CHUNK_ROWS + 1, rows };
  }

  async results(batchId: string): Promise<BulkRowResult[]> {
    const results: BulkRowResult[] = [];
    let startKey: Item | undefined;
    do {
      const page = await this.db.send(new QueryCommand({
        TableName: this.table, ConsistentRead: true, ExclusiveStartKey: startKey,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': pk(batchId), ':prefix': 'ROW#' },
      }));
      for (const item of page.Items ?? []) {
        const { row, envelopeId, status, error, message } = item as unknown as BulkRowResult;
        results.push({ row, envelopeId: envelopeId ?? null, status, error: error ?? null, message: message ?? null });
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return results;
  }

  async recordResult(batchId: string, result: BulkRowResult, ifAbsent: boolean): Promise<boolean> {
    try {
      await this.db.send(new PutCommand({
        TableName: this.table, Item: { ...result, PK: pk(batchId), SK: `ROW#${pad(result.row)}`, itemType: 'bulkRow' },
        ...(ifAbsent ? { ConditionExpression: 'attribute_not_exists(PK)' } : {}),
      }));
      return true;
    } catch (error) {
      if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  }

  /** Unfinished batches whose check is due by `now`, across GSI3's shards. */
  async dueForCheck(now: Date, limit: number): Promise<BulkSend[]> {
    const pages = await Promise.all(Array.from({ length: INDEX_SHARDS }, (_, shard) => this.db.send(new QueryCommand({
      TableName: this.table, IndexName: 'GSI3', Limit: limit,
      KeyConditionExpression: 'GSI3PK = :pk AND GSI3SK <= :until',
      ExpressionAttributeValues: { ':pk': `BULKCHECK#${String(shard)}`, ':until': `${now.toISOString()}#~` },
    }))));
    const keys = pages.flatMap((page) => (page.Items ?? []).map((item): { PK: unknown; SK: unknown } => ({ PK: item.PK, SK: item.SK }))).slice(0, limit);
    const items = await Promise.all(keys.map((key) => this.db.send(new GetCommand({ TableName: this.table, Key: { PK: key.PK, SK: key.SK }, ConsistentRead: true }))));
    return items.flatMap(({ Item }) => (Item?.check ? [batchOf(Item)] : []));
  }

  async saveCheck(batchId: string, check: BulkCheck | null): Promise<void> {
    const index = checkIndex(batchId, check);
    await this.db.send(new UpdateCommand({
      TableName: this.table, Key: { PK: pk(batchId), SK: 'BULK' }, ConditionExpression: 'attribute_exists(PK)',
      ...(check
        ? { UpdateExpression: 'SET #check = :check, GSI3PK = :gpk, GSI3SK = :gsk', ExpressionAttributeValues: { ':check': check, ':gpk': index.GSI3PK, ':gsk': index.GSI3SK } }
        : { UpdateExpression: 'SET #check = :check REMOVE GSI3PK, GSI3SK', ExpressionAttributeValues: { ':check': null } }),
      ExpressionAttributeNames: { '#check': 'check' },
    }));
  }
}
