/**
 * What the data stack is locally: the table, the documents bucket, the deployment secrets and the seal key, on the
 * local engines and under the data directory, with the names and ARNs the functions are given for them.
 */
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ResourceNotFoundException, UpdateTableCommand, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, HeadBucketCommand, PutBucketCorsCommand, S3Client } from '@aws-sdk/client-s3';
import { DOCUMENTS_CORS } from '#shared/http/signing-host-policy.ts';
import { createTableInput, TTL_ATTRIBUTE } from '#shared/adapters/aws/table-schema.ts';
import { localS3ClientConfig } from './engines/s3.ts';

export const TABLE = 'esign-local';
export const BUCKET = 'esign-local-documents';
export const JOBS_QUEUE = 'esign-jobs';
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
/** The region and account local ARNs are written in (test/support/templates.ts resolves templates the same way). */
export const LOCAL_REGION = 'us-east-1';
export const LOCAL_ACCOUNT = '000000000000';

/** An ARN as AWS would write it for this local resource. */
export const localArn = (service: string, resource: string) => `arn:aws:${service}:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${resource}`;

export interface LocalSecrets { jwtSecret: string; linkSecret: string; dataKey: string; originVerifySecret: string }

const newSecret = () => randomBytes(32).toString('base64url');

/** Secrets are generated once per data directory and reused, so tokens and sealed secrets survive restarts. */
export async function localSecrets(dataDir: string | undefined): Promise<LocalSecrets> {
  const fresh = { jwtSecret: newSecret(), linkSecret: newSecret(), dataKey: newSecret(), originVerifySecret: newSecret() };
  if (!dataDir) return fresh;
  const file = join(dataDir, 'secrets.json');
  let stored: Partial<LocalSecrets> = {};
  try {
    stored = JSON.parse(await readFile(file, 'utf8')) as Partial<LocalSecrets>;
  } catch {
    // first start: none yet
  }
  const secrets = { ...fresh, ...stored };
  // A data directory from before a secret existed gains it, and keeps the others.
  if (Object.keys(fresh).some((name) => !(name in stored))) await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

/** A table persisted by an older version gains the indexes added since. */
async function addMissingIndexes(db: DynamoDBClient, existing: Set<string | undefined>): Promise<void> {
  const wanted = createTableInput(TABLE);
  for (const index of wanted.GlobalSecondaryIndexes ?? []) {
    if (existing.has(index.IndexName)) continue;
    await db.send(new UpdateTableCommand({
      TableName: TABLE, AttributeDefinitions: wanted.AttributeDefinitions,
      GlobalSecondaryIndexUpdates: [{ Create: { IndexName: index.IndexName, KeySchema: index.KeySchema, Projection: index.Projection } }],
    }));
  }
}

export async function ensureTable(endpoint: string): Promise<void> {
  const db = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  try {
    const { Table } = await db.send(new DescribeTableCommand({ TableName: TABLE }));
    await addMissingIndexes(db, new Set((Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName)));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
    await db.send(new CreateTableCommand(createTableInput(TABLE)));
    await db.send(new UpdateTimeToLiveCommand({ TableName: TABLE, TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true } }));
  } finally {
    db.destroy();
  }
}

export async function ensureBucket(endpoint: string): Promise<void> {
  const s3 = new S3Client(localS3ClientConfig(endpoint));
  try {
    await s3.send(new HeadBucketCommand({ Bucket: BUCKET })).catch(() => s3.send(new CreateBucketCommand({ Bucket: BUCKET })));
    // As CDK configures the documents bucket: the signing page follows a large PDF's 302 to a presigned URL here.
    const { allowedMethods, allowedOrigins, allowedHeaders, maxAgeSeconds } = DOCUMENTS_CORS;
    await s3.send(new PutBucketCorsCommand({ Bucket: BUCKET, CORSConfiguration: { CORSRules: [{ AllowedMethods: [...allowedMethods], AllowedOrigins: [...allowedOrigins], AllowedHeaders: [...allowedHeaders], MaxAgeSeconds: maxAgeSeconds }] } }));
  } finally {
    s3.destroy();
  }
}
