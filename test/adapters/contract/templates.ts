import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BulkSend } from '#shared/templates/bulk-send.ts';
import { ConcurrentModification } from '#shared/kernel/errors.ts';
import type { Template } from '#shared/templates/templates.ts';
import type { BulkSendRepository, TemplateRepository } from '#shared/ports/repositories.ts';
import { letterDocument } from '#test/support/domain.ts';
import { useBuilt, type Builder } from './fixtures.ts';

const template = (over: Partial<Template> = {}): Template => ({
  id: randomUUID(), appId: 'app-1', tenantId: 'acme', name: 'NDA', subject: 'NDA', message: null, expiresInDays: null, fieldOrigin: 'bottom-left',
  roles: [{ role: 'client', routingOrder: 1, authMethod: 'none' }], fields: [], documents: [letterDocument()],
  createdAt: '2026-01-01T00:00:00.000Z', version: 1, ...over,
});

/** TemplateRepository: scoped to the application, newest first with a counted total, versioned saves, deletes. */
export function describeTemplateRepository(name: string, builder: Builder<TemplateRepository>): void {
  describe(`TemplateRepository contract: ${name}`, () => {
    const templates = useBuilt(builder);

    it('stores a template for its application only', async () => {
      const t = template();
      await templates().create(t);
      expect(await templates().get('app-1', t.id)).toEqual(t);
      expect(await templates().get('app-2', t.id)).toBeUndefined();
      expect(await templates().get('app-1', randomUUID())).toBeUndefined();
    });

    it('lists a tenant\'s templates newest first, page by page, with the total; a delete leaves the count in step', async () => {
      const tenantId = `t-${randomUUID()}`;
      const made = ['2026-01-01', '2026-01-03', '2026-01-02'].map((day) => template({ tenantId, createdAt: `${day}T00:00:00.000Z` }));
      for (const t of made) await templates().create(t);
      const first = await templates().list({ appId: 'app-1', tenantId, page: 1, pageSize: 2 });
      expect(first.total).toBe(3);
      expect(first.data.map((t) => t.createdAt.slice(0, 10))).toEqual(['2026-01-03', '2026-01-02']);
      expect((await templates().list({ appId: 'app-1', tenantId, page: 2, pageSize: 2 })).data.map((t) => t.id)).toEqual([made[0]?.id]);
      expect((await templates().list({ appId: 'app-2', tenantId, page: 1, pageSize: 2 })).total).toBe(0);
      expect(await templates().delete('app-2', made[0]?.id ?? '')).toBe(false);
      expect(await templates().delete('app-1', made[0]?.id ?? '')).toBe(true);
      expect(await templates().delete('app-1', made[0]?.id ?? '')).toBe(false);
      expect((await templates().list({ appId: 'app-1', tenantId, page: 1, pageSize: 10 })).total).toBe(2);
    });

    it('refuses a template record over 400 KB (one DynamoDB item), created or saved', async () => {
      await expect(templates().create(template({ message: 'x'.repeat(400 * 1024) }))).rejects.toThrow(/size/);
      const t = template();
      await templates().create(t);
      await expect(templates().save({ ...t, message: 'x'.repeat(400 * 1024), version: 2 })).rejects.toThrow(/size/);
      expect(await templates().get('app-1', t.id)).toEqual(t);
    });

    it('saves the next version only over the one it was read at', async () => {
      const t = template();
      await templates().create(t);
      await templates().save({ ...t, name: 'Renamed', version: 2 });
      await expect(templates().save({ ...t, name: 'Stale', version: 2 })).rejects.toBeInstanceOf(ConcurrentModification);
      expect((await templates().get('app-1', t.id))?.name).toBe('Renamed');
    });
  });
}

/** BulkSendRepository: the batch and its chunks, results recorded once (or replaced on purpose), by row. */
export function describeBulkSendRepository(name: string, builder: Builder<BulkSendRepository>): void {
  describe(`BulkSendRepository contract: ${name}`, () => {
    const bulk = useBuilt(builder);
    const batch = (check: BulkSend['check'] = null): BulkSend => ({
      id: randomUUID(), appId: 'app-1', templateId: randomUUID(), tenantId: 'acme', total: 3, chunks: 2, createdAt: '2026-01-01T00:00:00.000Z', check,
    });

    it('stores the batch with its chunks, for its application only', async () => {
      const b = batch();
      await bulk().create(b, [{ first: 1, rows: [{ a: 1 }, { a: 2 }] }, { first: 3, rows: [{ a: 3 }] }]);
      expect(await bulk().get('app-1', b.id)).toEqual(b);
      expect(await bulk().get('app-2', b.id)).toBeUndefined();
      expect(await bulk().chunk(b.id, 1)).toEqual({ first: 3, rows: [{ a: 3 }] });
      expect(await bulk().chunk(b.id, 2)).toBeUndefined();
    });

    it('stores any row a client may send: numbers past what a table number holds, empty keys, nesting, 128 KB of rows', async () => {
      const b = batch();
      const odd = { subject: 1e300, prefill: { '': '', big: 1.2345678901234567e44 }, recipients: [[[null]]] };
      const rows = Array.from({ length: 20 }, (_, i) => ({ prefill: { text: String(i).repeat(6000) } }));
      await bulk().create(b, [{ first: 1, rows: [odd] }, { first: 2, rows }]);
      expect(await bulk().chunk(b.id, 0)).toEqual({ first: 1, rows: [odd] });
      expect(await bulk().chunk(b.id, 1)).toEqual({ first: 2, rows });
    });

    it('lists unfinished batches whose check is due, moves the check, and drops a finished batch', async () => {
      const due = batch({ at: '2026-01-01T00:05:00.000Z', seen: 0, redrives: 0 });
      const later = batch({ at: '2026-01-01T00:20:00.000Z', seen: 0, redrives: 0 });
      const done = batch();
      for (const b of [due, later, done]) await bulk().create(b, [{ first: 1, rows: [{}] }]);
      const ids = async (now: string) => (await bulk().dueForCheck(new Date(now), 100)).map((b) => b.id).filter((id) => [due.id, later.id, done.id].includes(id));
      expect(await ids('2026-01-01T00:04:59.000Z')).toEqual([]);
      expect(await ids('2026-01-01T00:05:00.000Z')).toEqual([due.id]);
      expect((await bulk().dueForCheck(new Date('2026-01-01T00:05:00.000Z'), 100)).find((b) => b.id === due.id)).toEqual(due);
      const moved = { at: '2026-01-01T00:30:00.000Z', seen: 1, redrives: 1 };
      await bulk().saveCheck(due.id, moved);
      expect(await ids('2026-01-01T00:25:00.000Z')).toEqual([later.id]);
      expect((await bulk().get('app-1', due.id))?.check).toEqual(moved);
      await bulk().saveCheck(later.id, null);
      expect((await ids('2026-01-01T01:00:00.000Z'))).toEqual([due.id]);
      expect((await bulk().get('app-1', later.id))?.check).toBeNull();
    });

    it('records a row\'s result once when asked to, and lists results by row', async () => {
      const b = batch();
      await bulk().create(b, [{ first: 1, rows: [{}] }]);
      const failed = { row: 10, envelopeId: null, status: 'failed' as const, error: 'validation_error', message: 'bad' };
      expect(await bulk().recordResult(b.id, failed, true)).toBe(true);
      expect(await bulk().recordResult(b.id, { ...failed, message: 'again' }, true)).toBe(false);
      const sent = { row: 2, envelopeId: randomUUID(), status: 'sent' as const, error: null, message: null };
      expect(await bulk().recordResult(b.id, sent, false)).toBe(true);
      expect(await bulk().recordResult(b.id, sent, false)).toBe(true);
      expect(await bulk().results(b.id)).toEqual([sent, failed]);
    });
  });
}
