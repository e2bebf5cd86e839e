import { TransactionCanceledException, type CancellationReason } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { documentClient } from '#shared/adapters/aws/dynamo.ts';

interface Keyed { TableName?: string; Key?: Record<string, unknown>; Item?: Record<string, unknown> }
interface Input { TransactItems?: { Put?: Keyed; Update?: Keyed; Delete?: Keyed; ConditionCheck?: Keyed }[] }

const text = (value: unknown) => (typeof value === 'object' && value !== null && 'S' in value ? String(value.S) : String(value));

/**
 * A client of the shared DynamoDB Local that cancels a transaction touching an item another transaction is still
 * writing, as DynamoDB does (TransactionConflict); DynamoDB Local runs them one after another instead. An item stays
 * taken for `holdMs` at most, about what DynamoDB takes to commit a transaction: DynamoDB Local's queue of waiting
 * transactions would otherwise keep every item taken for as long as the whole burst lasts.
 */
export function conflictingDynamo(holdMs = 30): { db: DynamoDBDocumentClient; conflicts: () => number } {
  const db = documentClient({ endpoint: inject('dynamodbEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const inFlight = new Set<string>();
  let conflicts = 0;
  db.middlewareStack.add((next, context) => async (args) => {
    if (context.commandName !== 'TransactWriteItemsCommand') return next(args);
    const keys = ((args.input as Input).TransactItems ?? []).map((item) => {
      const op = item.Put ?? item.Update ?? item.Delete ?? item.ConditionCheck ?? {};
      const key = op.Key ?? op.Item ?? {};
      return `${op.TableName ?? ''}|${text(key.PK)}|${text(key.SK)}`;
    });
    if (keys.some((key) => inFlight.has(key))) {
      conflicts++;
      const reasons: CancellationReason[] = keys.map((key) => ({ Code: inFlight.has(key) ? 'TransactionConflict' : 'None' }));
      throw new TransactionCanceledException({ message: 'Transaction cancelled (conflict)', $metadata: {}, CancellationReasons: reasons });
    }
    for (const key of keys) inFlight.add(key);
    const release = () => { for (const key of keys) inFlight.delete(key); };
    const timer = setTimeout(release, holdMs);
    try {
      return await next(args);
    } finally {
      clearTimeout(timer);
      release();
    }
  }, { step: 'initialize', name: 'transactionConflicts' });
  return { db, conflicts: () => conflicts };
}
