/** Response bodies of the webhook routes: a webhook never carries its secret. */
import * as v from 'valibot';
import { ENVELOPE_STATUSES, SIGNER_STATUSES } from '#shared/kernel/model.ts';
import { WEBHOOK_EVENTS } from '#shared/notices/outbox.ts';
import { count, uuid } from '../http/response-primitives.ts';

export const WebhookResponse = v.object({
  id: uuid,
  url: v.pipe(v.string(), v.url()),
  events: v.array(v.picklist(WEBHOOK_EVENTS)),
  active: v.boolean(),
  createdAt: v.pipe(v.string(), v.isoTimestamp()),
  retrySchedule: v.pipe(v.picklist(['A', 'B']), v.description('B (default): 1 min, 10 min, 1 h, 6 h between attempts; A: 30 s, 2 min, 10 min, 1 h; five attempts in all, then the delivery is `failed`')),
  signedWith: v.pipe(v.picklist(['secret', 'client_secret']), v.description('Which key signs X-Service-Signature: the webhook\'s own `secret`, else the application\'s client secret; the secret itself is never returned')),
});

export const WebhookListResponse = v.array(WebhookResponse);

export const DeliveryResponse = v.object({
  id: uuid,
  webhookId: uuid,
  eventId: v.pipe(v.string(), v.description('The event id: the same on every delivery of this event')),
  event: v.picklist(WEBHOOK_EVENTS),
  envelopeId: uuid,
  status: v.picklist(['pending', 'delivered', 'failed']),
  attempts: v.pipe(v.number(), v.integer(), v.description('Attempts made so far (at most 5 on the automatic schedule)')),
  lastStatusCode: v.nullable(v.pipe(v.number(), v.integer())),
  lastError: v.nullable(v.string()),
  lastResponse: v.nullable(v.pipe(v.string(), v.description('The first bytes of the receiver\'s last answer'))),
  createdAt: v.pipe(v.string(), v.isoTimestamp()),
  lastAttemptAt: v.nullable(v.pipe(v.string(), v.isoTimestamp())),
  nextAttemptAt: v.nullable(v.pipe(v.string(), v.isoTimestamp())),
  deliveredAt: v.nullable(v.pipe(v.string(), v.isoTimestamp())),
});

export const DeliveryListResponse = v.object({ data: v.array(DeliveryResponse) });

/* The answers of the routes that rotate a webhook's secret, list the event log and replay it. */

export const SecretRotationResponse = v.object({
  ...WebhookResponse.entries,
  secret: v.pipe(v.nullable(v.string()), v.description('The new signing secret: shown this once, never again (null in the answer to an Idempotency-Key repeat)')),
  previousSecretExpiresAt: v.nullable(v.pipe(v.string(), v.isoTimestamp(), v.description('Until when the previous secret also signs; null: it stopped at once'))),
});

const maybeInstant = v.nullable(v.pipe(v.string(), v.isoTimestamp()));

/** An event as the log keeps it: the body its webhook deliveries carry, as the envelope was when it happened. */
export const EventResponse = v.pipe(v.object({
  id: v.pipe(v.string(), v.description('The event id: the same in every delivery of this event')),
  event: v.picklist(WEBHOOK_EVENTS),
  createdAt: v.pipe(v.string(), v.isoTimestamp()),
  envelopeId: uuid,
  completedAt: maybeInstant,
  documentUrl: v.pipe(v.string(), v.url()),
  data: v.object({
    envelopeId: uuid, tenantId: v.string(), subject: v.nullable(v.string()), status: v.picklist(ENVELOPE_STATUSES), completedAt: maybeInstant,
    documentUrl: v.pipe(v.string(), v.url()), signerId: v.nullable(uuid),
    signers: v.array(v.object({ id: uuid, name: v.string(), email: v.string(), status: v.picklist(SIGNER_STATUSES), signedAt: maybeInstant })),
  }),
}), v.description('An event, in the shape of the webhook body'));

export const EventListResponse = v.object({
  data: v.array(EventResponse),
  nextCursor: v.pipe(v.string(), v.description('Pass as `after` to read on; keep it to poll for newer events later')),
  hasMore: v.pipe(v.boolean(), v.description('True: more events are there now, read on at once; false: caught up')),
});

export const ReplayResponse = v.object({
  replayId: uuid,
  webhookId: uuid,
  queued: v.pipe(count, v.description('Events of the range the webhook subscribes to, queued for delivery')),
  more: v.pipe(v.boolean(), v.description('True: the range holds more than one replay delivers; replay the rest from the last queued event on')),
});
