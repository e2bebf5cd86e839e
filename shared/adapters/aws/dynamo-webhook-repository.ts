import { DeleteCommand, GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Delivery, DeliveryStatus, Webhook } from '#shared/webhooks/webhooks.ts';
import type { WebhookRepository } from '#shared/ports/repositories.ts';

const webhookKey = (appId: string, id: string) => ({ PK: `APP#${appId}`, SK: `WHK#${id}` });
const deliveryKey = (appId: string, webhookId: string, id: string) => ({ PK: `APP#${appId}`, SK: `DLV#${webhookId}#${id}` });

function strip(item: Record<string, unknown>): Record<string, unknown> {
  const { PK: _pk, SK: _sk, itemType: _t, ...rest } = item;
  return rest;
}

export class DynamoWebhookRepository implements WebhookRepository {
  constructor(private readonly db: DynamoDBDocumentClient, private readonly table: string) {}

  async list(appId: string): Promise<Webhook[]> {
    const page = await this.db.send(new QueryCommand({
      TableName: this.table, ConsistentRead: true, KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': `APP#${appId}`, ':prefix': 'WHK#' },
    }));
    return (page.Items ?? []).map((item) => strip(item) as unknown as Webhook);
  }

  async get(appId: string, id: string): Promise<Webhook | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: webhookKey(appId, id), ConsistentRead: true }));
    return Item ? strip(Item) as unknown as Webhook : undefined;
  }

  async put(webhook: Webhook): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: { ...webhook, ...webhookKey(webhook.appId, webhook.id), itemType: 'webhook' } }));
  }

  /** A conditional put: the stored secret is still the one the rotation read (a null one is stored as null). */
  async replaceSecret(webhook: Webhook, expectedSealed: string | null): Promise<boolean> {
    try {
      await this.db.send(new PutCommand({
        TableName: this.table, Item: { ...webhook, ...webhookKey(webhook.appId, webhook.id), itemType: 'webhook' },
        ...(expectedSealed === null
          ? { ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(secretSealed) OR attribute_type(secretSealed, :null))', ExpressionAttributeValues: { ':null': 'NULL' } }
          : { ConditionExpression: 'attribute_exists(PK) AND secretSealed = :expected', ExpressionAttributeValues: { ':expected': expectedSealed } }),
      }));
      return true;
    } catch (error) {
      if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  }

  async delete(appId: string, id: string): Promise<boolean> {
    const result = await this.db.send(new DeleteCommand({ TableName: this.table, Key: webhookKey(appId, id), ReturnValues: 'ALL_OLD' }));
    return result.Attributes !== undefined;
  }

  async createDelivery(delivery: Delivery): Promise<boolean> {
    try {
      await this.db.send(new PutCommand({
        TableName: this.table, Item: { ...delivery, ...deliveryKey(delivery.appId, delivery.webhookId, delivery.id), itemType: 'delivery' },
        ConditionExpression: 'attribute_not_exists(PK)',
      }));
      return true;
    } catch (error) {
      if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  }

  async saveDelivery(delivery: Delivery): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: { ...delivery, ...deliveryKey(delivery.appId, delivery.webhookId, delivery.id), itemType: 'delivery' } }));
  }

  async getDelivery(appId: string, webhookId: string, id: string): Promise<Delivery | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: deliveryKey(appId, webhookId, id), ConsistentRead: true }));
    return Item ? strip(Item) as unknown as Delivery : undefined;
  }

  /** Newest first; the status filter runs server-side over the webhook's deliveries. */
  async deliveries(appId: string, webhookId: string, status: DeliveryStatus | null, limit: number): Promise<Delivery[]> {
    const found: Delivery[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(new QueryCommand({
        TableName: this.table, ConsistentRead: true, ScanIndexForward: false, ExclusiveStartKey: startKey,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ...(status ? { FilterExpression: '#status = :status', ExpressionAttributeNames: { '#status': 'status' } } : {}),
        ExpressionAttributeValues: { ':pk': `APP#${appId}`, ':prefix': `DLV#${webhookId}#`, ...(status ? { ':status': status } : {}) },
      }));
      found.push(...(page.Items ?? []).map((item) => strip(item) as unknown as Delivery));
      startKey = page.LastEvaluatedKey;
    } while (startKey && found.length < limit);
    return found.slice(0, limit);
  }
}
