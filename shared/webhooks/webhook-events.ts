/** Webhook event names a subscription may list (decision 22). */
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
  // Sent only to subscriptions that list it, like every event: the ones made before it existed never do.
  'signer.reassigned',
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];
