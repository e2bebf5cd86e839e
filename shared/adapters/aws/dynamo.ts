import { DynamoDBClient, TransactionCanceledException, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DeleteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

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

/** Deletes the items: one DeleteItem, or BatchWriteItem 25 at a time, sending again what a batch left unprocessed. */
export async function deleteAll(db: DynamoDBDocumentClient, table: string, keys: readonly Record<string, string>[]): Promise<void> {
  if (keys.length === 1) {
    await db.send(new DeleteCommand({ TableName: table, Key: keys[0] }));
    return;
  }
  for (let start = 0; start < keys.length; start += 25) {
    let requests = keys.slice(start, start + 25).map((Key) => ({ DeleteRequest: { Key } }));
    for (let attempt = 0; requests.length > 0; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * 50 * 2 ** Math.min(attempt, 6)));
      const { UnprocessedItems } = await db.send(new BatchWriteCommand({ RequestItems: { [table]: requests } }));
      requests = (UnprocessedItems?.[table] ?? []) as typeof requests;
    }
  }
}
