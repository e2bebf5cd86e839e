import { appendToChain, type AuditDraft, type AuditEntry } from './audit-chain.ts';
import { InvalidState } from './errors.ts';
import type { Envelope, RequestMeta } from './model.ts';
import type { EventOutboxItem, OutboxItem } from '../notices/outbox.ts';
import type { Submission } from '../signing/submission.ts';
import type { UsageIncrement } from '../console/usage.ts';

/** What a transition needs from the outside world: the time, fresh ids, and who asked. */
export interface Ctx {
  now: Date;
  nextId: () => string;
  meta: RequestMeta;
}

/** One committed state change: the new envelope, its audit entries and outbox items, in one transaction. */
export interface EnvelopeChange {
  before: Envelope | null;
  after: Envelope;
  audit: AuditEntry[];
  outbox: OutboxItem[];
  /** A signer's field values, written beside the envelope in the same transaction. */
  submission?: Submission;
  /** A send counts against the application's monthly quota in the same transaction (decision 30). */
  usage?: UsageIncrement;
  /** Stages whose blobs this change names: released in the same transaction (shared/envelopes/blob-staging.ts). */
  releases?: string[];
  /** Webhook events no webhook subscribes to: written to the event log, never queued (shared/webhooks/subscribed-events.ts). */
  logged?: EventOutboxItem[];
  /** The subscriptions `logged` was decided on: the commit fails (SubscriptionsChanged) when they changed since. */
  subscriptions?: { appId: string; version: number };
  /** Outbox items of earlier commits this one makes moot (its seal round's start): removed with its own once they are dispatched. */
  settles?: string[];
}

/** Builds the change from `before` to `after`, chaining the audit drafts and bumping the version. */
export function changeOf(
  before: Envelope | null, after: Envelope, drafts: AuditDraft[], outbox: OutboxItem[], ctx: Ctx,
): EnvelopeChange {
  const chained = appendToChain(after.id, after.auditHead, drafts, { timestamp: ctx.now.toISOString(), nextId: ctx.nextId });
  const next = { ...after, auditHead: chained.head, version: (before?.version ?? 0) + 1 };
  return { before, after: next, audit: chained.entries, outbox };
}

export function requireDraft(envelope: Envelope, action: string): void {
  if (envelope.status !== 'draft') {
    throw new InvalidState(`Cannot ${action}: the envelope is ${envelope.status}, not draft`);
  }
}
