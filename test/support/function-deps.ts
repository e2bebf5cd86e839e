import { randomBytes } from 'node:crypto';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { inject } from 'vitest';
import { createTableInput } from '#adapters/aws/table-schema.ts';
import { localS3ClientConfig } from '#infra/local/engines/s3.ts';
import { buildDeps, type Deps } from '#shared/deps.ts';
import { testConfig } from './config.ts';
import { captured, testSigner, type Sent } from './outside.ts';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/** Production wiring against the shared local engines, in a table of its own; email and SMS captured in memory. */
export async function functionDeps(overrides: Partial<Deps> = {}): Promise<Deps & { sent: Sent }> {
  const table = `fn-${randomBytes(6).toString('hex')}`;
  const dynamodb = { endpoint: inject('dynamodbEndpoint'), region: 'us-east-1', credentials };
  const admin = new DynamoDBClient(dynamodb);
  await admin.send(new CreateTableCommand(createTableInput(table)));
  admin.destroy();
  const { sent, ...outside } = captured();
  const deps = buildDeps(
    testConfig({ TABLE_NAME: table }),
    { clients: { dynamodb, s3: localS3ClientConfig(inject('s3Endpoint')) } },
    { ...outside, documentSigner: await testSigner(), ...overrides },
  );
  return { ...deps, sent };
}
