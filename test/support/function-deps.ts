import { randomBytes } from 'node:crypto';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { inject } from 'vitest';
import { createTableInput } from '#adapters/aws/table-schema.ts';
import { localS3ClientConfig } from '#infra/local/engines/s3.ts';
import type { Job } from '#domain/outbox.ts';
import type { EmailMessage, SmsMessage, WebhookRetryStart } from '#ports/services.ts';
import { buildDeps, type Deps } from '#shared/deps.ts';
import { testConfig } from './config.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeyFileSigner } from '#adapters/local/key-file-signer.ts';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/** Production wiring against the shared local engines, in a table of its own; email and SMS captured in memory. */
export async function functionDeps(overrides: Partial<Deps> = {}): Promise<Deps & { sent: { emails: EmailMessage[]; sms: SmsMessage[]; jobs: Job[]; sealing: string[]; retries: WebhookRetryStart[] } }> {
  const table = `fn-${randomBytes(6).toString('hex')}`;
  const dynamodb = { endpoint: inject('dynamodbEndpoint'), region: 'us-east-1', credentials };
  const admin = new DynamoDBClient(dynamodb);
  await admin.send(new CreateTableCommand(createTableInput(table)));
  admin.destroy();
  const sent = { emails: [] as EmailMessage[], sms: [] as SmsMessage[], jobs: [] as Job[], sealing: [] as string[], retries: [] as WebhookRetryStart[] };
  const deps = buildDeps(
    testConfig({ TABLE_NAME: table }),
    { clients: { dynamodb, s3: localS3ClientConfig(inject('s3Endpoint')) } },
    {
      mailer: { send: (m) => { sent.emails.push(m); return Promise.resolve(); } },
      sms: { send: (m) => { sent.sms.push(m); return Promise.resolve(); } },
      jobs: { send: (j) => { sent.jobs.push(j); return Promise.resolve(); } },
      documentSigner: await KeyFileSigner.open(join(tmpdir(), 'esign-test-signing')),
      workflows: {
        startSealing: (id) => { sent.sealing.push(id); return Promise.resolve(); },
        startWebhookRetry: (input) => { sent.retries.push(input); return Promise.resolve(); },
      },
      ...overrides,
    },
  );
  return { ...deps, sent };
}
