import type { EnvelopeChange } from '../kernel/change.ts';
import type { Envelope, SignerStatus } from '../kernel/model.ts';
import type { EventOutboxItem, WebhookEventName } from '../notices/outbox.ts';

/** How long the event log keeps an event: long enough for a receiver that was down to catch up. */
export const EVENT_LOG_DAYS = 30;
export const EVENT_LOG_MS = EVENT_LOG_DAYS * 86_400_000;

/**
 * One event as it happened: written by the commit of the change that raised it (never without it, never after), with
 * what the webhook body says about the envelope at that moment, so a list or a replay weeks later tells the same story.
 */
export interface LoggedEvent {
  id: string;
  appId: string;
  tenantId: string;
  envelopeId: string;
  event: WebhookEventName;
  signerId: string | null;
  createdAt: string;
  envelope: {
    subject: string | null;
    status: Envelope['status'];
    completedAt: string | null;
    signers: { id: string; name: string; email: string; status: SignerStatus; signedAt: string | null }[];
  };
}

export function loggedEventOf(item: EventOutboxItem, envelope: Envelope): LoggedEvent {
  const { subject, status, completedAt } = envelope;
  const signers = envelope.signers.map(({ id, name, email, status: s, signedAt }) => ({ id, name, email, status: s, signedAt }));
  return {
    id: item.id, appId: envelope.appId, tenantId: envelope.tenantId, envelopeId: envelope.id, event: item.event, signerId: item.signerId,
    createdAt: item.createdAt, envelope: { subject, status, completedAt, signers },
  };
}

/** The log entries a change writes: one per webhook event in its outbox, in the same transaction. */
export function loggedEventsOf(change: EnvelopeChange): LoggedEvent[] {
  return [...change.outbox, ...(change.logged ?? [])].flatMap((item) => (item.kind === 'event' ? [loggedEventOf(item, change.after)] : []));
}

/** When the table may drop an entry (epoch seconds): kept a day past the window, which the reader enforces itself. */
export const loggedEventExpiry = (event: LoggedEvent) => Math.ceil((Date.parse(event.createdAt) + EVENT_LOG_MS + 86_400_000) / 1000);

export interface EventLogQuery {
  appId: string;
  type: WebhookEventName | null;
  envelopeId: string | null;
  /** Only events created at or after / before (ISO). */
  since: string | null;
  until: string | null;
  /** The position after which to read (from an earlier page's cursor); null: from the oldest. */
  after: string | null;
  limit: number;
}

export interface EventLogPage {
  data: LoggedEvent[];
  /** The position to read on from: the last event read, or, with nothing new, the position given. */
  position: string | null;
  /** True when the log holds more past `position` (read on at once); false: caught up for now. */
  hasMore: boolean;
}

/** What a page keeps: the query's type, envelope and time window (the caller's `since` is never older than the log keeps). */
export function matches(event: LoggedEvent, query: EventLogQuery): boolean {
  return (query.type === null || event.event === query.type)
    && (query.envelopeId === null || event.envelopeId === query.envelopeId)
    && (query.since === null || event.createdAt >= query.since)
    && (query.until === null || event.createdAt < query.until);
}
