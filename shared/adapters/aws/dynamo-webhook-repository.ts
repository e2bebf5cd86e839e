import { DeleteCommand, GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Delivery, DeliveryStatus, Webhook } from '#shared/webhooks/webhooks.ts';
import type { WebhookRepository, WebhookSubscriptions } from '#shared/ports/repositories.ts';

const webhookKey = (appId: string, id: string) => ({ PK: `APP#${appId}`, SK: `WHK#${id}` });
/** The application's subscriptions: the union of its active webhooks' events and a version every webhook write advances. */
export const subscriptionsKey = (appId: string) => ({ PK: `APP#${appId}`, SK: 'WHKSUB' });
/** An envelope commit that skipped events on version `v` checks the item still says `v` (absent reads as 0). */
export const subscriptionsCheck = (table: string, appId: string, version: number) => ({
  ConditionCheck: {
    TableName: table, Key: subscriptionsKey(appId),
    ConditionExpression: 'attribute_not_exists(PK) OR version = :subscriptions', ExpressionAttributeValues: { ':subscriptions': version },
  },
});
const unionOf = (webhooks: readonly Webhook[]) => [...new Set(webhooks.filter((w) => w.active).flatMap((w) => w.events))].sort();
/** Writers that met a concurrent writer of the subscriptions item try again, this often at most. */
const SUBSCRIPTION_ATTEMPTS = 10;
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

  /** The stored summary; before any webhook write made one, the webhooks themselves at version 0. */
  async subscriptions(appId: string): Promise<WebhookSubscriptions> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: subscriptionsKey(appId), ConsistentRead: true }));
    if (Item) return { version: Number(Item.version), events: (Item.events ?? []) as string[] };
    return { version: 0, events: unionOf(await this.list(appId)) };
  }

  /**
   * After a webhook write: the summary from the webhooks as they now stand, put only over the version read before
   * listing them, so of two concurrent writers the later put saw both webhooks.
   */
  private async resubscribe(appId: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: subscriptionsKey(appId), ConsistentRead: true }));
      const version = Item ? Number(Item.version) : 0;
      const events = unionOf(await this.list(appId));
      try {
        await this.db.send(new PutCommand({
          TableName: this.table, Item: { ...subscriptionsKey(appId), itemType: 'webhookSubscriptions', version: version + 1, events },
          ...(Item ? { ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': version } } : { ConditionExpression: 'attribute_not_exists(PK)' }),
        }));
        return;
      } catch (error) {
        if ((error as { name?: string }).name !== 'ConditionalCheckFailedException' || attempt >= SUBSCRIPTION_ATTEMPTS) throw error;
      }
    }
  }

  async get(appId: string, id: string): Promise<Webhook | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: webhookKey(appId, id), ConsistentRead: true }));
    return Item ? strip(Item) as unknown as Webhook : undefined;
  }

  async put(webhook: Webhook): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: { ...webhook, ...webhookKey(webhook.appId, webhook.id), itemType: 'webhook' } }));
    await this.resubscribe(webhook.appId);
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
    if (result.Attributes === undefined) return false;
    await this.resubscribe(appId);
    return true;
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
