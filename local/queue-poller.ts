import { DeleteMessageBatchCommand, ReceiveMessageCommand, type Message, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { powertoolsLogger } from '#shared/adapters/powertools-logger.ts';

const logger = powertoolsLogger();

export type SqsHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

export interface Poller {
  /** Resolves once the queue is empty and nothing is being handled (or after `timeoutMs`). */
  drain(depth: () => number, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

function toRecord(message: Message, queueArn: string): SQSRecord {
  const attributes = message.Attributes ?? {};
  return {
    messageId: message.MessageId ?? '', receiptHandle: message.ReceiptHandle ?? '', body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1', SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: 'local', ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: {}, md5OfBody: message.MD5OfBody ?? '', eventSource: 'aws:sqs', eventSourceARN: queueArn, awsRegion: 'us-east-1',
  };
}

/**
 * What Lambda's SQS event source does: receive batches, invoke the handler, delete what succeeded. Failed items
 * (batchItemFailures) and whole failed batches stay on the queue and come back after the visibility timeout.
 */
export function startPoller(sqs: SQSClient, queueUrl: string, handler: SqsHandler): Poller {
  const queueArn = `arn:aws:sqs:us-east-1:000000000000:${queueUrl.split('/').pop() ?? 'queue'}`;
  const state = { running: true, busy: false };
  const isRunning = () => state.running; // read through a call: stop() flips it while the loop awaits
  const loop = (async () => {
    while (state.running) {
      try {
        const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({
          QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1, MessageSystemAttributeNames: ['All'],
        }));
        if (Messages.length === 0) continue;
        state.busy = true;
        await handleBatch(sqs, queueUrl, Messages.map((m) => toRecord(m, queueArn)), handler);
      } catch (error) {
        if (isRunning()) logger.error('queue poll failed', { error: (error as Error).message });
      } finally {
        state.busy = false;
      }
    }
  })();
  return {
    drain: async (depth, timeoutMs = 15_000) => {
      const deadline = Date.now() + timeoutMs;
      while ((state.busy || depth() > 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    },
    stop: async () => {
      state.running = false;
      await loop;
    },
  };
}

async function handleBatch(sqs: SQSClient, queueUrl: string, records: SQSRecord[], handler: SqsHandler): Promise<void> {
  let failed: Set<string>;
  try {
    const response = await handler({ Records: records });
    failed = new Set(response.batchItemFailures.map((f) => f.itemIdentifier));
  } catch (error) {
    logger.error('queue handler failed; the batch will be redelivered', { error: (error as Error).message });
    return;
  }
  const done = records.filter((r) => !failed.has(r.messageId));
  if (done.length === 0) return;
  await sqs.send(new DeleteMessageBatchCommand({
    QueueUrl: queueUrl, Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
  }));
}
