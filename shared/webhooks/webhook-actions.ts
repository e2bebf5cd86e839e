import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import { Conflict, NotFound, ValidationError } from '../kernel/errors.ts';
import { parseId } from '../kernel/ids.ts';
import type { EventOutboxItem, WebhookEventName } from '../notices/outbox.ts';
import { WEBHOOK_EVENTS } from '../notices/outbox.ts';
import { afterAttempt, eventPayload, newDelivery, overlapping, rotated, type Delivery, type RetrySchedule, type Webhook } from './webhooks.ts';
import type { ApplicationRepository, EnvelopeRepository, WebhookRepository } from '#shared/ports/repositories.ts';
import type { Clock, Ids, Metrics, SecretBox, WebhookSender, Workflows } from '#shared/ports/services.ts';
import { signatureHeader, signatureV2Header } from './webhook-signature.ts';
import type { WebhookAttemptInput } from '#shared/background/workflow-schemas.ts';

export interface WebhookDeps {
  config: Pick<Config, 'baseUrl'>;
  clock: Clock;
  ids: Ids;
  envelopes: EnvelopeRepository;
  applications: ApplicationRepository;
  webhooks: WebhookRepository;
  secrets: SecretBox;
  workflows: Workflows;
  webhookSender: WebhookSender;
  metrics: Metrics;
}

/** Sending one delivery and recording it: everything but starting the retry workflow. */
export type AttemptDeps = Omit<WebhookDeps, 'workflows'>;

export interface NewWebhook {
  url: string;
  events: string[];
  secret: string | null;
  retrySchedule: RetrySchedule;
}

export async function createWebhook(deps: AttemptDeps, appId: string, input: NewWebhook): Promise<Webhook> {
  const target = await deps.webhookSender.checkTarget(input.url);
  if (!target.ok) throw ValidationError.at('url', target.reason);
  const isEvent = (e: string): e is WebhookEventName => (WEBHOOK_EVENTS as readonly string[]).includes(e);
  const unknown = input.events.filter((e) => !isEvent(e));
  if (unknown.length > 0) throw ValidationError.at('events', `unknown event ${unknown.join(', ')}; known: ${WEBHOOK_EVENTS.join(', ')}`);
  const webhook: Webhook = {
    id: deps.ids.next(), appId, url: input.url, events: [...new Set(input.events.filter(isEvent))], active: true, retrySchedule: input.retrySchedule,
    secretSealed: input.secret ? await deps.secrets.seal(input.secret) : null, createdAt: deps.clock.now().toISOString(),
  };
  await deps.webhooks.put(webhook);
  return webhook;
}

export async function findWebhook(deps: Pick<WebhookDeps, 'webhooks'>, appId: string, rawId: string): Promise<Webhook> {
  const id = parseId('whk', rawId);
  const webhook = id ? await deps.webhooks.get(appId, id) : undefined;
  if (!webhook) throw new NotFound('Webhook not found');
  return webhook;
}

export async function deleteWebhook(deps: Pick<WebhookDeps, 'webhooks'>, appId: string, rawId: string): Promise<void> {
  const id = parseId('whk', rawId);
  if (!id || !(await deps.webhooks.delete(appId, id))) throw new NotFound('Webhook not found');
}

/** One delivery per (event, webhook): the id is derived from both, so a redelivered event finds it again (a replay adds its own id). */
export function deliveryIdFor(eventId: string, webhookId: string, replayId?: string): string {
  const hex = createHash('sha256').update(replayId ? `${eventId}:${webhookId}:${replayId}` : `${eventId}:${webhookId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** An HMAC key: the webhook's own secret, else (null) the application's client secret (decision 24). */
async function openKey(deps: AttemptDeps, appId: string, sealed: string | null): Promise<string> {
  if (sealed) return deps.secrets.open(sealed);
  const app = await deps.applications.get(appId);
  if (!app) throw new Error('The webhook\'s application no longer exists');
  return deps.secrets.open(app.secretSealed);
}

/** The current key first, then the replaced one while its overlap lasts. */
async function signingKeys(deps: AttemptDeps, webhook: Webhook): Promise<string[]> {
  const current = await openKey(deps, webhook.appId, webhook.secretSealed);
  const previous = overlapping(webhook, deps.clock.now());
  return previous ? [current, await openKey(deps, webhook.appId, previous.sealed)] : [current];
}

export interface SecretRotation {
  /** The new secret; generated when not given. */
  secret: string | null;
  /** How long the current key keeps signing beside the new one (0: stops at once). */
  expireCurrentInHours: number;
}

/**
 * Replaces the webhook's signing secret; the replaced key keeps signing too until the overlap ends. The write is
 * conditional on the key read, so of two rotations at once one answers 409 and every secret handed out verifies.
 */
export async function rotateWebhookSecret(deps: AttemptDeps, appId: string, rawId: string, input: SecretRotation) {
  const webhook = await findWebhook(deps, appId, rawId);
  const secret = input.secret ?? `whsec_${randomBytes(32).toString('base64url')}`;
  const next = rotated(webhook, await deps.secrets.seal(secret), input.expireCurrentInHours, deps.clock.now());
  if (!(await deps.webhooks.replaceSecret(next, webhook.secretSealed))) throw new Conflict('The webhook\'s secret changed meanwhile; read it again and retry');
  return { webhook: next, secret, previousSecretExpiresAt: next.rotatedFrom?.until ?? null };
}

/** One POST of the stored body; the delivery record after it. */
async function attempt(deps: AttemptDeps, webhook: Webhook, delivery: Delivery, manual = false): Promise<Delivery> {
  const [key = '', ...others] = await signingKeys(deps, webhook);
  // Every attempt is signed afresh: a retry hours later still falls within the receiver's tolerance.
  const timestamp = Math.floor(deps.clock.now().getTime() / 1000);
  const result = await deps.webhookSender.send({
    url: webhook.url, body: delivery.body,
    headers: {
      'x-service-signature': signatureHeader(delivery.body, key),
      'x-service-timestamp': String(timestamp), 'x-service-signature-v2': signatureV2Header(delivery.body, timestamp, [key, ...others]),
      'x-service-event': delivery.event,
      'x-service-event-id': delivery.eventId, 'x-service-delivery': delivery.id,
    },
  });
  const outcome = { ok: result.ok, statusCode: result.statusCode, error: result.ok ? null : result.error, responseSnippet: result.responseSnippet };
  const next = afterAttempt(delivery, outcome, webhook.retrySchedule, deps.clock.now());
  const settled = manual && next.status === 'pending' ? { ...next, status: 'failed' as const, nextAttemptAt: null } : next;
  await deps.webhooks.saveDelivery(settled);
  if (!result.ok) deps.metrics.count('WebhookDeliveryFailures');
  return settled;
}

export async function scheduleRetry(deps: Pick<WebhookDeps, 'clock' | 'workflows'>, delivery: Delivery): Promise<void> {
  if (delivery.status !== 'pending' || !delivery.nextAttemptAt) return;
  const waitSeconds = Math.max(0, Math.round((Date.parse(delivery.nextAttemptAt) - deps.clock.now().getTime()) / 1000));
  await deps.workflows.startWebhookRetry({
    appId: delivery.appId, webhookId: delivery.webhookId, deliveryId: delivery.id, attempt: delivery.attempts + 1, waitSeconds,
  });
}

/** The webhook.event job: one delivery per subscribed webhook, the first attempt at once, retries by workflow. */
export async function dispatchEvent(deps: WebhookDeps, event: EventOutboxItem): Promise<number> {
  const envelope = await deps.envelopes.find(event.envelopeId);
  if (!envelope) return 0;
  const subscribed = (await deps.webhooks.list(envelope.appId)).filter((w) => w.active && w.events.includes(event.event));
  const body = eventPayload(event, envelope, deps.config);
  for (const webhook of subscribed) {
    const delivery = newDelivery(webhook, event, body, deliveryIdFor(event.id, webhook.id), deps.clock.now());
    if (!(await deps.webhooks.createDelivery(delivery))) continue; // already handled by an earlier delivery of this job
    await scheduleRetry(deps, await attempt(deps, webhook, delivery));
  }
  return subscribed.length;
}

/** A retry workflow's attempt; `done` ends the execution. */
export async function retryAttempt(deps: AttemptDeps, input: WebhookAttemptInput) {
  const webhook = await deps.webhooks.get(input.appId, input.webhookId);
  const delivery = await deps.webhooks.getDelivery(input.appId, input.webhookId, input.deliveryId);
  if (!webhook || delivery?.status !== 'pending') return { ...input, done: true, waitSeconds: 0 };
  const next = await attempt(deps, webhook, delivery);
  const waitSeconds = next.nextAttemptAt ? Math.max(0, Math.round((Date.parse(next.nextAttemptAt) - deps.clock.now().getTime()) / 1000)) : 0;
  return { ...input, done: next.status !== 'pending', waitSeconds };
}

/** Manual resend from the console (decision 26): one attempt now, whatever the delivery's state. */
export async function resendDelivery(deps: AttemptDeps, appId: string, rawWebhookId: string, rawDeliveryId: string): Promise<Delivery> {
  const webhook = await findWebhook(deps, appId, rawWebhookId);
  const id = parseId('dlv', rawDeliveryId);
  const delivery = id ? await deps.webhooks.getDelivery(appId, webhook.id, id) : undefined;
  if (!delivery) throw new NotFound('Delivery not found');
  return attempt(deps, webhook, delivery, true);
}
