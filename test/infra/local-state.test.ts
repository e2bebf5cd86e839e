import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChangeMessageVisibilityCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSqs, type RunningSqs } from '#local/engines/sqs.ts';
import { savedClock } from '#local/saved-state.ts';

let dir: string;
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'local-state-')); });
afterAll(() => rm(dir, { recursive: true, force: true }));

const QUEUE = { name: 'work', visibilityTimeoutSeconds: 60, maxReceiveCount: 5 };
const client = (engine: RunningSqs) => new SQSClient({ endpoint: engine.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
const receive = (sqs: SQSClient, url: string, visibility?: number) =>
  sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: visibility, MessageSystemAttributeNames: ['All'] }));
const counts = async (sqs: SQSClient, url: string) => {
  const { Attributes = {} } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['All'] }));
  return { waiting: Attributes.ApproximateNumberOfMessages, delayed: Attributes.ApproximateNumberOfMessagesDelayed, inFlight: Attributes.ApproximateNumberOfMessagesNotVisible };
};

describe('the local stack\'s state across a restart', () => {
  it('the jobs queue: waiting messages wait (with their receive counts), delayed ones keep their due time, in-flight ones return after their visibility timeout', async () => {
    const stateFile = join(dir, 'queues.json');
    const first = await startSqs([QUEUE], { stateFile });
    const url = first.queues.work?.url ?? '';
    let sqs = client(first);
    // In flight: one until its 60 s visibility ends, one for a second; one received once and given back.
    await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'held' }));
    expect((await receive(sqs, url)).Messages?.map((m) => m.Body)).toEqual(['held']);
    await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'brief' }));
    expect((await receive(sqs, url, 1)).Messages?.map((m) => m.Body)).toEqual(['brief']);
    await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'retried' }));
    const retried = (await receive(sqs, url)).Messages?.[0];
    await sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: retried?.ReceiptHandle, VisibilityTimeout: 0 }));
    await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'waiting' }));
    await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'delayed', DelaySeconds: 600 }));
    sqs.destroy();
    await first.stop();

    const second = await startSqs([QUEUE], { stateFile });
    try {
      sqs = client(second);
      const again = second.queues.work?.url ?? '';
      // Received again: the two that were waiting, then the brief one once its second is up; each counted on from before.
      const received = new Map<string, string | undefined>();
      await expect.poll(async () => {
        for (const m of (await receive(sqs, again)).Messages ?? []) received.set(m.Body ?? '', m.Attributes?.ApproximateReceiveCount);
        return Object.fromEntries(received);
      }).toEqual({ waiting: '1', retried: '2', brief: '2' });
      // The held one waits out its 60 s, the delayed one its 10 minutes.
      expect(await counts(sqs, again)).toEqual({ waiting: '0', delayed: '2', inFlight: '3' });
      expect(second.depth('work')).toBe(5);
      sqs.destroy();
    } finally {
      await second.stop();
    }
  });

  it('the service clock: moved forward, it continues from there after a restart', () => {
    const before = savedClock(dir);
    const moved = before.advance(25 * 3600);
    before.stop();
    const after = savedClock(dir);
    expect(after.now().getTime()).toBeGreaterThanOrEqual(moved.getTime());
    expect(after.now().getTime() - Date.now()).toBeGreaterThanOrEqual(25 * 3600_000);
  });
});
