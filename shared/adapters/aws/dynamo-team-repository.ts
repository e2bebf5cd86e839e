import { GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Conflict } from '#shared/kernel/errors.ts';
import type { ApiClient, ConsoleUser, TeamRepository } from '#shared/ports/repositories.ts';
import { lostRace } from './dynamo.ts';

type Item = Record<string, unknown>;

/** A user lives in their application's partition, listed with it; a pointer by `sub` finds them on each request. */
const userKey = (appId: string, userId: string) => ({ PK: `APP#${appId}`, SK: `USER#${userId}` });
const subjectKey = (userId: string) => ({ PK: `USER#${userId}`, SK: 'USER' });
/** A client's pointer shares the applications' `CLIENT#` keys, so no two clients anywhere have one id. */
const clientListKey = (appId: string, clientId: string) => ({ PK: `APP#${appId}`, SK: `APICLIENT#${clientId}` });
const clientKey = (clientId: string) => ({ PK: `CLIENT#${clientId}`, SK: 'CLIENT' });

const userOf = (item: Item): ConsoleUser => {
  const { appId, userId, email, name, role, createdAt } = item as unknown as ConsoleUser;
  return { appId, userId, email, name: name ?? null, role, createdAt };
};
const clientOf = (item: Item): ApiClient => {
  const { appId, clientId, name, secretHash, createdAt } = item as unknown as ApiClient;
  return { appId, clientId, name, secretHash, createdAt };
};

export class DynamoTeamRepository implements TeamRepository {
  constructor(private readonly db: DynamoDBDocumentClient, private readonly table: string) {}

  private async query(appId: string, prefix: string): Promise<Item[]> {
    const found: Item[] = [];
    let startKey: Item | undefined;
    do {
      const page = await this.db.send(new QueryCommand({
        TableName: this.table, ConsistentRead: true, ExclusiveStartKey: startKey,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': `APP#${appId}`, ':prefix': prefix },
      }));
      found.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return found;
  }

  async users(appId: string): Promise<ConsoleUser[]> {
    return (await this.query(appId, 'USER#')).map(userOf).sort((a, b) => a.email.localeCompare(b.email));
  }

  async userBySubject(userId: string): Promise<ConsoleUser | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: subjectKey(userId), ConsistentRead: true }));
    return Item ? userOf(Item) : undefined;
  }

  async addUser(user: ConsoleUser): Promise<void> {
    try {
      await this.db.send(new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: this.table, Item: { ...user, ...userKey(user.appId, user.userId), itemType: 'user' }, ConditionExpression: 'attribute_not_exists(PK)' } },
          { Put: { TableName: this.table, Item: { ...user, ...subjectKey(user.userId), itemType: 'userPointer' }, ConditionExpression: 'attribute_not_exists(PK)' } },
        ],
      }));
    } catch (error) {
      if (lostRace(error)) throw new Conflict(`User ${user.userId} exists already`);
      throw error;
    }
  }

  async saveUser(user: ConsoleUser): Promise<void> {
    await this.db.send(new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: this.table, Item: { ...user, ...userKey(user.appId, user.userId), itemType: 'user' }, ConditionExpression: 'attribute_exists(PK)' } },
        { Put: { TableName: this.table, Item: { ...user, ...subjectKey(user.userId), itemType: 'userPointer' }, ConditionExpression: 'appId = :app', ExpressionAttributeValues: { ':app': user.appId } } },
      ],
    }));
  }

  async removeUser(appId: string, userId: string): Promise<boolean> {
    try {
      await this.db.send(new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: this.table, Key: userKey(appId, userId), ConditionExpression: 'attribute_exists(PK)' } },
          { Delete: { TableName: this.table, Key: subjectKey(userId), ConditionExpression: 'appId = :app', ExpressionAttributeValues: { ':app': appId } } },
        ],
      }));
      return true;
    } catch (error) {
      if (lostRace(error)) return false;
      throw error;
    }
  }

  async clients(appId: string): Promise<ApiClient[]> {
    return (await this.query(appId, 'APICLIENT#')).map(clientOf).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /** The pointer carries the whole client: a token request and a bearer check read one item. */
  async client(clientId: string): Promise<ApiClient | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: clientKey(clientId), ConsistentRead: true }));
    return Item?.itemType === 'apiClient' ? clientOf(Item) : undefined;
  }

  async addClient(client: ApiClient): Promise<void> {
    try {
      await this.db.send(new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: this.table, Item: { ...client, ...clientKey(client.clientId), itemType: 'apiClient' }, ConditionExpression: 'attribute_not_exists(PK)' } },
          { Put: { TableName: this.table, Item: { ...client, ...clientListKey(client.appId, client.clientId), itemType: 'apiClientEntry' } } },
        ],
      }));
    } catch (error) {
      if (lostRace(error)) throw new Conflict(`Client id ${client.clientId} is already taken`);
      throw error;
    }
  }

  async removeClient(appId: string, clientId: string): Promise<boolean> {
    try {
      await this.db.send(new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: this.table, Key: clientKey(clientId), ConditionExpression: 'appId = :app AND itemType = :type', ExpressionAttributeValues: { ':app': appId, ':type': 'apiClient' } } },
          { Delete: { TableName: this.table, Key: clientListKey(appId, clientId) } },
        ],
      }));
      return true;
    } catch (error) {
      if (lostRace(error)) return false;
      throw error;
    }
  }
}

