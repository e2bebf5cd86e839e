import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { UsageIncrement } from '#domain/usage.ts';
import type { UsageRepository } from '#ports/repositories.ts';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** One counter item per application and month (DESIGN 3). */
const usageKey = (appId: string, period: string) => ({ PK: `APP#${appId}`, SK: `USE#${period}` });

/**
 * The counter's atomic ADD, for the send's own transaction: with a limit, the condition `count < limit` makes two
 * concurrent sends unable to both take the last unit. A counter not written yet counts as 0, so it passes only a
 * limit above 0.
 */
export function usageIncrementItem(table: string, usage: UsageIncrement): TransactItem {
  const condition = usage.limit !== null && usage.limit > 0 ? 'attribute_not_exists(envelopesSent) OR envelopesSent < :limit' : 'envelopesSent < :limit';
  return {
    Update: {
      TableName: table,
      Key: usageKey(usage.appId, usage.period),
      UpdateExpression: 'SET appId = :app, #period = :period, itemType = :type ADD envelopesSent :one',
      ExpressionAttributeNames: { '#period': 'period' },
      ...(usage.limit === null ? {} : { ConditionExpression: condition }),
      ExpressionAttributeValues: {
        ':app': usage.appId, ':period': usage.period, ':type': 'usage', ':one': 1,
        ...(usage.limit === null ? {} : { ':limit': usage.limit }),
      },
    },
  };
}

/** True when the transaction was cancelled by the item at `index` failing its condition (and not by a conflict). */
export function failedConditionAt(error: unknown, index: number): boolean {
  return error instanceof TransactionCanceledException && error.CancellationReasons?.[index]?.Code === 'ConditionalCheckFailed';
}

export class DynamoUsageRepository implements UsageRepository {
  constructor(private readonly db: DynamoDBDocumentClient, private readonly table: string) {}

  async envelopesSent(appId: string, period: string): Promise<number> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: usageKey(appId, period), ConsistentRead: true }));
    const count: unknown = Item?.envelopesSent;
    return typeof count === 'number' ? count : 0;
  }
}
