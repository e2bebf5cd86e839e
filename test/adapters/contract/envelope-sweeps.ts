import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Envelope } from '#shared/kernel/model.ts';
import { StageExpired } from '#shared/envelopes/blob-staging.ts';
import type { EnvelopeRepository } from '#shared/ports/repositories.ts';
import { at, jobItem, newDraft, plus, rewrite, useBuilt, type Builder } from './fixtures.ts';

const T0 = '2026-03-01T12:00:00.000Z';
const sortIds = (items: { id: string }[]) => items.map((i) => i.id).sort();

/**
 * EnvelopeRepository's sweeps: the outbox's due items, abandoned stages, and the sparse indexes behind the expiry,
 * seal-check and retention sweeps. Each test reads whole indexes, so each gets a fresh, empty instance.
 */
export function describeEnvelopeSweeps(name: string, builder: Builder<{ envelopes: EnvelopeRepository }>): void {
  describe(`EnvelopeRepository sweeps contract: ${name}`, () => {
    const ports = useBuilt(builder, true);
    const repo = () => ports().envelopes;

    /** A stored envelope with `patch` applied (a draft without outbox items when there is none). */
    async function stored(patch: Partial<Envelope> = {}): Promise<Envelope> {
      const created = { ...newDraft(), outbox: [] };
      await repo().commit(created);
      if (Object.keys(patch).length === 0) return created.after;
      const changed = rewrite(created.after, patch);
      await repo().commit(changed);
      return changed.after;
    }

    it('finds an outbox item due a minute after its commit, or once its backoff ends; a dead-lettered one never', async () => {
      const envelope = await stored();
      const fresh = jobItem(envelope.id, T0);
      const backingOff = jobItem(envelope.id, T0, { attempts: 2, nextAttemptAt: plus(T0, 600_000) });
      const dead = jobItem(envelope.id, T0, { attempts: 6, deadAt: T0 });
      await repo().commit(rewrite(envelope, {}, [fresh, backingOff, dead]));
      expect(await repo().staleOutbox(at(plus(T0, 59_999)), 10)).toEqual([]);
      expect(await repo().staleOutbox(at(plus(T0, 60_000)), 10)).toEqual([fresh]);
      expect(sortIds(await repo().staleOutbox(at(plus(T0, 600_000)), 10))).toEqual(sortIds([fresh, backingOff]));
      expect(sortIds(await repo().staleOutbox(at('2099-01-01T00:00:00.000Z'), 10))).toEqual(sortIds([fresh, backingOff]));
      expect(sortIds(await repo().pendingOutbox(envelope.id))).toEqual(sortIds([fresh, backingOff, dead]));
    });

    it("stores a failed dispatch's state outside any change, and removes dispatched items", async () => {
      const envelope = await stored();
      const [a, b] = [jobItem(envelope.id, T0), jobItem(envelope.id, T0)];
      await repo().commit(rewrite(envelope, {}, [a, b]));
      const retried = { ...a, attempts: 1, lastError: 'queue down', nextAttemptAt: plus(T0, 300_000) };
      await repo().saveOutbox(retried);
      expect(await repo().staleOutbox(at(plus(T0, 60_000)), 10)).toEqual([b]);
      expect(sortIds(await repo().staleOutbox(at(plus(T0, 300_000)), 10))).toEqual(sortIds([a, b]));
      await repo().saveOutbox({ ...retried, attempts: 6, deadAt: plus(T0, 300_000) });
      expect(await repo().staleOutbox(at(plus(T0, 300_000)), 10)).toEqual([b]);
      expect((await repo().pendingOutbox(envelope.id)).find((i) => i.id === a.id)).toMatchObject({ attempts: 6, deadAt: plus(T0, 300_000) });
      await repo().removeOutbox(envelope.id, [a.id, b.id, randomUUID()]);
      expect(await repo().pendingOutbox(envelope.id)).toEqual([]);
      expect(await repo().staleOutbox(at(plus(T0, 300_000)), 10)).toEqual([]);
    });

    it('removes more dispatched items at once than one batch holds', async () => {
      const envelope = await stored();
      const items = Array.from({ length: 30 }, () => jobItem(envelope.id, T0));
      await repo().commit(rewrite(envelope, {}, items));
      expect(await repo().pendingOutbox(envelope.id)).toHaveLength(30);
      await repo().removeOutbox(envelope.id, items.map((i) => i.id));
      expect(await repo().pendingOutbox(envelope.id)).toEqual([]);
    });

    it('returns at most `limit` due outbox items', async () => {
      const envelope = await stored();
      const items = Array.from({ length: 12 }, (_, i) => jobItem(envelope.id, plus(T0, i * 1000)));
      await repo().commit(rewrite(envelope, {}, items));
      const due = await repo().staleOutbox(at(plus(T0, 3_600_000)), 5);
      expect(due).toHaveLength(5);
      expect(due.every((d) => items.some((i) => i.id === d.id))).toBe(true);
    });

    it('finds stages written at or before a time until they are released or removed; a stage id is written once', async () => {
      const [early, late] = [{ id: randomUUID(), envelopeId: randomUUID(), keys: ['a.png'], createdAt: T0 }, { id: randomUUID(), envelopeId: randomUUID(), keys: ['b.png', 'c.pdf'], createdAt: plus(T0, 3_600_000) }];
      await repo().stageBlobs(early);
      await repo().stageBlobs(late);
      await expect(repo().stageBlobs({ ...early, keys: ['other.png'] })).rejects.toThrow();
      expect(await repo().abandonedStages(at(plus(T0, -1)), 10)).toEqual([]);
      expect(await repo().abandonedStages(at(T0), 10)).toEqual([early]);
      expect(sortIds(await repo().abandonedStages(at(plus(T0, 3_600_000)), 10))).toEqual(sortIds([early, late]));
      expect(await repo().abandonedStages(at(plus(T0, 3_600_000)), 1)).toHaveLength(1);
      await repo().removeStage(early.id);
      await repo().removeStage(randomUUID());
      expect(await repo().abandonedStages(at(plus(T0, 3_600_000)), 10)).toEqual([late]);
    });

    it('releases the stages a commit names in its transaction, and refuses the commit whole when one was swept', async () => {
      const envelope = await stored();
      const stage = { id: randomUUID(), envelopeId: envelope.id, keys: ['x.png'], createdAt: T0 };
      await repo().stageBlobs(stage);
      const released = rewrite(envelope, { subject: 'released' });
      await repo().commit({ ...released, releases: [stage.id] });
      expect(await repo().abandonedStages(at(T0), 10)).toEqual([]);
      const log = await repo().auditLog(envelope.id);

      const late = { ...rewrite(released.after, { subject: 'too late' }, [jobItem(envelope.id, T0)]), releases: [stage.id] };
      const error: unknown = await repo().commit(late).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StageExpired);
      expect(error).toMatchObject({ stageIds: [stage.id] });
      expect(await repo().find(envelope.id)).toEqual(released.after);
      expect(await repo().auditLog(envelope.id)).toEqual(log);
      expect(await repo().pendingOutbox(envelope.id)).toEqual([]);
    });

    it('finds live envelopes by deadline for the expiry sweep; drafts and ended ones never', async () => {
      const deadline = plus(T0, 86_400_000);
      const sent = await stored({ status: 'sent', expiresAt: deadline });
      const inProgress = await stored({ status: 'in_progress', expiresAt: plus(deadline, 1000) });
      await stored({ expiresAt: deadline });
      await stored({ status: 'voided', expiresAt: deadline });
      await stored({ status: 'expired', expiresAt: deadline });
      expect(await repo().dueForExpiry(at(plus(deadline, -1)), 10)).toEqual([]);
      expect(await repo().dueForExpiry(at(deadline), 10)).toEqual([sent.id]);
      expect((await repo().dueForExpiry(at(plus(deadline, 1000)), 10)).sort()).toEqual([sent.id, inProgress.id].sort());
      expect(await repo().dueForExpiry(at(plus(deadline, 1000)), 1)).toHaveLength(1);
      expect(await repo().dueForSealCheck(at('2099-01-01T00:00:00.000Z'), 10)).toEqual([]);
    });

    it('moves a fully signed envelope from the expiry sweep to the seal check, and out of both once its checks ended', async () => {
      const sealing = { rounds: 1, startedAt: T0, nextCheckAt: plus(T0, 900_000), lastError: null };
      const waiting = await stored({ status: 'in_progress', expiresAt: T0, sealing });
      const givenUp = await stored({ status: 'in_progress', expiresAt: T0, sealing: { ...sealing, nextCheckAt: null } });
      expect(await repo().dueForExpiry(at('2099-01-01T00:00:00.000Z'), 10)).toEqual([]);
      expect(await repo().dueForSealCheck(at(plus(T0, 899_999)), 10)).toEqual([]);
      expect(await repo().dueForSealCheck(at(plus(T0, 900_000)), 10)).toEqual([waiting.id]);
      const completed = rewrite(waiting, { status: 'completed', completedAt: T0 });
      await repo().commit(completed);
      expect(await repo().dueForSealCheck(at('2099-01-01T00:00:00.000Z'), 10)).toEqual([]);
      expect(givenUp.sealing?.nextCheckAt).toBeNull();
    });

    it('finds ended envelopes whose PDFs are still stored by deletion time; purged, undated and live ones never', async () => {
      const deletionAt = plus(T0, 30 * 86_400_000);
      const kept = await stored({ status: 'completed', deletionAt });
      const draft = await stored({ deletionAt: plus(deletionAt, 1000) });
      await stored({ status: 'voided', deletionAt: null });
      await stored({ status: 'sent', deletionAt });
      const purged = await stored({ status: 'declined', deletionAt });
      await repo().commit(rewrite(purged, { documents: purged.documents.map((d) => ({ ...d, purgeStatus: 'purged' as const })) }));
      expect(await repo().retainedUntil(at(plus(deletionAt, -1)), 10)).toEqual([]);
      expect(await repo().retainedUntil(at(deletionAt), 10)).toEqual([kept.id]);
      expect((await repo().retainedUntil(at(plus(deletionAt, 1000)), 10)).sort()).toEqual([kept.id, draft.id].sort());
      expect(await repo().retainedUntil(at(plus(deletionAt, 1000)), 1)).toHaveLength(1);
    });

    it('walks ended envelopes still retained after a time, in deletion order, page by page across every shard', async () => {
      const retained = await Promise.all(Array.from({ length: 12 }, (_, i) => stored({ status: 'completed', deletionAt: plus(T0, (i + 1) * 60_000) })));
      await stored({ status: 'completed', deletionAt: T0 }); // deleted at T0: not after it
      await stored({ status: 'sent', deletionAt: plus(T0, 5000) }); // live
      const walked: string[] = [];
      for (let position = `${T0}#~`; ;) {
        const page = await repo().retainedAfter(position, 5);
        walked.push(...page.map((p) => p.id));
        const last = page.at(-1);
        if (!last || page.length < 5) break;
        position = last.position;
      }
      expect(walked).toEqual(retained.map((e) => e.id));
    });

    it('reads at most `limit` ids from an index spread over many envelopes', async () => {
      const live = await Promise.all(Array.from({ length: 20 }, (_, i) => stored({ status: 'sent', expiresAt: plus(T0, i * 1000) })));
      const due = await repo().dueForExpiry(at(plus(T0, 60_000)), 7);
      expect(due).toHaveLength(7);
      expect(new Set(due).size).toBe(7);
      expect(due.every((id) => live.some((e) => e.id === id))).toBe(true);
      expect((await repo().dueForExpiry(at(plus(T0, 60_000)), 50)).sort()).toEqual(live.map((e) => e.id).sort());
    });
  });
}
