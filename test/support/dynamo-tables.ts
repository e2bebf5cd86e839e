import { randomBytes } from 'node:crypto';
import { CreateTableCommand, DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { documentClient } from '#shared/adapters/aws/dynamo.ts';
import { createTableInput } from '#shared/adapters/aws/table-schema.ts';

/** Tables of their own on the shared DynamoDB Local, each made empty for a contract suite and dropped after it. */
export function dynamoTables(prefix: string): { db: DynamoDBDocumentClient; create: () => Promise<string>; drop: () => Promise<void> } {
  const db = documentClient({ endpoint: inject('dynamodbEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const made: string[] = [];
  return {
    db,
    create: async () => {
      const table = `${prefix}-${randomBytes(6).toString('hex')}`;
      await db.send(new CreateTableCommand(createTableInput(table)));
      made.push(table);
      return table;
    },
    drop: async () => {
      await Promise.all(made.splice(0).map((table) => db.send(new DeleteTableCommand({ TableName: table }))));
    },
  };
}
