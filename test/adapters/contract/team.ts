import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Conflict } from '#shared/kernel/errors.ts';
import type { ApiClient, ConsoleUser, TeamRepository } from '#shared/ports/repositories.ts';
import { useBuilt, type Builder } from './fixtures.ts';

const user = (appId: string, over: Partial<ConsoleUser> = {}): ConsoleUser => ({
  appId, userId: randomUUID(), email: `${randomUUID()}@example.org`, name: null, role: 'sender', createdAt: '2026-01-01T00:00:00.000Z', ...over,
});
const client = (appId: string, over: Partial<ApiClient> = {}): ApiClient => ({
  appId, clientId: `cli_${randomUUID()}`, name: 'Billing', secretHash: 'scrypt$s$h', createdAt: '2026-01-01T00:00:00.000Z', ...over,
});

/** TeamRepository: users found by `sub` across applications, listed per application; clients likewise, ids taken once. */
export function describeTeamRepository(name: string, builder: Builder<TeamRepository>): void {
  describe(`TeamRepository contract: ${name}`, () => {
    const team = useBuilt(builder);

    it('adds users, finds each by sub, lists them per application by email, and refuses the same sub twice', async () => {
      const [a, b] = [randomUUID(), randomUUID()];
      const zoe = user(a, { email: 'zoe@example.org', role: 'admin', name: 'Zoe' });
      const ann = user(a, { email: 'ann@example.org' });
      const other = user(b);
      for (const u of [zoe, ann, other]) await team().addUser(u);
      expect(await team().userBySubject(zoe.userId)).toEqual(zoe);
      expect((await team().users(a)).map((u) => u.email)).toEqual(['ann@example.org', 'zoe@example.org']);
      expect(await team().users(b)).toEqual([other]);
      await expect(team().addUser({ ...zoe, appId: b })).rejects.toBeInstanceOf(Conflict);
      expect(await team().userBySubject(randomUUID())).toBeUndefined();
    });

    it('saves a role change, and removes a user of their own application only', async () => {
      const app = randomUUID();
      const sam = user(app);
      await team().addUser(sam);
      await team().saveUser({ ...sam, role: 'admin' });
      expect((await team().userBySubject(sam.userId))?.role).toBe('admin');
      expect(await team().removeUser(randomUUID(), sam.userId)).toBe(false);
      expect(await team().removeUser(app, sam.userId)).toBe(true);
      expect(await team().userBySubject(sam.userId)).toBeUndefined();
      expect(await team().users(app)).toEqual([]);
      expect(await team().removeUser(app, sam.userId)).toBe(false);
    });

    it('adds clients, finds each by id, lists them per application, refuses a taken id, removes them from their application only', async () => {
      const [a, b] = [randomUUID(), randomUUID()];
      const first = client(a, { createdAt: '2026-01-01T00:00:00.000Z' });
      const second = client(a, { createdAt: '2026-02-01T00:00:00.000Z' });
      await team().addClient(second);
      await team().addClient(first);
      expect(await team().client(first.clientId)).toEqual(first);
      expect((await team().clients(a)).map((c) => c.clientId)).toEqual([first.clientId, second.clientId]);
      expect(await team().clients(b)).toEqual([]);
      await expect(team().addClient(client(b, { clientId: first.clientId }))).rejects.toBeInstanceOf(Conflict);
      expect(await team().removeClient(b, first.clientId)).toBe(false);
      expect(await team().removeClient(a, first.clientId)).toBe(true);
      expect(await team().client(first.clientId)).toBeUndefined();
      expect(await team().clients(a)).toEqual([second]);
    });
  });
}
