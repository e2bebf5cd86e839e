/** One message the local service sent, as `GET /_local/outbox` lists it and the mailbox page shows it. */
export interface OutboxMessage {
  id: string;
  channel: 'email' | 'sms';
  to: string;
  /** The sender as the recipient sees it (an SMS has none). */
  from: { name: string | null; address: string } | null;
  replyTo: string[];
  subject: string | null;
  text: string;
  html: string | null;
  attachments: { filename: string; contentType: string; size: number }[];
  sentAt: string;
}
