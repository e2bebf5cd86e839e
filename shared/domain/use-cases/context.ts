import type { Ctx, EnvelopeChange } from '../envelope.ts';
import { expireIfDue } from '../envelope.ts';
import { ConcurrentModification, Conflict, NotFound } from '../errors.ts';
import { parseId } from '../ids.ts';
import type { Envelope, RequestMeta } from '../model.ts';
import type { EnvelopeRepository } from '#ports/repositories.ts';
import type { Clock, Ids } from '#ports/services.ts';
import { commitChange, type DispatchDeps } from './notifications.ts';

/** What every envelope use case needs: time, ids, the repository, and what a commit dispatches to. */
export interface CoreDeps extends DispatchDeps {
  clock: Clock;
  ids: Ids;
  envelopes: EnvelopeRepository;
}

export function contextOf(deps: Pick<CoreDeps, 'clock' | 'ids'>, meta: RequestMeta): Ctx {
  return { now: deps.clock.now(), nextId: () => deps.ids.next(), meta };
}

/** The caller's envelope, with a passed deadline applied first (DECISIONS 14); 404 when unknown or not theirs. */
export async function loadEnvelope(deps: CoreDeps, appId: string, rawId: string): Promise<Envelope> {
  const id = parseId('env', rawId);
  const envelope = id ? await deps.envelopes.get(appId, id) : undefined;
  if (!envelope) throw new NotFound('Envelope not found');
  return applyDueExpiry(deps, envelope, () => loadEnvelope(deps, appId, rawId));
}

/** Expires the envelope first if its deadline has passed (lazy expiry); `reload` re-reads after a lost race. */
export async function applyDueExpiry(deps: CoreDeps, envelope: Envelope, reload: () => Promise<Envelope>): Promise<Envelope> {
  const expiry = expireIfDue(envelope, contextOf(deps, { ip: null, userAgent: null }));
  if (!expiry) return envelope;
  try {
    await commitChange(deps, expiry);
    return expiry.after;
  } catch (error) {
    if (!(error instanceof ConcurrentModification)) throw error;
    return reload();
  }
}

const MAX_ATTEMPTS = 10;

type Outcome<C, R> = { change: C; result: R } | Promise<{ change: C; result: R }>;

/**
 * Load, transition, commit (and dispatch); on a lost optimistic-lock race, load again and rerun the transition.
 * Transitions are pure, so a retry sees the winner's state and decides afresh. A null change commits nothing.
 */
export async function commitWithRetry<S, C extends EnvelopeChange | null, R>(
  deps: CoreDeps, meta: RequestMeta, load: () => Promise<S>, transition: (state: S, ctx: Ctx) => Outcome<C, R>,
): Promise<{ change: C; result: R }> {
  for (let attempt = 1; ; attempt++) {
    const outcome = await transition(await load(), contextOf(deps, meta));
    if (!outcome.change) return outcome;
    try {
      await commitChange(deps, outcome.change);
      return outcome;
    } catch (error) {
      if (!(error instanceof ConcurrentModification)) throw error;
      if (attempt >= MAX_ATTEMPTS) throw new Conflict('The envelope is being changed by another request; retry');
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * attempt));
    }
  }
}

/** commitWithRetry on the caller's envelope (404 when unknown or another application's). */
export function mutateEnvelope<R>(
  deps: CoreDeps, appId: string, rawId: string, meta: RequestMeta, transition: (envelope: Envelope, ctx: Ctx) => Outcome<EnvelopeChange, R>,
): Promise<{ change: EnvelopeChange; result: R }> {
  return commitWithRetry(deps, meta, () => loadEnvelope(deps, appId, rawId), transition);
}
