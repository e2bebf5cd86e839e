import type { Delivery, DeliveryStatus, Webhook } from '#shared/webhooks/webhooks.ts';
import type { WebhookRepository, WebhookSubscriptions } from '#shared/ports/repositories.ts';
import { byKey, copy } from './memory-table.ts';

const webhookKey = (appId: string, id: string) => `${appId}#${id}`;
const deliveryKey = (appId: string, webhookId: string, id: string) => `${appId}#${webhookId}#${id}`;

/** Webhooks listed by id; deliveries newest first by their time-ordered id, as the table's sort keys order them. */
export class MemoryWebhookRepository implements WebhookRepository {
  private readonly webhooks = new Map<string, Webhook>();
  private readonly deliveryStore = new Map<string, Delivery>();
  /** Per application: advanced by every webhook put or delete, as the Dynamo adapter's subscriptions item is. */
  private readonly versions = new Map<string, number>();

  /** The subscriptions' version now: what an envelope commit that skipped events checks (MemoryEnvelopeRepository). */
  subscriptionVersion(appId: string): number {
    return this.versions.get(appId) ?? 0;
  }

  private changed(appId: string): void {
    this.versions.set(appId, this.subscriptionVersion(appId) + 1);
  }

  async subscriptions(appId: string): Promise<WebhookSubscriptions> {
    const events = new Set((await this.list(appId)).filter((w) => w.active).flatMap((w) => w.events));
    return { version: this.subscriptionVersion(appId), events: [...events].sort() };
  }

  list(appId: string): Promise<Webhook[]> {
    const found = [...this.webhooks.values()].filter((w) => w.appId === appId).sort((a, b) => byKey(a.id, b.id));
    return Promise.resolve(found.map(copy));
  }

  get(appId: string, id: string): Promise<Webhook | undefined> {
    const webhook = this.webhooks.get(webhookKey(appId, id));
    return Promise.resolve(webhook && copy(webhook));
  }

  put(webhook: Webhook): Promise<void> {
    this.webhooks.set(webhookKey(webhook.appId, webhook.id), copy(webhook));
    this.changed(webhook.appId);
    return Promise.resolve();
  }

  replaceSecret(webhook: Webhook, expectedSealed: string | null): Promise<boolean> {
    const stored = this.webhooks.get(webhookKey(webhook.appId, webhook.id));
    if (stored?.secretSealed !== expectedSealed) return Promise.resolve(false);
    this.webhooks.set(webhookKey(webhook.appId, webhook.id), copy(webhook));
    return Promise.resolve(true);
  }

  delete(appId: string, id: string): Promise<boolean> {
    const deleted = this.webhooks.delete(webhookKey(appId, id));
    if (deleted) this.changed(appId);
    return Promise.resolve(deleted);
  }

  createDelivery(delivery: Delivery): Promise<boolean> {
    const key = deliveryKey(delivery.appId, delivery.webhookId, delivery.id);
    if (this.deliveryStore.has(key)) return Promise.resolve(false);
    this.deliveryStore.set(key, copy(delivery));
    return Promise.resolve(true);
  }

  saveDelivery(delivery: Delivery): Promise<void> {
    this.deliveryStore.set(deliveryKey(delivery.appId, delivery.webhookId, delivery.id), copy(delivery));
    return Promise.resolve();
  }

  getDelivery(appId: string, webhookId: string, id: string): Promise<Delivery | undefined> {
    const delivery = this.deliveryStore.get(deliveryKey(appId, webhookId, id));
    return Promise.resolve(delivery && copy(delivery));
  }

  deliveries(appId: string, webhookId: string, status: DeliveryStatus | null, limit: number): Promise<Delivery[]> {
    const found = [...this.deliveryStore.values()]
      .filter((d) => d.appId === appId && d.webhookId === webhookId && (status === null || d.status === status))
      .sort((a, b) => byKey(b.id, a.id));
    return Promise.resolve(found.slice(0, limit).map(copy));
  }
}
