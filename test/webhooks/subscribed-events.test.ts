import { describe, expect, it } from 'vitest';
import { createEnvelope } from '#shared/envelopes/envelope.ts';
import { sendEnvelopeNow } from '#shared/envelopes/envelope-actions.ts';
import { commitChange, contextOf, SYSTEM } from '#shared/signing/signing-context.ts';
import type { WebhookEventName } from '#shared/notices/outbox.ts';
import type { Webhook } from '#shared/webhooks/webhooks.ts';
import { letterDocument, signerInput, withPages } from '#test/support/domain.ts';
import { memoryDeps } from '#test/support/memory-deps.ts';

const field = (signerIndex: number) => ({ signerIndex, type: 'signature' as const, page: 1, x: 72, y: 72, w: 200, h: 40, required: true, origin: 'bottom-left' as const });

type Deps = Awaited<ReturnType<typeof memoryDeps>>;

async function draft(deps: Deps): Promise<string> {
  const change = createEnvelope({
    id: deps.ids.next(), appId: 'app-1', tenantId: 'acme', subject: 'Lease', createdBy: null, expiresInDays: 10,
    fieldOrigin: 'bottom-left', ...withPages(letterDocument()), signers: [signerInput('a@example.com', 1)], fields: [field(0)],
  }, contextOf(deps, SYSTEM));
  await commitChange(deps, change);
  return change.after.id;
}

const webhook = (id: string, events: WebhookEventName[], active = true): Webhook => ({
  id, appId: 'app-1', url: 'https://example.com/hook', events, active, retrySchedule: 'A', secretSealed: null, createdAt: '2026-01-01T00:00:00.000Z',
});

const queued = (deps: Deps) => deps.sent.jobs.flatMap((j) => (j.type === 'webhook.event' ? [j.event.event] : []));
const logged = async (deps: Deps) => (await deps.envelopes.events({ appId: 'app-1', type: null, envelopeId: null, since: null, until: null, after: null, limit: 100 })).data.map((e) => e.event);

describe('webhook events nobody subscribes to', () => {
  it('are written to the event log but neither queued nor left in the outbox', async () => {
    const deps = await memoryDeps();
    const id = await draft(deps);
    await sendEnvelopeNow(deps, 'app-1', id, null, SYSTEM);
    expect(queued(deps)).toEqual([]);
    expect(await logged(deps)).toEqual(['envelope.created', 'envelope.sent']);
    expect(await deps.envelopes.pendingOutbox(id)).toEqual([]);
  });

  it('only the subscribed event of a change is queued; an inactive webhook subscribes to nothing', async () => {
    const deps = await memoryDeps();
    await deps.webhooks.put(webhook('w1', ['envelope.sent']));
    await deps.webhooks.put(webhook('w2', ['envelope.created'], false));
    const id = await draft(deps);
    await sendEnvelopeNow(deps, 'app-1', id, null, SYSTEM);
    expect(queued(deps)).toEqual(['envelope.sent']);
    expect(await logged(deps)).toEqual(['envelope.created', 'envelope.sent']);
  });

  it('a webhook created after the function cached "no subscriber" still gets the events committed after it', async () => {
    const deps = await memoryDeps();
    const id = await draft(deps); // caches the application's subscriptions: none
    expect(queued(deps)).toEqual([]);
    // Another function (the webhooks route) subscribes; this one's cache does not know.
    await deps.webhooks.put(webhook('w1', ['envelope.sent']));
    await sendEnvelopeNow(deps, 'app-1', id, null, SYSTEM);
    expect(queued(deps)).toEqual(['envelope.sent']);
    expect(await logged(deps)).toEqual(['envelope.created', 'envelope.sent']);
  });

  it('a webhook deleted after the function cached it only costs a queued event its job finds nobody for', async () => {
    const deps = await memoryDeps();
    await deps.webhooks.put(webhook('w1', ['envelope.created', 'envelope.sent']));
    const id = await draft(deps);
    await deps.webhooks.delete('app-1', 'w1');
    await sendEnvelopeNow(deps, 'app-1', id, null, SYSTEM);
    expect(queued(deps)).toEqual(['envelope.created', 'envelope.sent']);
  });
});
