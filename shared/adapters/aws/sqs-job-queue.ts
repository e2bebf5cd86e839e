import { SendMessageCommand, SQSClient, type SQSClientConfig } from '@aws-sdk/client-sqs';
import type { JobMessage } from '#shared/notices/outbox.ts';
import type { JobQueue } from '#shared/ports/services.ts';

/** The client this adapter runs on: built by shared/deps.ts when a function first queues a job. */
export const sqsClient = (config: SQSClientConfig) => new SQSClient(config);

export class SqsJobQueue implements JobQueue {
  constructor(private readonly sqs: SQSClient, private readonly queueUrl: string) {}

  async send(job: JobMessage): Promise<void> {
    await this.sqs.send(new SendMessageCommand({
      QueueUrl: this.queueUrl,
      MessageBody: JSON.stringify(job),
      MessageAttributes: { type: { DataType: 'String', StringValue: job.type } },
    }));
  }
}
