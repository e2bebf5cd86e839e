import type { EnvelopeChange } from '../kernel/change.ts';
import type { EventOutboxItem } from '../notices/outbox.ts';
import type { WebhookRepository, WebhookSubscriptions } from '#shared/ports/repositories.ts';

export type SubscriptionSource = Pick<WebhookRepository, 'subscriptions'>;

/**
 * Only subscribed events are queued (decision 47). Each application's webhook subscriptions as this container last
 * read them, per repository. Never refreshed on a clock: a commit that skips an event on a cached answer names its
 * version, and the transaction checks it, so a stale answer fails that commit (SubscriptionsChanged), is forgotten
 * here, and the decision runs again on a fresh one.
 */
const cache = new WeakMap<SubscriptionSource, Map<string, Promise<WebhookSubscriptions>>>();

function cachedFor(source: SubscriptionSource): Map<string, Promise<WebhookSubscriptions>> {
  let byApp = cache.get(source);
  if (!byApp) cache.set(source, byApp = new Map<string, Promise<WebhookSubscriptions>>());
  return byApp;
}

function subscriptionsOf(source: SubscriptionSource, appId: string): Promise<WebhookSubscriptions> {
  const byApp = cachedFor(source);
  let found = byApp.get(appId);
  if (!found) {
    found = source.subscriptions(appId);
    byApp.set(appId, found);
    found.catch(() => { byApp.delete(appId); });
  }
  return found;
}

/** Drops what this container knows of the application's subscriptions (a commit found them changed). */
export function forgetSubscriptions(source: SubscriptionSource | undefined, appId: string): void {
  if (source) cache.get(source)?.delete(appId);
}

/**
 * The change with the webhook events no active webhook subscribes to moved from the outbox (queued for delivery) to
 * `logged` (only the event log), guarded by the subscriptions' version. An event some webhook subscribes to stays
 * in the outbox, whatever the cache says of the others; without a source nothing is moved.
 */
export async function withSubscribedEvents(source: SubscriptionSource | undefined, change: EnvelopeChange): Promise<EnvelopeChange> {
  const events = change.outbox.filter((item): item is EventOutboxItem => item.kind === 'event');
  if (!source || events.length === 0) return change;
  const appId = change.after.appId;
  const subscribed = await subscriptionsOf(source, appId);
  const unheard = new Set(events.filter((e) => !subscribed.events.includes(e.event)));
  if (unheard.size === 0) return change;
  return {
    ...change,
    outbox: change.outbox.filter((item) => !unheard.has(item as EventOutboxItem)),
    logged: [...(change.logged ?? []), ...unheard],
    subscriptions: { appId, version: subscribed.version },
  };
}
