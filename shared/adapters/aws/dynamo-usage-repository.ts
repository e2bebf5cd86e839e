import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { UsageRepository } from '#shared/ports/repositories.ts';
import { usageShardCounts } from './dynamo-counters.ts';

/** True when the transaction was cancelled by the item at `index` failing its condition (and not by a conflict). */
export function failedConditionAt(error: unknown, index: number): boolean {
  return error instanceof TransactionCanceledException && error.CancellationReasons?.[index]?.Code === 'ConditionalCheckFailed';
}

/** Counter items per application and month, sharded and advanced by the send's commit (dynamo-counters.ts). */
export class DynamoUsageRepository implements UsageRepository {
  constructor(private readonly db: DynamoDBDocumentClient, private readonly table: string) {}

  async envelopesSent(appId: string, period: string): Promise<number> {
    return (await usageShardCounts(this.db, this.table, appId, period)).reduce((sum, count) => sum + count, 0);
  }
}
