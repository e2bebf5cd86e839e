import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { CreateTableCommand, DynamoDBClient, GetItemCommand, ListTablesCommand, PutItemCommand, TransactWriteItemsCommand, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, DeleteBucketCommand, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { freePort, isPortFree } from '../../local/engines/free-port.ts';
import { JavaMissingError, parseJavaMajor, startDynamoDbLocal, type DynamoDbLocalEngine } from '../../local/engines/dynamodb.ts';
import { localS3ClientConfig, startS3 } from '../../local/engines/s3.ts';
import type { RunningEngine } from '../../local/engines/types.ts';

import { occupyPort } from '#test/support/ports.ts';
const TEST_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

const tmpDirs: string[] = [];
async function tmpDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'engines-test-'));
  tmpDirs.push(dir);
  return dir;
}

/** Engines still running when a test fails are stopped in afterEach. */
const running = new Set<RunningEngine>();
function track<T extends RunningEngine>(engine: T): T {
  running.add(engine);
  return engine;
}

afterEach(async () => {
  await Promise.all([...running].map((engine) => engine.stop()));
  running.clear();
});

afterAll(async () => {
  await Promise.all(tmpDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function answersHttp(endpoint: string): Promise<boolean> {
  try {
    const res = await fetch(endpoint, { signal: AbortSignal.timeout(1_000) });
    await res.body?.cancel();
    return true;
  } catch {
    return false;
  }
}
describe('freePort / isPortFree', () => {
  it('returns a port that can be bound, and detects a taken one', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    expect(await isPortFree(port)).toBe(true);
    const taken = await occupyPort();
    expect(await isPortFree(taken.port)).toBe(false);
    taken.server.close();
  });
});

describe('parseJavaMajor', () => {
  it('reads modern and legacy version strings', () => {
    expect(parseJavaMajor('openjdk version "17.0.15" 2025-04-15')).toBe(17);
    expect(parseJavaMajor('openjdk version "21" 2023-09-19')).toBe(21);
    expect(parseJavaMajor('java version "1.8.0_392"')).toBe(8);
    expect(parseJavaMajor('nonsense')).toBeUndefined();
  });
});

// JVM start-up is ~2-4 s per engine, more on a loaded CI machine; don't rely on the config's timeout.
describe('DynamoDB Local', { timeout: 60_000 }, () => {
  function dynamoClient(engine: RunningEngine): DynamoDBClient {
    return new DynamoDBClient({ endpoint: engine.endpoint, region: 'us-east-1', credentials: TEST_CREDENTIALS });
  }

  async function createTable(client: DynamoDBClient, name: string): Promise<void> {
    await client.send(
      new CreateTableCommand({
        TableName: name,
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
  }

  it('runs in memory, cancels a transaction on a failed condition, and stops its child', async () => {
    const engine: DynamoDbLocalEngine = track(await startDynamoDbLocal({}));
    expect(engine.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const client = dynamoClient(engine);
    await createTable(client, 'things');
    await client.send(new PutItemCommand({ TableName: 'things', Item: { pk: { S: 'a' } } }));

    const conflicting = client.send(
      new TransactWriteItemsCommand({
        TransactItems: [
          { Put: { TableName: 'things', Item: { pk: { S: 'b' } } } },
          { Put: { TableName: 'things', Item: { pk: { S: 'a' } }, ConditionExpression: 'attribute_not_exists(pk)' } },
        ],
      }),
    );
    const error: unknown = await conflicting.catch((err: unknown) => err);
    expect(error).toBeInstanceOf(TransactionCanceledException);
    const reasons = error instanceof TransactionCanceledException ? error.CancellationReasons : undefined;
    expect(reasons?.map((r) => r.Code)).toEqual(['None', 'ConditionalCheckFailed']);
    // The whole transaction was rolled back: 'b' was not written.
    const b = await client.send(new GetItemCommand({ TableName: 'things', Key: { pk: { S: 'b' } } }));
    expect(b.Item).toBeUndefined();
    client.destroy();

    await engine.stop();
    await engine.stop(); // idempotent
    expect(isProcessAlive(engine.pid)).toBe(false);
    expect(await answersHttp(engine.endpoint)).toBe(false);
  });

  it('fails fast with JavaMissingError when java is not on the PATH', async () => {
    const savedPath = process.env.PATH;
    process.env.PATH = await tmpDir();
    try {
      const error: unknown = await startDynamoDbLocal({}).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(JavaMissingError);
      expect(String(error)).toMatch(/Java 17\+.*openjdk-17-jre-headless/s);
    } finally {
      process.env.PATH = savedPath;
    }
  });

  it('refuses an explicit port that is already taken, without waiting for a timeout', async () => {
    const taken = await occupyPort();
    try {
      await expect(startDynamoDbLocal({ port: taken.port })).rejects.toThrow(/port \d+ is already in use/);
    } finally {
      taken.server.close();
    }
  });

  it('keeps tables in a data dir across restarts', async () => {
    const dataDir = join(await tmpDir(), 'dynamodb'); // does not exist yet: the engine creates it
    const first = track(await startDynamoDbLocal({ dataDir }));
    const firstClient = dynamoClient(first);
    await createTable(firstClient, 'persisted');
    await firstClient.send(new PutItemCommand({ TableName: 'persisted', Item: { pk: { S: 'kept' } } }));
    firstClient.destroy();
    await first.stop();

    const second = track(await startDynamoDbLocal({ dataDir }));
    // Different credentials/region on purpose: -sharedDb makes them see the same tables.
    const secondClient = new DynamoDBClient({
      endpoint: second.endpoint,
      region: 'eu-west-1',
      credentials: { accessKeyId: 'other', secretAccessKey: 'other' },
    });
    const tables = await secondClient.send(new ListTablesCommand({}));
    expect(tables.TableNames).toContain('persisted');
    const item = await secondClient.send(new GetItemCommand({ TableName: 'persisted', Key: { pk: { S: 'kept' } } }));
    expect(item.Item?.pk?.S).toBe('kept');
    secondClient.destroy();
    await second.stop();
  });
});

describe('S3 (s3rver)', () => {
  async function readBody(client: S3Client, Bucket: string, Key: string): Promise<Buffer> {
    const got = await client.send(new GetObjectCommand({ Bucket, Key }));
    if (!got.Body) throw new Error('GetObject returned no body');
    return Buffer.from(await got.Body.transformToByteArray());
  }

  it('creates a bucket, round-trips small and 5 MB objects byte for byte, deletes them', async () => {
    const engine = track(await startS3({ dataDir: await tmpDir() }));
    expect(engine.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const client = new S3Client(localS3ClientConfig(engine.endpoint));
    const Bucket = 'documents';
    await client.send(new CreateBucketCommand({ Bucket }));

    const small = Buffer.from('hello, signer ✍️\n', 'utf8');
    const large = randomBytes(5 * 1024 * 1024);
    await client.send(new PutObjectCommand({ Bucket, Key: 'small.txt', Body: small, ContentType: 'text/plain' }));
    await client.send(new PutObjectCommand({ Bucket, Key: 'nested/large.pdf', Body: large, ContentType: 'application/pdf' }));

    // A streamed body of known length: the case the checksum settings of localS3ClientConfig protect.
    const streamed = randomBytes(300_000);
    await client.send(
      new PutObjectCommand({
        Bucket,
        Key: 'streamed.bin',
        Body: Readable.from([streamed.subarray(0, 100_000), streamed.subarray(100_000)]),
        ContentLength: streamed.length,
      }),
    );

    expect((await readBody(client, Bucket, 'small.txt')).equals(small)).toBe(true);
    expect((await readBody(client, Bucket, 'streamed.bin')).equals(streamed)).toBe(true);
    expect((await readBody(client, Bucket, 'nested/large.pdf')).equals(large)).toBe(true);
    const head = await client.send(new HeadObjectCommand({ Bucket, Key: 'nested/large.pdf' }));
    expect(head.ContentLength).toBe(large.length);
    expect(head.ContentType).toBe('application/pdf');

    await client.send(new DeleteObjectCommand({ Bucket, Key: 'small.txt' }));
    await client.send(new DeleteObjectCommand({ Bucket, Key: 'nested/large.pdf' }));
    await client.send(new DeleteObjectCommand({ Bucket, Key: 'streamed.bin' }));
    await expect(client.send(new HeadObjectCommand({ Bucket, Key: 'small.txt' }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 404 },
    });
    await client.send(new DeleteBucketCommand({ Bucket }));
    client.destroy();

    await engine.stop();
    await engine.stop(); // idempotent
    expect(await answersHttp(engine.endpoint)).toBe(false);
  });

  it('rejects (rather than crashing the process) when its port is taken', async () => {
    const taken = await occupyPort();
    try {
      await expect(startS3({ dataDir: await tmpDir(), port: taken.port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      taken.server.close();
    }
  });

  it('keeps objects in its data dir across restarts', async () => {
    const dataDir = await tmpDir();
    const first = track(await startS3({ dataDir }));
    const firstClient = new S3Client(localS3ClientConfig(first.endpoint));
    await firstClient.send(new CreateBucketCommand({ Bucket: 'kept' }));
    await firstClient.send(new PutObjectCommand({ Bucket: 'kept', Key: 'a.txt', Body: 'still here' }));
    firstClient.destroy();
    await first.stop();

    const second = track(await startS3({ dataDir }));
    const secondClient = new S3Client(localS3ClientConfig(second.endpoint));
    expect((await readBody(secondClient, 'kept', 'a.txt')).toString('utf8')).toBe('still here');
    secondClient.destroy();
  });
});
