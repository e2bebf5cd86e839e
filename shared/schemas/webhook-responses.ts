/** Response bodies of the webhook routes: a webhook never carries its secret. */
import * as v from 'valibot';
import { WEBHOOK_EVENTS } from '#domain/outbox.ts';
import { uuid } from './response-primitives.ts';

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
