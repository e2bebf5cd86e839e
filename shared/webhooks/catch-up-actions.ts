import { ValidationError } from '../kernel/errors.ts';
import { EVENT_LOG_MS, type EventLogPage, type LoggedEvent } from './event-log.ts';
import type { WebhookEventName } from '../notices/outbox.ts';
import { eventBody, newDelivery } from './webhooks.ts';
import { deliveryIdFor, findWebhook, scheduleRetry, type WebhookDeps } from './webhook-actions.ts';

export interface EventListInput {
  type: WebhookEventName | null;
  envelopeId: string | null;
  since: string | null;
  until: string | null;
  /** The position of an earlier page's cursor. */
  after: string | null;
  limit: number;
}

/** The first instant the log still answers for: anything older has left the window, even before the table drops it. */
const oldestKept = (now: Date) => new Date(now.getTime() - EVENT_LOG_MS).toISOString();

/** A page of the application's events, oldest first, from the log the commits write. */
export function listEvents(deps: Pick<WebhookDeps, 'envelopes' | 'clock'>, appId: string, input: EventListInput): Promise<EventLogPage> {
  const oldest = oldestKept(deps.clock.now());
  const since = input.since !== null && input.since > oldest ? input.since : oldest;
  return deps.envelopes.events({ appId, ...input, since });
}

/** The most events one replay request queues: each is a delivery record and a workflow start. */
export const MAX_REPLAY_EVENTS = 500;
/** Workflow starts in flight at once. */
const START_CONCURRENCY = 10;

export interface ReplayInput {
  since: string;
  until: string | null;
}

/**
 * Delivers the events of a time range again to one webhook, the ones it subscribes to, by the normal path: a delivery
 * record each (same event id and body, a fresh delivery id) and the retry workflow's attempts.
 */
export async function replayEvents(deps: Pick<WebhookDeps, 'config' | 'clock' | 'ids' | 'envelopes' | 'webhooks' | 'workflows'>, appId: string, rawWebhookId: string, input: ReplayInput) {
  const webhook = await findWebhook(deps, appId, rawWebhookId);
  const now = deps.clock.now();
  if (input.until !== null && input.until <= input.since) throw ValidationError.at('until', 'must be after since');
  const events: LoggedEvent[] = [];
  let after: string | null = null;
  let more = true;
  while (more && events.length < MAX_REPLAY_EVENTS) {
    const page = await listEvents(deps, appId, { type: null, envelopeId: null, since: input.since, until: input.until, after, limit: MAX_REPLAY_EVENTS - events.length });
    events.push(...page.data.filter((e) => webhook.events.includes(e.event)));
    more = page.hasMore;
    after = page.position;
  }
  const replayId = deps.ids.next();
  const queue = [...events];
  await Promise.all(Array.from({ length: START_CONCURRENCY }, async () => {
    for (let event = queue.shift(); event; event = queue.shift()) {
      const delivery = { ...newDelivery(webhook, event, eventBody(event, deps.config), deliveryIdFor(event.id, webhook.id, replayId), now), nextAttemptAt: now.toISOString() };
      if (await deps.webhooks.createDelivery(delivery)) await scheduleRetry(deps, delivery);
    }
  }));
  return { replayId, webhookId: webhook.id, queued: events.length, more };
}
