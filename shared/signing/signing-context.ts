import type { AuditDraft } from '../kernel/audit-chain.ts';
import { changeOf, expireIfDue, type Ctx, type EnvelopeChange } from '../envelopes/envelope.ts';
import { ConcurrentModification, Conflict, NotFound, SubscriptionsChanged } from '../kernel/errors.ts';
import { parseId } from '../kernel/ids.ts';
import type { Envelope, RequestMeta } from '../kernel/model.ts';
import { isMessage, MAX_MESSAGE_ATTEMPTS, OUTBOX_BACKOFF_MINUTES, type OutboxItem } from '../notices/outbox.ts';
import { dispatchItem, PartlySent, type DispatchDeps } from '../notices/notification-actions.ts';
import { forgetSubscriptions, withSubscribedEvents, type SubscriptionSource } from '../webhooks/subscribed-events.ts';

export type { Carriers } from '../notices/notification-actions.ts';

/**
 * What every envelope use case needs: time, ids, the repository, and those carriers of a commit's outbox the function
 * has; with the webhooks' subscriptions, events nobody subscribes to are logged without being queued.
 */
export type CoreDeps = DispatchDeps & { webhooks?: SubscriptionSource };

/** Background work and lazy expiry act as the system: no address, no user agent. */
export const SYSTEM: RequestMeta = { ip: null, userAgent: null };

export function contextOf(deps: Pick<CoreDeps, 'clock' | 'ids'>, meta: RequestMeta): Ctx {
  return { now: deps.clock.now(), nextId: () => deps.ids.next(), meta };
}

/** What a decision answers: the change to commit (null: nothing to write) and the caller's result. */
export interface Decision<R> {
  change: EnvelopeChange | null;
  result: R;
}

/** A pure decision over the current envelope; it may compute (a link's hash) but never write anywhere. */
export type Decide<R> = (envelope: Envelope, ctx: Ctx) => Decision<R> | Promise<Decision<R>>;

/** The decision as committed, and the envelope as it now stands. */
export interface Transacted<R> extends Decision<R> {
  envelope: Envelope;
}

const MAX_ATTEMPTS = 10;

/**
 * The one way to change an envelope: load it, apply a passed deadline first (lazy expiry, decision 11), run the
 * decision, commit its change in one transaction and dispatch what it queued (the outbox). On a lost
 * optimistic-lock race everything from the load runs again, so the decision sees the winner's state and decides
 * afresh; that is why it must be pure. Side effects belong before it (staged blobs, which the caller discards when
 * the decision refuses) or after it (outbox items, dispatched once the commit stands).
 * `load` may answer undefined (an envelope a worker no longer finds): then nothing is decided.
 */
export function transact<R>(deps: CoreDeps, meta: RequestMeta, load: () => Promise<Envelope>, decide: Decide<R>): Promise<Transacted<R>>;
export function transact<R>(deps: CoreDeps, meta: RequestMeta, load: () => Promise<Envelope | undefined>, decide: Decide<R>): Promise<Transacted<R> | undefined>;
export async function transact<R>(
  deps: CoreDeps, meta: RequestMeta, load: () => Promise<Envelope | undefined>, decide: Decide<R>,
): Promise<Transacted<R> | undefined> {
  for (let attempt = 1; ; attempt++) {
    const loaded = await load();
    if (!loaded) return undefined;
    try {
      const expiry = expireIfDue(loaded, contextOf(deps, SYSTEM));
      if (expiry) await commitChange(deps, expiry);
      const envelope = expiry?.after ?? loaded;
      const decision = await decide(envelope, contextOf(deps, meta));
      if (decision.change) await commitChange(deps, decision.change);
      return { ...decision, envelope: decision.change?.after ?? envelope };
    } catch (error) {
      if (!(error instanceof ConcurrentModification)) throw error;
      if (attempt >= MAX_ATTEMPTS) throw new Conflict('The envelope is being changed by another request; retry');
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * attempt));
    }
  }
}

/** The envelope as it stands now (a passed deadline applied), without changing anything else. */
export async function current(deps: CoreDeps, load: () => Promise<Envelope>): Promise<Envelope> {
  return (await transact(deps, SYSTEM, load, () => ({ change: null, result: null }))).envelope;
}

/** The caller's envelope as stored; 404 when unknown or another application's. */
export function envelopeOf(deps: Pick<CoreDeps, 'envelopes'>, appId: string, rawId: string): () => Promise<Envelope> {
  return async () => {
    const id = parseId('env', rawId);
    const envelope = id ? await deps.envelopes.get(appId, id) : undefined;
    if (!envelope) throw new NotFound('Envelope not found');
    return envelope;
  };
}

/** The caller's envelope as it stands now (a passed deadline is applied first, decision 11). */
export const loadEnvelope = (deps: CoreDeps, appId: string, rawId: string) => current(deps, envelopeOf(deps, appId, rawId));

/** transact on the caller's envelope (404 when unknown or another application's). */
export function mutateEnvelope<R>(deps: CoreDeps, appId: string, rawId: string, meta: RequestMeta, decide: Decide<R>): Promise<Transacted<R>> {
  return transact(deps, meta, envelopeOf(deps, appId, rawId), decide);
}

/** transact on any envelope by id, for workers: undefined when it no longer exists. */
export function transactById<R>(deps: CoreDeps, envelopeId: string, decide: Decide<R>): Promise<Transacted<R> | undefined> {
  return transact(deps, SYSTEM, () => deps.envelopes.find(envelopeId), decide);
}

/** The audit entry that tells the sender a message was given up on. */
function deadLetterDraft(envelope: Envelope, item: OutboxItem, error: string): AuditDraft {
  const attempts = item.attempts ?? 0;
  if (item.kind === 'notify' && item.template === 'invitation') {
    const signers = item.invitations.map((i) => envelope.signers.find((s) => s.id === i.link.signerId)).filter((s) => s !== undefined);
    return {
      event: 'signer.invitation_failed', actor: 'system', ip: null, userAgent: null,
      detail: { signers: signers.map((s) => ({ signerId: s.id, email: s.email })), attempts, error },
    };
  }
  const template = item.kind === 'notify' ? item.template : 'deletion_reminder';
  return { event: 'notification.failed', actor: 'system', ip: null, userAgent: null, detail: { template, outboxId: item.id, attempts, error } };
}

/**
 * A dispatch failed: the item (what is left of it) waits out its backoff for the sweep; a message that failed
 * MAX_MESSAGE_ATTEMPTS times is dead-lettered in the same transaction as an audit event the sender sees on the
 * envelope, and an alarm-level log line. Jobs and webhook events are never given up: they back off to hours.
 */
async function deferOrDeadLetter(deps: CoreDeps, envelope: Envelope, failed: OutboxItem, error: string): Promise<void> {
  const attempts = (failed.attempts ?? 0) + 1;
  const now = deps.clock.now();
  const item = { ...failed, attempts, lastError: error };
  if (!isMessage(item) || attempts < MAX_MESSAGE_ATTEMPTS) {
    const minutes = OUTBOX_BACKOFF_MINUTES[Math.min(attempts, OUTBOX_BACKOFF_MINUTES.length) - 1] ?? 480;
    await deps.envelopes.saveOutbox({ ...item, nextAttemptAt: new Date(now.getTime() + minutes * 60_000).toISOString() });
    deps.logger.warn('outbox dispatch failed; retried later', { envelopeId: envelope.id, outboxId: item.id, kind: item.kind, attempts, error, alarm: attempts >= MAX_MESSAGE_ATTEMPTS });
    return;
  }
  await transactById(deps, envelope.id, (current, ctx) => ({
    change: changeOf(current, current, [deadLetterDraft(current, item, error)], [{ ...item, deadAt: ctx.now.toISOString() }], ctx),
    result: null,
  }));
  deps.metrics.count('OutboxDeadLetters');
  deps.logger.error('outbox message dead-lettered', { envelopeId: envelope.id, outboxId: item.id, kind: item.kind, attempts, error, alarm: true });
}

/** A seal round's start: a second start of that round is refused and ignored (its execution is named after it). */
const startsSealRound = (item: OutboxItem) => item.kind === 'job' && item.job.type === 'seal';

/**
 * Carries out what a committed change queued (messages, jobs, workflows), then removes those outbox items, with the
 * earlier ones the change `settles`. A failure keeps the item (what is left of it) for the sweep, with backoff; it
 * never undoes the change itself. An item this function has no carrier for (no mailer, say) stays as it is, due for
 * the sweep a minute after its commit. Right after its commit (`afterCommit`), a seal round's start is kept too: the
 * commit that ends the round removes it with its own items (one delete less per envelope), and a sweep that finds it
 * first starts the round again, which is refused and ignored, and removes it.
 */
export async function dispatchOutbox(deps: CoreDeps, envelope: Envelope, items: readonly OutboxItem[], settles: readonly string[] = [], afterCommit = false): Promise<void> {
  const done: string[] = [...settles];
  for (const item of items) {
    if (item.deadAt) continue;
    try {
      if (await dispatchItem(deps, envelope, item) && !(afterCommit && startsSealRound(item))) done.push(item.id);
    } catch (error) {
      const rest = error instanceof PartlySent ? error.rest : item;
      const cause: unknown = error instanceof PartlySent ? error.cause : error;
      await deferOrDeadLetter(deps, envelope, rest, (cause as Error | undefined)?.message ?? String(cause));
    }
  }
  // one key once: a batch naming a key twice is refused
  if (done.length > 0) await deps.envelopes.removeOutbox(envelope.id, [...new Set(done)]);
}

/**
 * Commits a change, then carries out what it queued: how a transaction's outbox leaves the building. A webhook event
 * no webhook subscribes to is only logged; if the subscriptions changed meanwhile the commit fails as a lost race.
 */
export async function commitChange(deps: CoreDeps, change: EnvelopeChange): Promise<void> {
  const committed = await withSubscribedEvents(deps.webhooks, change);
  try {
    await deps.envelopes.commit(committed);
  } catch (error) {
    if (error instanceof SubscriptionsChanged) forgetSubscriptions(deps.webhooks, error.appId);
    throw error;
  }
  for (const entry of committed.audit) deps.metrics.count('AuditEvents', 1, { name: 'event', value: entry.event });
  await dispatchOutbox(deps, committed.after, committed.outbox, committed.settles, true);
}

/** The outbox sweep: items a crash left undispatched, or whose backoff ran out, go out now (nothing is lost). */
export async function sweepOutbox(deps: CoreDeps, limit = 200): Promise<number> {
  const due = await deps.envelopes.staleOutbox(deps.clock.now(), limit);
  const byEnvelope = new Map<string, OutboxItem[]>();
  for (const item of due) byEnvelope.set(item.envelopeId, [...(byEnvelope.get(item.envelopeId) ?? []), item]);
  for (const [envelopeId, items] of byEnvelope) {
    const envelope = await deps.envelopes.find(envelopeId);
    if (envelope) await dispatchOutbox(deps, envelope, items);
    else await deps.envelopes.removeOutbox(envelopeId, items.map((i) => i.id));
  }
  return due.length;
}
