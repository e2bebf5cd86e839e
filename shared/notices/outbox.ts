import type { EventItem, Job, NoticeItem } from '#shared/background/job-schemas.ts';
import type { LinkClaims } from '../kernel/tokens.ts';

export type { Job, JobMessage } from '#shared/background/job-schemas.ts';

export { WEBHOOK_EVENTS, type WebhookEventName } from '../webhooks/webhook-events.ts';

/**
 * How an outbox item's delivery went so far. An item is dispatched right after its commit; one that failed (or that
 * a crash left behind) is retried by the outbox sweep with backoff, and a message that keeps failing is dead-lettered
 * (kept with `deadAt`, out of the sweep) with an audit event on its envelope.
 */
export interface OutboxDelivery {
  /** Failed dispatches so far. */
  attempts?: number;
  /** When the sweep may try again (ISO); absent: a minute after `createdAt`. */
  nextAttemptAt?: string;
  lastError?: string | null;
  deadAt?: string | null;
}

/** A webhook event, written in the same transaction as the change that raised it (its shape: shared/background/job-schemas.ts). */
export interface EventOutboxItem extends EventItem, OutboxDelivery {}

export interface Invitation {
  link: LinkClaims;
  channels: ('email' | 'sms')[];
}

/**
 * Invitations to a routing group, sent after the commit; the item shrinks as each is sent and goes when empty.
 * Reminders (decision 37) have the same shape: the same link, in other words.
 */
export interface InvitationOutboxItem extends OutboxDelivery {
  kind: 'notify';
  id: string;
  envelopeId: string;
  template: 'invitation' | 'signing_reminder';
  createdAt: string;
  invitations: Invitation[];
}

/** The completion email (sealed copy attached, or a portal link) to each download-link recipient; shrinks likewise. */
export interface CompletionOutboxItem extends OutboxDelivery {
  kind: 'notify';
  id: string;
  envelopeId: string;
  template: 'completion';
  createdAt: string;
  linkIds: string[];
}

export type NoticeKind = NoticeItem['notice'];

/** A notice (its shape and who gets it: shared/background/job-schemas.ts), shrinking as each recipient is sent theirs. */
export interface NoticeOutboxItem extends NoticeItem, OutboxDelivery {}

/** Deliveries of one jobs-queue message before the queue moves it to its dead-letter queue. */
export const JOBS_MAX_RECEIVES = 5;

export interface JobOutboxItem extends OutboxDelivery {
  kind: 'job';
  id: string;
  envelopeId: string;
  createdAt: string;
  job: Job;
}

/** A deletion reminder to one download-link recipient (decision 33). */
export interface ReminderOutboxItem extends OutboxDelivery {
  kind: 'reminder';
  id: string;
  envelopeId: string;
  createdAt: string;
  linkId: string;
  daysBefore: number;
}

export type OutboxItem = EventOutboxItem | InvitationOutboxItem | CompletionOutboxItem | NoticeOutboxItem | JobOutboxItem | ReminderOutboxItem;

/** Emails and texts: after this many failed dispatches the item is dead-lettered (jobs and events keep retrying). */
export const MAX_MESSAGE_ATTEMPTS = 6;

/** Minutes before the sweep retries after the n-th failure (1-based); the last value repeats. */
export const OUTBOX_BACKOFF_MINUTES = [1, 5, 30, 120, 480] as const;

export const isMessage = (item: OutboxItem) => item.kind === 'notify' || item.kind === 'reminder';
