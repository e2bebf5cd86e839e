import { gunzipSync, gzipSync } from 'node:zlib';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { IdempotencyClaim, IdempotencyRecord, IdempotencyStore, StoredResponse } from '#shared/ports/traffic.ts';
import { TTL_ATTRIBUTE } from './table-schema.ts';

/** `IDEM#<appId>#<key>` for bearer calls (decision 41); signer calls use the link token's hash as the scope. */
const idemKey = (id: string) => ({ PK: `IDEM#${id}`, SK: 'IDEM' });

/** DynamoDB items hold 400 KB; the gzipped answer must leave room for the rest of the record. */
const MAX_STORED_BYTES = 350 * 1024;

const epoch = (date: Date) => Math.floor(date.getTime() / 1000);
const conditionFailed = (error: unknown) => (error as { name?: string }).name === 'ConditionalCheckFailedException';

export class DynamoIdempotencyStore implements IdempotencyStore {
  constructor(private readonly db: DynamoDBDocumentClient, private readonly table: string) {}

  async claim(claim: IdempotencyClaim): Promise<IdempotencyRecord | undefined> {
    const now = epoch(claim.now);
    for (let attempt = 1; attempt <= 3; attempt++) {
      try {
        await this.db.send(new PutCommand({
          TableName: this.table,
          Item: {
            ...idemKey(claim.id), itemType: 'idempotency', state: 'in_progress', fingerprint: claim.fingerprint, owner: claim.owner,
            lockedUntil: now + claim.lockSeconds, createdAt: claim.now.toISOString(), [TTL_ATTRIBUTE]: now + claim.expiresInSeconds,
          },
          // Free: never used, expired (TTL deletion lags), or an abandoned claim of the same request.
          ConditionExpression: 'attribute_not_exists(PK) OR #ttl <= :now OR (#state = :progress AND lockedUntil <= :now AND fingerprint = :fp)',
          ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE, '#state': 'state' },
          ExpressionAttributeValues: { ':now': now, ':progress': 'in_progress', ':fp': claim.fingerprint },
        }));
        return undefined;
      } catch (error) {
        if (!conditionFailed(error)) throw error;
      }
      const holder = await this.read(claim.id);
      if (holder) return holder; // else it was released between the put and the read: claim again
    }
    throw new Error(`idempotency key ${claim.id} kept changing concurrently`);
  }

  async complete(claim: IdempotencyClaim, response: StoredResponse): Promise<'stored' | 'released'> {
    const packed = gzipSync(JSON.stringify(response));
    if (packed.length > MAX_STORED_BYTES) {
      await this.release(claim);
      return 'released';
    }
    try {
      await this.db.send(new UpdateCommand({
        TableName: this.table, Key: idemKey(claim.id),
        UpdateExpression: 'SET #state = :completed, #response = :response REMOVE lockedUntil',
        ConditionExpression: '#owner = :owner',
        ExpressionAttributeNames: { '#state': 'state', '#response': 'response', '#owner': 'owner' },
        ExpressionAttributeValues: { ':completed': 'completed', ':response': packed, ':owner': claim.owner },
      }));
    } catch (error) {
      if (!conditionFailed(error)) throw error;
    }
    return 'stored';
  }

  async release(claim: IdempotencyClaim): Promise<void> {
    try {
      await this.db.send(new DeleteCommand({
        TableName: this.table, Key: idemKey(claim.id),
        ConditionExpression: '#owner = :owner', ExpressionAttributeNames: { '#owner': 'owner' }, ExpressionAttributeValues: { ':owner': claim.owner },
      }));
    } catch (error) {
      if (!conditionFailed(error)) throw error;
    }
  }

  private async read(id: string): Promise<IdempotencyRecord | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: idemKey(id), ConsistentRead: true }));
    if (!Item) return undefined;
    const fingerprint = String(Item.fingerprint);
    if (Item.state !== 'completed') return { state: 'in_progress', fingerprint };
    const packed = Item.response as Uint8Array;
    return { state: 'completed', fingerprint, response: JSON.parse(gunzipSync(packed).toString('utf8')) as StoredResponse };
  }
}
