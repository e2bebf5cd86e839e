import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { IdempotencyClaim, IdempotencyStore, RateLimiter } from '#shared/ports/traffic.ts';
import { useBuilt, type Builder } from './fixtures.ts';

/** RateLimiter: fixed windows opened by their first request, counted atomically. */
export function describeRateLimiter(name: string, builder: Builder<RateLimiter>): void {
  describe(`RateLimiter contract: ${name}`, () => {
    const limiter = useBuilt(builder);
    const t0 = new Date(Date.UTC(2026, 0, 1, 12, 0, 0));
    const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

    it('counts in a window opened by the first request, and opens a new one after it closes', async () => {
      const key = `app#${randomUUID()}`;
      expect(await limiter().hit(key, 60, t0)).toEqual({ count: 1, resetAtMs: at(60).getTime() });
      expect(await limiter().hit(key, 60, at(30))).toEqual({ count: 2, resetAtMs: at(60).getTime() });
      expect(await limiter().hit(key, 60, at(59.999))).toMatchObject({ count: 3 });
      expect(await limiter().hit(key, 60, at(60))).toEqual({ count: 1, resetAtMs: at(120).getTime() });
    });

    it('counts each key on its own', async () => {
      const [a, b] = [`ip#${randomUUID()}`, `ip#${randomUUID()}`];
      await limiter().hit(a, 60, t0);
      await limiter().hit(a, 60, t0);
      expect(await limiter().hit(b, 10, at(1))).toEqual({ count: 1, resetAtMs: at(11).getTime() });
      expect(await limiter().hit(a, 60, at(1))).toMatchObject({ count: 3 });
    });

    it('counts every one of many concurrent first requests exactly once', async () => {
      const key = `tok#${randomUUID()}`;
      const counts = await Promise.all(Array.from({ length: 20 }, () => limiter().hit(key, 60, t0)));
      expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(new Set(counts.map((c) => c.resetAtMs)).size).toBe(1);
    });
  });
}

/** IdempotencyStore: one owner per key, replays of completed answers, takeover of expired and abandoned claims. */
export function describeIdempotencyStore(name: string, builder: Builder<IdempotencyStore>): void {
  describe(`IdempotencyStore contract: ${name}`, () => {
    const store = useBuilt(builder);
    const now = new Date(Date.UTC(2026, 0, 1, 12, 0, 0));
    const claimOf = (over: Partial<IdempotencyClaim> = {}): IdempotencyClaim => ({
      id: `app-1#${randomUUID()}`, fingerprint: 'fp-1', owner: randomUUID(), now, lockSeconds: 60, expiresInSeconds: 86_400, ...over,
    });
    const response = { statusCode: 201, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'x'.repeat(1000) }), isBase64Encoded: false };

    it('lets exactly one of concurrent claims own the key; the others see it in progress', async () => {
      const first = claimOf();
      const results = await Promise.all(Array.from({ length: 8 }, () => store().claim({ ...first, owner: randomUUID() })));
      expect(results.filter((r) => r === undefined)).toHaveLength(1);
      expect(results.filter((r) => r?.state === 'in_progress')).toHaveLength(7);
    });

    it('stores the answer for replay; a stale owner cannot overwrite it; release frees the key', async () => {
      const claim = claimOf();
      expect(await store().claim(claim)).toBeUndefined();
      await store().complete(claim, response);
      await store().complete({ ...claim, owner: 'someone-else' }, { ...response, statusCode: 500 });
      expect(await store().claim({ ...claim, owner: randomUUID() })).toEqual({ state: 'completed', fingerprint: 'fp-1', response });
      expect(await store().claim({ ...claim, owner: randomUUID(), fingerprint: 'fp-other' })).toEqual({ state: 'completed', fingerprint: 'fp-1', response });

      const released = claimOf();
      await store().claim(released);
      await store().release(released);
      expect(await store().claim({ ...released, owner: randomUUID() })).toBeUndefined();
    });

    it("ignores a release or completion by a request that no longer owns the key", async () => {
      const claim = claimOf();
      await store().claim(claim);
      await store().release({ ...claim, owner: randomUUID() });
      expect(await store().claim({ ...claim, owner: randomUUID() })).toEqual({ state: 'in_progress', fingerprint: 'fp-1' });
      const never = claimOf();
      await store().complete(never, response);
      expect(await store().claim(never)).toBeUndefined();
    });

    it('takes over an abandoned claim of the same request, and any record after its 24 hours', async () => {
      const claim = claimOf();
      await store().claim(claim);
      const later = new Date(now.getTime() + 61_000);
      expect(await store().claim({ ...claim, owner: randomUUID(), now: new Date(now.getTime() + 59_000) })).toEqual({ state: 'in_progress', fingerprint: 'fp-1' });
      expect(await store().claim({ ...claim, owner: randomUUID(), now: later, fingerprint: 'fp-other' })).toEqual({ state: 'in_progress', fingerprint: 'fp-1' });
      expect(await store().claim({ ...claim, owner: randomUUID(), now: later })).toBeUndefined();

      const done = claimOf();
      await store().claim(done);
      await store().complete(done, response);
      expect(await store().claim({ ...done, owner: randomUUID(), now: later })).toMatchObject({ state: 'completed' });
      const nextDay = new Date(now.getTime() + 86_400_000);
      expect(await store().claim({ ...done, owner: randomUUID(), now: nextDay, fingerprint: 'fp-2' })).toBeUndefined();
    });

    it('replays a copy: changing a replayed answer does not change the stored one', async () => {
      const claim = claimOf();
      await store().claim(claim);
      const answer = structuredClone(response);
      await store().complete(claim, answer);
      answer.headers['content-type'] = 'text/plain';
      const replay = await store().claim({ ...claim, owner: randomUUID() });
      if (replay?.state === 'completed') replay.response.statusCode = 599;
      expect(await store().claim({ ...claim, owner: randomUUID() })).toEqual({ state: 'completed', fingerprint: 'fp-1', response });
    });
  });
}
