import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import type { EnvelopeChange } from '#shared/kernel/change.ts';
import { ConcurrentModification } from '#shared/kernel/errors.ts';
import type { EventLogPage, EventLogQuery } from '#shared/webhooks/event-log.ts';
import type { EventOutboxItem, WebhookEventName } from '#shared/notices/outbox.ts';
import type { EnvelopeRepository } from '#shared/ports/repositories.ts';
import { newDraft, rewrite, useBuilt, type Builder } from './fixtures.ts';

export const eventItem = (envelopeId: string, event: WebhookEventName = 'signer.viewed', createdAt = '2026-01-01T00:00:01.000Z'): EventOutboxItem =>
  ({ kind: 'event', id: uuidv7(), envelopeId, event, createdAt, signerId: null });

/** A new envelope of `appId` whose commit raises `count` events (its own envelope.created among them). */
export function changeWithEvents(appId: string, count: number): EnvelopeChange {
  const draft = newDraft(appId);
  const events = draft.outbox.filter((o) => o.kind === 'event');
  const extra = Array.from({ length: Math.max(0, count - events.length) }, () => eventItem(draft.after.id));
  return { ...draft, outbox: [...draft.outbox, ...extra] };
}

export const query = (appId: string, over: Partial<EventLogQuery> = {}): EventLogQuery =>
  ({ appId, type: null, envelopeId: null, since: null, until: null, after: null, limit: 100, ...over });

/** Reads pages until caught up; `until` says when to stop waiting for entries still settling. */
export async function readAll(repo: EnvelopeRepository, q: EventLogQuery, expected: number, waitMs: number): Promise<{ ids: string[]; pages: EventLogPage[] }> {
  const ids: string[] = [];
  const pages: EventLogPage[] = [];
  const deadline = Date.now() + waitMs;
  let after = q.after;
  for (;;) {
    const page = await repo.events({ ...q, after });
    pages.push(page);
    ids.push(...page.data.map((e) => e.id));
    after = page.position;
    if (!page.hasMore && (ids.length >= expected || Date.now() > deadline)) return { ids, pages };
    if (!page.hasMore) await new Promise((resolve) => setTimeout(resolve, 200)); // entries still within the settle horizon
  }
}

/** The event log the envelope commit writes: in its transaction, per application, oldest first, filtered, paged. */
export function describeEventLog(name: string, builder: Builder<EnvelopeRepository>, settleMs: number): void {
  describe(`Event log contract: ${name}`, () => {
    const repo = useBuilt(builder);
    const wait = settleMs + 10_000;

    it('a commit writes its events with it, as the webhook body tells the envelope; another application sees none', async () => {
      const appId = uuidv7();
      const change = changeWithEvents(appId, 3);
      await repo().commit(change);
      const { ids, pages } = await readAll(repo(), query(appId), 3, wait);
      expect(ids).toEqual(change.outbox.filter((o) => o.kind === 'event').map((o) => o.id));
      expect(pages.flatMap((p) => p.data)[0]).toMatchObject({
        appId, tenantId: 'acme', envelopeId: change.after.id, event: 'envelope.created', signerId: null,
        envelope: { subject: 'Contract', status: 'draft', completedAt: null, signers: [{ email: 'a@example.com', status: 'pending', signedAt: null }] },
      });
      expect((await repo().events(query(uuidv7()))).data).toEqual([]);
    });

    it('a refused commit (a stale version, a second create) writes neither its change nor its events', async () => {
      const appId = uuidv7();
      const created = changeWithEvents(appId, 1);
      await repo().commit(created);
      const voided = rewrite(created.after, { status: 'voided' }, [eventItem(created.after.id, 'envelope.voided')]);
      const stale = rewrite(created.after, { subject: 'Stale' }, [eventItem(created.after.id, 'envelope.sent')]);
      await repo().commit(voided);
      await expect(repo().commit(stale)).rejects.toBeInstanceOf(ConcurrentModification);
      await expect(repo().commit({ ...changeWithEvents(appId, 2), after: created.after, before: null })).rejects.toBeInstanceOf(ConcurrentModification);
      expect((await repo().find(created.after.id))?.status).toBe('voided');
      const { ids } = await readAll(repo(), query(appId), 2, wait);
      await new Promise((resolve) => setTimeout(resolve, settleMs)); // anything the refused commits wrote would have settled too
      const after = await readAll(repo(), query(appId), 2, 0);
      expect(ids).toEqual([created.outbox.find((o) => o.kind === 'event')?.id, voided.outbox[0]?.id]);
      expect(after.ids).toEqual(ids);
    });

    it('filters by type, envelope and time, pages with a position that goes on after the last entry read', async () => {
      const appId = uuidv7();
      const a = changeWithEvents(appId, 4);
      const b = changeWithEvents(appId, 2);
      await repo().commit(a);
      await repo().commit(b);
      await readAll(repo(), query(appId), 6, wait);
      const all = (await repo().events(query(appId))).data;
      expect(all).toHaveLength(6);
      expect((await repo().events(query(appId, { type: 'envelope.created' }))).data.map((e) => e.envelopeId)).toEqual([a.after.id, b.after.id]);
      expect((await repo().events(query(appId, { envelopeId: b.after.id }))).data.map((e) => e.id)).toEqual(all.slice(4).map((e) => e.id));
      expect((await repo().events(query(appId, { since: '2026-01-01T00:00:01.000Z' }))).data).toHaveLength(4);
      expect((await repo().events(query(appId, { until: '2026-01-01T00:00:01.000Z' }))).data).toHaveLength(2);
      const first = await repo().events(query(appId, { limit: 4 }));
      expect([first.data.length, first.hasMore]).toEqual([4, true]);
      const second = await repo().events(query(appId, { limit: 4, after: first.position }));
      expect([second.data.map((e) => e.id), second.hasMore]).toEqual([all.slice(4).map((e) => e.id), false]);
      const none = await repo().events(query(appId, { after: second.position }));
      expect([none.data, none.position, none.hasMore]).toEqual([[], second.position, false]);
      const sparse = await repo().events(query(appId, { type: 'envelope.expired' }));
      expect([sparse.data, sparse.hasMore]).toEqual([[], false]);
      expect((await repo().events(query(appId, { after: sparse.position }))).data).toEqual([]);
    });
  });
}
