/**
 * `npm start` stopped and started again on the same data directory resumes as AWS would: service time continues from
 * where it was, and a job queued but not yet run runs after the restart. This suite starts a stack of its own (twice).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, describe, expect, it } from 'vitest';
import { localS3ClientConfig } from '#local/engines/s3.ts';
import { startLocalStack, type LocalStack } from '#local/stack.ts';

const DAY = 86_400;
let dataDir: string | undefined;
let running: LocalStack | undefined;
afterAll(async () => {
  await running?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const start = async (dir: string) => (running = await startLocalStack({ dataDir: dir, port: 0, signingPort: 0 }));
const stop = async () => { await running?.stop(); running = undefined; };
const moveClock = async (stack: LocalStack, advanceSeconds: number) => {
  const response = await fetch(`${stack.apiUrl}/_local/clock`, { method: 'POST', body: JSON.stringify({ advanceSeconds, runJobs: false }) });
  return Date.parse(((await response.json()) as { now: string }).now);
};
const exists = (stack: LocalStack, key: string) => new S3Client(localS3ClientConfig(stack.endpoints.s3))
  .send(new HeadObjectCommand({ Bucket: stack.resources.bucketName, Key: key })).then(() => true, (error: unknown) => ((error as Error).name === 'NotFound' ? false : Promise.reject(error as Error)));

describe('the local stack restarted on its data directory', () => {
  it('keeps service time where it was moved, and runs the job that was queued when it stopped', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'esign-restart-'));
    let stack = await start(dataDir);
    const moved = await moveClock(stack, 2 * DAY);

    // A job the poller cannot take before the stop: due in a few seconds. It deletes an object it names.
    const key = `uploads/${randomUUID()}/${randomUUID()}.pdf`;
    await new S3Client(localS3ClientConfig(stack.endpoints.s3)).send(new PutObjectCommand({ Bucket: stack.resources.bucketName, Key: key, Body: '%PDF-1.7' }));
    const job = { type: 'blobs.delete', envelopeId: randomUUID(), keys: [key] };
    const sqs = new SQSClient({ endpoint: stack.endpoints.sqs, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    await sqs.send(new SendMessageCommand({ QueueUrl: stack.queueUrls.jobs, MessageBody: JSON.stringify(job), DelaySeconds: 5 }));
    sqs.destroy();
    await stop();
    // Still queued when it stopped (kept in the data directory), so whatever deletes the object runs after the restart.
    expect(await readFile(join(dataDir, 'queues.json'), 'utf8')).toContain(key);

    stack = await start(dataDir);
    expect(await moveClock(stack, 0)).toBeGreaterThanOrEqual(moved);
    await expect.poll(() => exists(stack, key), { timeout: 30_000 }).toBe(false);
  }, 180_000);
});
