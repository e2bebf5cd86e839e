import { PublishCommand, SNSClient, type SNSClientConfig } from '@aws-sdk/client-sns';
import type { SmsMessage, SmsSender } from '#shared/ports/services.ts';

/** The client this adapter runs on: built by shared/deps.ts when a function first sends an SMS. */
export const snsClient = (config: SNSClientConfig) => new SNSClient(config);

export class SnsSms implements SmsSender {
  constructor(private readonly sns: SNSClient, private readonly senderId: string | undefined) {}

  async send(message: SmsMessage): Promise<void> {
    await this.sns.send(new PublishCommand({
      PhoneNumber: message.to,
      Message: message.text,
      MessageAttributes: {
        'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: 'Transactional' },
        ...(this.senderId ? { 'AWS.SNS.SMS.SenderID': { DataType: 'String', StringValue: this.senderId } } : {}),
      },
    }));
  }
}
