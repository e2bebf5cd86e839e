/** Webhook event names a subscription may list (spec 6.1 and DECISIONS 11). */
export const WEBHOOK_EVENTS = [
  'envelope.created',
  'envelope.sent',
  'envelope.completed',
  'envelope.declined',
  'envelope.voided',
  'envelope.expired',
  'signer.viewed',
  'signer.signed',
  'signer.declined',
  'signer.otp_failed',
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

/** A webhook event, written in the same transaction as the change that raised it. */
export interface EventOutboxItem {
  kind: 'event';
  id: string;
  envelopeId: string;
  event: WebhookEventName;
  createdAt: string;
  signerId: string | null;
}

/** The claims of a signing link, enough to mint the identical token again when the email goes out. */
export interface LinkClaims {
  jti: string;
  signerId: string;
  envelopeId: string;
  version: number;
  issuedAt: number; // epoch seconds
  expiresAt: number; // epoch seconds
}

export interface Invitation {
  link: LinkClaims;
  channels: ('email' | 'sms')[];
}

/** Invitations to a routing group, sent after the commit; the item shrinks as each is sent and goes when empty. */
export interface InvitationOutboxItem {
  kind: 'notify';
  id: string;
  envelopeId: string;
  template: 'invitation';
  createdAt: string;
  invitations: Invitation[];
}

/** Work for a background worker, dispatched to the jobs queue (or the sealing workflow) after the commit. */
export type Job =
  | { type: 'routing.advance'; envelopeId: string; routingOrder: number }
  | { type: 'seal'; envelopeId: string }
  | { type: 'webhook.event'; event: EventOutboxItem }
  | { type: 'retention.tag'; envelopeId: string };

export interface JobOutboxItem {
  kind: 'job';
  id: string;
  envelopeId: string;
  createdAt: string;
  job: Job;
}

/** A deletion reminder to one download-link recipient (spec 3.4). */
export interface ReminderOutboxItem {
  kind: 'reminder';
  id: string;
  envelopeId: string;
  createdAt: string;
  linkId: string;
  daysBefore: number;
}

export type OutboxItem = EventOutboxItem | InvitationOutboxItem | JobOutboxItem | ReminderOutboxItem;
