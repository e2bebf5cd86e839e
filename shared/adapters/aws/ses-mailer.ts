import { SendEmailCommand, SESv2Client, type SESv2ClientConfig } from '@aws-sdk/client-sesv2';
import type { EmailMessage, Mailer } from '#ports/services.ts';

/** The client this adapter runs on: built by shared/deps.ts when a function first sends an email. */
export const sesClient = (config: SESv2ClientConfig) => new SESv2Client(config);

export class SesMailer implements Mailer {
  constructor(private readonly ses: SESv2Client, private readonly from: string) {}

  async send(message: EmailMessage): Promise<void> {
    await this.ses.send(new SendEmailCommand({
      FromEmailAddress: this.from,
      Destination: { ToAddresses: [message.to] },
      Content: {
        Simple: {
          Subject: { Data: message.subject, Charset: 'UTF-8' },
          Body: { Text: { Data: message.text, Charset: 'UTF-8' }, Html: { Data: message.html, Charset: 'UTF-8' } },
          ...(message.attachments?.length
            ? { Attachments: message.attachments.map((a) => ({ FileName: a.filename, ContentType: a.contentType, RawContent: a.content })) }
            : {}),
        },
      },
    }));
  }
}
