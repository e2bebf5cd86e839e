import * as v from 'valibot';
import { queryInt } from './common.ts';

export const CreateWebhookRequest = v.object({
  url: v.pipe(v.string('is required'), v.trim(), v.url('must be an absolute URL'), v.maxLength(2048, 'must be at most 2048 characters')),
  events: v.pipe(v.array(v.string('must be event names'), 'must be an array of event names'), v.minLength(1, 'at least one event is required'), v.maxLength(20, 'has too many entries')),
  secret: v.optional(v.nullable(v.pipe(v.string('must be a string'), v.minLength(16, 'must be at least 16 characters'), v.maxLength(256, 'must be at most 256 characters'))), null),
  retrySchedule: v.optional(v.picklist(['A', 'B'], 'must be A or B'), 'B'),
});

export const DeliveriesQuery = v.object({
  status: v.optional(v.picklist(['pending', 'delivered', 'failed'], 'must be pending, delivered or failed')),
  limit: queryInt(1, 100, 50),
});

export const DeliveryParams = v.object({ id: v.string(), deliveryId: v.string() });
