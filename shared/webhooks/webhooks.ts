import type { Config } from '../config.ts';
import type { Envelope } from '../kernel/model.ts';
import { loggedEventOf, type LoggedEvent } from './event-log.ts';
import type { EventOutboxItem, WebhookEventName } from '../notices/outbox.ts';

export type RetrySchedule = 'A' | 'B';

/** Waits before attempts 2..5 (the first is immediate): schedule B by default, A on request (decision 25). */
export const RETRY_WAITS: Record<RetrySchedule, readonly number[]> = {
  A: [30, 120, 600, 3600],
  B: [60, 600, 3600, 21_600],
};
export const MAX_ATTEMPTS = 5;

export interface Webhook {
  id: string;
  appId: string;
  url: string;
  events: WebhookEventName[];
  active: boolean;
  retrySchedule: RetrySchedule;
  /** The signing secret sealed by the SecretBox; null signs with the client secret (decision 24). */
  secretSealed: string | null;
  /**
   * The key a rotation replaced, still signing beside the new one until `until` (ISO) so receivers can switch over
   * without missing a delivery; `sealed` null: it was the client secret. Absent or null: only the current key signs.
   */
  rotatedFrom?: { sealed: string | null; until: string } | null;
  createdAt: string;
}

/** How long a replaced secret may keep signing after a rotation, at most, and by default. */
export const MAX_ROTATION_OVERLAP_HOURS = 72;
export const DEFAULT_ROTATION_OVERLAP_HOURS = 24;

/** The webhook after its secret is replaced by `sealed`: the current key overlaps it for `overlapHours` (0: stops at once). */
export function rotated(webhook: Webhook, sealed: string, overlapHours: number, now: Date): Webhook {
  const until = new Date(now.getTime() + overlapHours * 3_600_000).toISOString();
  return { ...webhook, secretSealed: sealed, rotatedFrom: overlapHours > 0 ? { sealed: webhook.secretSealed, until } : null };
}

/** The replaced key while it still signs: until the overlap's end, exclusive. */
export function overlapping(webhook: Webhook, now: Date): { sealed: string | null; until: string } | null {
  const previous = webhook.rotatedFrom;
  return previous && now.getTime() < Date.parse(previous.until) ? previous : null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface Delivery {
  id: string;
  appId: string;
  webhookId: string;
  eventId: string;
  event: WebhookEventName;
  envelopeId: string;
  /** The exact body sent on every attempt, so redeliveries carry the same event id and bytes. */
  body: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastResponse: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
}

/** The event body that is both published shapes (decision 23): flat fields plus `data`. */
export function eventPayload(event: EventOutboxItem, envelope: Envelope, config: Pick<Config, 'baseUrl'>): string {
  return eventBody(loggedEventOf(event, envelope), config);
}

/** The same body from the event log's record of the event: what a list or a replay shows. */
export function eventBody(logged: LoggedEvent, config: Pick<Config, 'baseUrl'>): string {
  return JSON.stringify(eventObject(logged, config));
}

export function eventObject(logged: LoggedEvent, config: Pick<Config, 'baseUrl'>) {
  const { envelope } = logged;
  const kind = envelope.status === 'completed' ? 'sealed' : 'original';
  const documentUrl = `${config.baseUrl}/v1/envelopes/${logged.envelopeId}/document?kind=${kind}`;
  return {
    id: logged.id,
    event: logged.event,
    createdAt: logged.createdAt,
    envelopeId: logged.envelopeId,
    completedAt: envelope.completedAt,
    documentUrl,
    data: {
      envelopeId: logged.envelopeId, tenantId: logged.tenantId, subject: envelope.subject, status: envelope.status,
      completedAt: envelope.completedAt, documentUrl, signerId: logged.signerId, signers: envelope.signers,
    },
  };
}

export function newDelivery(webhook: Webhook, event: Pick<EventOutboxItem, 'id' | 'event' | 'envelopeId'>, body: string, id: string, now: Date): Delivery {
  return {
    id, appId: webhook.appId, webhookId: webhook.id, eventId: event.id, event: event.event, envelopeId: event.envelopeId, body,
    status: 'pending', attempts: 0, lastStatusCode: null, lastError: null, lastResponse: null, createdAt: now.toISOString(),
    lastAttemptAt: null, nextAttemptAt: null, deliveredAt: null,
  };
}

export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  responseSnippet: string | null;
}

/** The delivery after one attempt: delivered, waiting for the next attempt, or failed after the fifth. */
export function afterAttempt(delivery: Delivery, outcome: AttemptOutcome, schedule: RetrySchedule, now: Date): Delivery {
  const attempts = delivery.attempts + 1;
  const base = {
    ...delivery, attempts, lastStatusCode: outcome.statusCode, lastError: outcome.error, lastResponse: outcome.responseSnippet,
    lastAttemptAt: now.toISOString(),
  };
  if (outcome.ok) return { ...base, status: 'delivered', deliveredAt: now.toISOString(), nextAttemptAt: null };
  const wait = RETRY_WAITS[schedule][attempts - 1];
  if (attempts >= MAX_ATTEMPTS || wait === undefined) return { ...base, status: 'failed', nextAttemptAt: null };
  return { ...base, status: 'pending', nextAttemptAt: new Date(now.getTime() + wait * 1000).toISOString() };
}
