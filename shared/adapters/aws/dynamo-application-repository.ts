import { GetCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Conflict } from '#shared/kernel/errors.ts';
import type { Application, ApplicationRepository, ApplicationSettings } from '#shared/ports/repositories.ts';
import { lostRace } from './dynamo.ts';

const appKey = (appId: string) => ({ PK: `APP#${appId}`, SK: 'APP' });
/** A pointer item makes the client-id lookup a consistent key read rather than an index query. */
const clientKey = (clientId: string) => ({ PK: `CLIENT#${clientId}`, SK: 'CLIENT' });

export class DynamoApplicationRepository implements ApplicationRepository {
  constructor(private readonly db: DynamoDBDocumentClient, private readonly table: string) {}

  async get(appId: string): Promise<Application | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: appKey(appId), ConsistentRead: true }));
    if (!Item) return undefined;
    const { PK: _pk, SK: _sk, itemType: _t, ...app } = Item;
    return app as Application;
  }

  async getByClientId(clientId: string): Promise<Application | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: clientKey(clientId), ConsistentRead: true }));
    return typeof Item?.appId === 'string' ? this.get(Item.appId) : undefined;
  }

  async create(app: Application): Promise<void> {
    try {
      await this.db.send(new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: this.table, Item: { ...app, ...appKey(app.appId), itemType: 'application' }, ConditionExpression: 'attribute_not_exists(PK)' } },
          { Put: { TableName: this.table, Item: { ...clientKey(app.clientId), appId: app.appId, itemType: 'client' }, ConditionExpression: 'attribute_not_exists(PK)' } },
        ],
      }));
    } catch (error) {
      if (lostRace(error)) throw new Conflict(`Client id ${app.clientId} is already taken`);
      throw error;
    }
  }

  async updateSecret(appId: string, secretHash: string, secretSealed: string): Promise<void> {
    await this.db.send(new UpdateCommand({
      TableName: this.table, Key: appKey(appId),
      UpdateExpression: 'SET secretHash = :hash, secretSealed = :sealed',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':hash': secretHash, ':sealed': secretSealed },
    }));
  }

  async saveSettings(appId: string, settings: ApplicationSettings): Promise<void> {
    await this.db.send(new UpdateCommand({
      TableName: this.table, Key: appKey(appId),
      UpdateExpression: 'SET embedOrigins = :origins',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':origins': settings.embedOrigins },
    }));
  }
}
