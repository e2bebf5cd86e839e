import type { SmsMessage, SmsSender } from '#shared/ports/services.ts';

export interface CapturedSms extends SmsMessage {
  id: string;
  sentAt: string;
}

/** Local stand-in for SNS SMS: keeps every message for `GET /_local/outbox`. */
export class SmsOutbox implements SmsSender {
  readonly messages: CapturedSms[] = [];

  constructor(private readonly now: () => Date, private readonly nextId: () => string) {}

  send(message: SmsMessage): Promise<void> {
    this.messages.push({ ...message, id: this.nextId(), sentAt: this.now().toISOString() });
    return Promise.resolve();
  }
}
