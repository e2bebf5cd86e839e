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
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];
