import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

/**
 * The one table (decision 41). CDK and the local runtime both build it from this definition.
 * GSI1 lists a tenant's envelopes newest first; GSI2 the same per status; GSI3 finds undispatched outbox items;
 * GSI4 holds only live (sent, in-progress) envelopes, by deadline, for the expiry sweep; GSI5 only ended envelopes
 * whose PDFs are still stored, by deletion time, for the deletion reminders.
 * The list indexes project keys only: skipping to page N reads keys, the page itself is a BatchGet.
 */
export const TABLE_INDEXES = [
  { name: 'GSI1', pk: 'GSI1PK', sk: 'GSI1SK' },
  { name: 'GSI2', pk: 'GSI2PK', sk: 'GSI2SK' },
  { name: 'GSI3', pk: 'GSI3PK', sk: 'GSI3SK' },
  { name: 'GSI4', pk: 'GSI4PK', sk: 'GSI4SK' },
  { name: 'GSI5', pk: 'GSI5PK', sk: 'GSI5SK' },
] as const;

/** Sparse indexes are spread over a few partitions so no single key takes all writes. */
export const INDEX_SHARDS = 8;

export const TTL_ATTRIBUTE = 'expiresAtEpoch';

export function createTableInput(tableName: string): CreateTableCommandInput {
  const keyAttributes = ['PK', 'SK', ...TABLE_INDEXES.flatMap((i) => [i.pk, i.sk])];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: 'PK', KeyType: 'HASH' },
      { AttributeName: 'SK', KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: TABLE_INDEXES.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.pk, KeyType: 'HASH' },
        { AttributeName: index.sk, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'KEYS_ONLY' },
    })),
  };
}
