import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { BulkRowInput, BulkRowResult, BulkSend } from '#domain/bulk-send.ts';
import type { BulkSendRepository } from '#ports/repositories.ts';

type Item = Record<string, unknown>;

/**
 * Bulk sends in the one table (DESIGN 3), all under `BULK#<id>`: `BULK` the batch, `IN#<chunk>` its rows in chunks
 * (each far below 400 KB), `ROW#<row>` one result per row (written once the row's envelope exists, or it failed).
 */
const pk = (id: string) => `BULK#${id}`;
const pad = (n: number) => String(n).padStart(6, '0');

export class DynamoBulkSendRepository implements BulkSendRepository {
  constructor(private readonly db: DynamoDBDocumentClient, private readonly table: string) {}

  async create(batch: BulkSend, chunks: readonly BulkRowInput[][]): Promise<void> {
    await this.db.send(new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: this.table, Item: { ...batch, PK: pk(batch.id), SK: 'BULK', itemType: 'bulkSend' }, ConditionExpression: 'attribute_not_exists(PK)' } },
        ...chunks.map((rows, i) => ({ Put: { TableName: this.table, Item: { PK: pk(batch.id), SK: `IN#${pad(i)}`, itemType: 'bulkRows', rows } } })),
      ],
    }));
  }

  async get(appId: string, id: string): Promise<BulkSend | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: { PK: pk(id), SK: 'BULK' }, ConsistentRead: true }));
    if (Item?.appId !== appId) return undefined;
    const { id: batchId, templateId, tenantId, total, chunks, createdAt } = Item as unknown as BulkSend;
    return { id: batchId, appId, templateId, tenantId, total, chunks, createdAt };
  }

  async chunk(batchId: string, index: number): Promise<BulkRowInput[] | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: { PK: pk(batchId), SK: `IN#${pad(index)}` }, ConsistentRead: true }));
    return Item ? (Item.rows as BulkRowInput[]) : undefined;
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
}
