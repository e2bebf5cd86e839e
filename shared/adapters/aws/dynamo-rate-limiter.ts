import { PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RateLimiter, WindowCount } from '#shared/ports/traffic.ts';
import { TTL_ATTRIBUTE } from './table-schema.ts';

const rateKey = (key: string) => ({ PK: `RATE#${key}`, SK: 'RATE' });

const conditionFailed = (error: unknown) => (error as { name?: string }).name === 'ConditionalCheckFailedException';

const MAX_ATTEMPTS = 5;

/**
 * One counter item per key: an atomic ADD while its window is open, which also opens the first window of a key never
 * counted before (one call for a new link or address); the first request after a window closed opens the next one
 * with a conditional put. TTL removes idle counters; the logic never relies on it.
 */
export class DynamoRateLimiter implements RateLimiter {
  constructor(private readonly db: DynamoDBDocumentClient, private readonly table: string) {}

  async hit(key: string, windowSeconds: number, now: Date): Promise<WindowCount> {
    const nowMs = now.getTime();
    for (let attempt = 1; ; attempt++) {
      const counted = await this.countInOpenWindow(key, nowMs, windowSeconds);
      if (counted) return counted;
      const opened = await this.openWindow(key, nowMs, windowSeconds);
      if (opened) return opened;
      if (attempt >= MAX_ATTEMPTS) throw new Error(`rate counter ${key} kept changing concurrently`);
    }
  }

  private async countInOpenWindow(key: string, nowMs: number, windowSeconds: number): Promise<WindowCount | undefined> {
    const resetAtMs = nowMs + windowSeconds * 1000;
    try {
      const { Attributes } = await this.db.send(new UpdateCommand({
        TableName: this.table, Key: rateKey(key),
        UpdateExpression: 'ADD requests :one SET resetAtMs = if_not_exists(resetAtMs, :reset), itemType = :type, #ttl = if_not_exists(#ttl, :ttl)',
        ConditionExpression: 'attribute_not_exists(PK) OR resetAtMs > :now',
        ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
        ExpressionAttributeValues: { ':one': 1, ':now': nowMs, ':reset': resetAtMs, ':type': 'rate', ':ttl': Math.ceil(resetAtMs / 1000) + 60 },
        ReturnValues: 'ALL_NEW',
      }));
      return { count: Number(Attributes?.requests), resetAtMs: Number(Attributes?.resetAtMs) };
    } catch (error) {
      if (conditionFailed(error)) return undefined; // its window has closed
      throw error;
    }
  }

  /** Undefined when another request opened the window first: the caller counts in that one. */
  private async openWindow(key: string, nowMs: number, windowSeconds: number): Promise<WindowCount | undefined> {
    const resetAtMs = nowMs + windowSeconds * 1000;
    try {
      await this.db.send(new PutCommand({
        TableName: this.table,
        Item: { ...rateKey(key), requests: 1, resetAtMs, itemType: 'rate', [TTL_ATTRIBUTE]: Math.ceil(resetAtMs / 1000) + 60 },
        ConditionExpression: 'attribute_not_exists(PK) OR resetAtMs <= :now',
        ExpressionAttributeValues: { ':now': nowMs },
      }));
      return { count: 1, resetAtMs };
    } catch (error) {
      if (conditionFailed(error)) return undefined;
      throw error;
    }
  }
}
