import { ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSqs, type RunningSqs } from '#local/engines/sqs.ts';
import { startPoller, type Poller } from '#local/queue-poller.ts';

let engine: RunningSqs;
let sqs: SQSClient;
const pollers: Poller[] = [];

beforeAll(async () => {
  engine = await startSqs([{ name: 'work', visibilityTimeoutSeconds: 1, maxReceiveCount: 3 }]);
  sqs = new SQSClient({ endpoint: engine.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
});
afterAll(async () => {
  await Promise.all(pollers.map((p) => p.stop()));
  await engine.stop();
});

const url = () => engine.queues.work?.url ?? '';
const send = (body: string) => sqs.send(new SendMessageCommand({ QueueUrl: url(), MessageBody: body }));

describe('the local queue poller (Lambda SQS event source semantics)', () => {
  it('deletes what succeeded, redelivers a reported failure after the visibility timeout, and dead-letters a poison message', async () => {
    const seen: string[] = [];
    let flakyFailures = 0;
    const poller = startPoller(sqs, url(), (event: SQSEvent) => {
      const failures = event.Records.flatMap((record) => {
        seen.push(record.body);
        if (record.body === 'poison') return [{ itemIdentifier: record.messageId }];
        if (record.body === 'flaky' && flakyFailures++ === 0) return [{ itemIdentifier: record.messageId }];
        return [];
      });
      return Promise.resolve({ batchItemFailures: failures });
    });
    pollers.push(poller);
    await Promise.all(['ok-1', 'flaky', 'ok-2', 'poison'].map(send));
    await poller.drain(() => engine.depth('work'), 20_000);
    expect(seen.filter((b) => b === 'ok-1')).toHaveLength(1);
    expect(seen.filter((b) => b === 'ok-2')).toHaveLength(1);
    expect(seen.filter((b) => b === 'flaky')).toHaveLength(2);
    expect(seen.filter((b) => b === 'poison')).toHaveLength(3);
    const dead = await sqs.send(new ReceiveMessageCommand({ QueueUrl: engine.queues.work?.dlqUrl, MaxNumberOfMessages: 10 }));
    expect(dead.Messages?.map((m) => m.Body)).toEqual(['poison']);
  }, 30_000);
});
