import * as v from 'valibot';
import { MAX_ROTATION_OVERLAP_HOURS, DEFAULT_ROTATION_OVERLAP_HOURS } from '#domain/webhooks.ts';
import { queryInt } from './common.ts';

const secret = v.pipe(v.string('must be a string'), v.minLength(16, 'must be at least 16 characters'), v.maxLength(256, 'must be at most 256 characters'));

export const CreateWebhookRequest = v.object({
  url: v.pipe(v.string('is required'), v.trim(), v.url('must be an absolute URL'), v.maxLength(2048, 'must be at most 2048 characters')),
  events: v.pipe(v.array(v.string('must be event names'), 'must be an array of event names'), v.minLength(1, 'at least one event is required'), v.maxLength(20, 'has too many entries')),
  secret: v.optional(v.nullable(secret), null),
  retrySchedule: v.optional(v.picklist(['A', 'B'], 'must be A or B'), 'B'),
});

export const DeliveriesQuery = v.object({
  status: v.optional(v.picklist(['pending', 'delivered', 'failed'], 'must be pending, delivered or failed')),
  limit: queryInt(1, 100, 50),
});

export const DeliveryParams = v.object({ id: v.string(), deliveryId: v.string() });

export const RotateSecretRequest = v.object({
  secret: v.optional(v.nullable(v.pipe(secret, v.description('The new secret; omitted: one is generated and returned'))), null),
  expireCurrentInHours: v.optional(v.pipe(
    v.number('must be a number of hours'), v.integer('must be a whole number of hours'),
    v.minValue(0, 'must be at least 0'), v.maxValue(MAX_ROTATION_OVERLAP_HOURS, `must be at most ${String(MAX_ROTATION_OVERLAP_HOURS)}`),
    v.description('How long the current secret keeps signing beside the new one'),
  ), DEFAULT_ROTATION_OVERLAP_HOURS),
});
