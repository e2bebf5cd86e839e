import { DynamoDBClient, TransactionCanceledException, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export function documentClient(config: DynamoDBClientConfig = {}): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(new DynamoDBClient(config), {
    marshallOptions: { removeUndefinedValues: true },
  });
}

/** True when a transaction lost to a condition or to a concurrent transaction on the same items. */
export function lostRace(error: unknown): boolean {
  if (!(error instanceof TransactionCanceledException)) return false;
  const reasons = error.CancellationReasons ?? [];
  return reasons.some((r) => r.Code === 'ConditionalCheckFailed' || r.Code === 'TransactionConflict');
}

/** Which of a cancelled transaction's items failed their condition, by the role the writer gave each item. */
export function cancelledBy<R>(error: unknown, roles: readonly R[]): Set<R> {
  if (!(error instanceof TransactionCanceledException)) return new Set();
  return new Set((error.CancellationReasons ?? []).flatMap((reason, i) => {
    const role = roles[i];
    return reason.Code === 'ConditionalCheckFailed' && role !== undefined ? [role] : [];
  }));
}
