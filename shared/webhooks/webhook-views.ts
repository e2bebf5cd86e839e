import type { Delivery, Webhook } from '#shared/webhooks/webhooks.ts';

/** A webhook as returned: never its secret (decision 24). */
export function webhookView(webhook: Webhook) {
  const { id, url, events, active, createdAt, retrySchedule } = webhook;
  return { id, url, events, active, createdAt, retrySchedule, signedWith: webhook.secretSealed ? 'secret' as const : 'client_secret' as const };
}

export function deliveryView(delivery: Delivery) {
  const { id, webhookId, eventId, event, envelopeId, status, attempts, lastStatusCode, lastError, lastResponse, createdAt, lastAttemptAt, nextAttemptAt, deliveredAt } = delivery;
  return { id, webhookId, eventId, event, envelopeId, status, attempts, lastStatusCode, lastError, lastResponse, createdAt, lastAttemptAt, nextAttemptAt, deliveredAt };
}
