import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { Job } from '#domain/outbox.ts';
import type { JobQueue } from '#ports/services.ts';

export class SqsJobQueue implements JobQueue {
  constructor(private readonly sqs: SQSClient, private readonly queueUrl: string) {}

  async send(job: Job): Promise<void> {
    await this.sqs.send(new SendMessageCommand({
      QueueUrl: this.queueUrl,
      MessageBody: JSON.stringify(job),
      MessageAttributes: { type: { DataType: 'String', StringValue: job.type } },
    }));
  }
}
