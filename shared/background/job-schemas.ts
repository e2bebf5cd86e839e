/**
 * The jobs queue's messages, and the outbox items they carry: the one description of them. The domain takes the
 * inferred types (type-only imports, so it never loads valibot); the jobs worker parses each message with `JobMessage`.
 */
import * as v from 'valibot';
import { WEBHOOK_EVENTS } from '#shared/webhooks/webhook-events.ts';

const Person = v.object({ name: v.string(), email: v.string() });

/** A webhook event, written in the same transaction as the change that raised it. */
export const EventItem = v.object({
  kind: v.literal('event'), id: v.string(), envelopeId: v.string(), event: v.picklist(WEBHOOK_EVENTS), createdAt: v.string(), signerId: v.nullable(v.string()),
});
export type EventItem = v.InferOutput<typeof EventItem>;

export const NOTICE_KINDS = ['voided', 'declined', 'expired', 'otp_locked', 'reassigned'] as const;

/**
 * Who is told that the envelope ended early (void, decline, expiry): invited signers and carbon copies; that a
 * signer's link was locked after too many wrong one-time codes: the sender; that their place was handed to someone
 * else (reassignment): the person who no longer signs. Shrinks as each is sent.
 */
export const NoticeItem = v.object({
  kind: v.literal('notify'), template: v.literal('notice'), id: v.string(), envelopeId: v.string(), createdAt: v.string(),
  notice: v.picklist(NOTICE_KINDS),
  /** The void or decline reason. */
  reason: v.nullable(v.string()),
  /** Who declined. */
  declinedBy: v.nullable(v.string()),
  /** The signer whose link was locked (`otp_locked`). */
  lockedSigner: v.optional(v.nullable(Person)),
  /** The recipients' language when they are no longer on the envelope (`reassigned`: the person whose place was handed over). */
  locale: v.optional(v.nullable(v.string())),
  recipients: v.array(Person),
});
export type NoticeItem = v.InferOutput<typeof NoticeItem>;

const RoutingAdvance = v.object({ type: v.literal('routing.advance'), envelopeId: v.string(), routingOrder: v.number() });
const WebhookEvent = v.object({ type: v.literal('webhook.event'), event: EventItem });
const RetentionTag = v.object({ type: v.literal('retention.tag'), envelopeId: v.string() });
/** Notices go out from the jobs worker: expiry is applied by whichever function first loads the envelope. */
const NoticeSend = v.object({ type: v.literal('notice.send'), notice: NoticeItem });
/** Blobs no record names any more (a replaced draft document): deleted once the change that dropped them stands. */
const BlobsDelete = v.object({ type: v.literal('blobs.delete'), envelopeId: v.string(), keys: v.array(v.string()) });
/** One chunk of a bulk send's rows. */
const BulkRows = v.object({ type: v.literal('bulk.rows'), appId: v.string(), batchId: v.string(), chunk: v.number() });

/** A message on the jobs queue: what the jobs worker parses and runs. */
export const JobMessage = v.variant('type', [RoutingAdvance, WebhookEvent, RetentionTag, NoticeSend, BlobsDelete, BulkRows]);
export type JobMessage = v.InferOutput<typeof JobMessage>;

/** Sealing is a workflow, not a queue message: its outbox job starts the seal workflow's round `round` (default 1). */
export const SealJob = v.object({ type: v.literal('seal'), envelopeId: v.string(), round: v.optional(v.number()) });

/** Work for a background function, queued in an outbox after the commit: a jobs-queue message, or a seal round. */
export const Job = v.variant('type', [SealJob, ...JobMessage.options]);
export type Job = v.InferOutput<typeof Job>;
