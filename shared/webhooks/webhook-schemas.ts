import * as v from 'valibot';
import { MAX_ROTATION_OVERLAP_HOURS, DEFAULT_ROTATION_OVERLAP_HOURS } from '#shared/webhooks/webhooks.ts';
import { WEBHOOK_EVENTS } from '#shared/notices/outbox.ts';
import { idOf, queryInt } from '../http/common-schemas.ts';

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

/** An opaque cursor: the log position of the last event a page read, so the next page starts right after it. */
export const encodeCursor = (position: string | null) => Buffer.from(`p1:${position ?? ''}`, 'utf8').toString('base64url');
function decodeCursor(cursor: string): string | null | undefined {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!text.startsWith('p1:') || !/^[\w:.#-]{0,120}$/.test(text.slice(3))) return undefined;
  return text.slice(3) || null;
}

const instant = (what: string) => v.pipe(v.string(`must be an ISO 8601 timestamp (${what})`), v.isoTimestamp(`must be an ISO 8601 timestamp (${what})`), v.transform((iso) => new Date(iso).toISOString()));

export const EventsQuery = v.object({
  type: v.optional(v.picklist(WEBHOOK_EVENTS, `must be one of ${WEBHOOK_EVENTS.join(', ')}`)),
  envelopeId: v.optional(idOf('env', 'envelope')),
  since: v.optional(v.pipe(instant('the oldest event'), v.description('Only events created at or after this instant'))),
  until: v.optional(v.pipe(instant('before this'), v.description('Only events created before this instant'))),
  after: v.optional(v.pipe(
    v.string(), v.maxLength(200, 'is not a cursor this API returned'),
    v.check((cursor) => decodeCursor(cursor) !== undefined, 'is not a cursor this API returned'),
    v.transform((cursor) => decodeCursor(cursor) ?? null),
    v.description('The `nextCursor` of the previous page: the list goes on right after it'),
  )),
  limit: queryInt(1, 100, 50),
});

export const ReplayRequest = v.object({
  since: v.pipe(instant('the oldest event to deliver again'), v.description('Deliver again the events created at or after this instant (at most 30 days ago)')),
  until: v.optional(v.nullable(v.pipe(instant('before this'), v.description('... and before this one; absent: up to now')), null), null),
});
