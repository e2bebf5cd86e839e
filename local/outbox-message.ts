/** One message the local service sent, as `GET /_local/outbox` lists it and the mailbox page shows it. */
export interface OutboxMessage {
  id: string;
  channel: 'email' | 'sms';
  to: string;
  subject: string | null;
  text: string;
  html: string | null;
  attachments: { filename: string; contentType: string; size: number }[];
  sentAt: string;
}
