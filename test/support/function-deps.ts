import { randomBytes } from 'node:crypto';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { inject } from 'vitest';
import { createTableInput } from '#shared/adapters/aws/table-schema.ts';
import { localS3ClientConfig } from '#local/engines/s3.ts';
import { buildDeps, type Deps } from '#shared/deps.ts';
import { testConfig } from './config.ts';
import { captured, testSigner, type Sent } from './outside.ts';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/** Every key stored for an envelope under the prefixes a document, a signature, a signer's attachment or a sealed copy is kept in. */
async function storedKeys(bucket: string, envelopeId: string): Promise<string[]> {
  const client = new S3Client(localS3ClientConfig(inject('s3Endpoint')));
  const keys: string[] = [];
  for (const prefix of ['original', 'sealed', 'signatures', 'attachments']) {
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix}/${envelopeId}/`, ContinuationToken: token }));
      keys.push(...(page.Contents ?? []).flatMap((o) => (o.Key ? [o.Key] : [])));
      token = page.NextContinuationToken;
    } while (token);
  }
  client.destroy();
  return keys.sort();
}

/** The test seal key, and its chain read without it. */
async function signerPorts(): Promise<Pick<Deps, 'documentSigner' | 'sealChain'>> {
  const signer = await testSigner();
  return { documentSigner: signer, sealChain: signer };
}

/**
 * Production wiring against the shared local engines, in a table of its own; email and SMS captured in memory.
 * `storedKeys` lists what the bucket holds for an envelope (the invariants compare it with the records).
 */
export async function functionDeps(overrides: Partial<Deps> = {}): Promise<Deps & { sent: Sent; storedKeys: (envelopeId: string) => Promise<string[]> }> {
  const table = `fn-${randomBytes(6).toString('hex')}`;
  const dynamodb = { endpoint: inject('dynamodbEndpoint'), region: 'us-east-1', credentials };
  const admin = new DynamoDBClient(dynamodb);
  await admin.send(new CreateTableCommand(createTableInput(table)));
  admin.destroy();
  const { sent, ...outside } = captured();
  const deps = buildDeps(
    testConfig({ TABLE_NAME: table }),
    { clients: { dynamodb, s3: localS3ClientConfig(inject('s3Endpoint')) } },
    { ...outside, ...(await signerPorts()), ...overrides },
  );
  return { ...deps, sent, storedKeys: (envelopeId: string) => storedKeys(deps.config.bucketName, envelopeId) };
}
