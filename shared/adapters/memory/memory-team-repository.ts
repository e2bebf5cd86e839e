import { Conflict } from '#shared/kernel/errors.ts';
import type { ApiClient, ConsoleUser, TeamRepository } from '#shared/ports/repositories.ts';
import type { MemoryApplicationRepository } from './memory-application-repository.ts';
import { byKey, copy } from './memory-table.ts';

/** Users by `sub`, clients by id; a client id is refused when an application's own client has it, as the table's pointer does. */
export class MemoryTeamRepository implements TeamRepository {
  private readonly userMap = new Map<string, ConsoleUser>();
  private readonly clientMap = new Map<string, ApiClient>();

  constructor(private readonly applications?: MemoryApplicationRepository) {}

  users(appId: string): Promise<ConsoleUser[]> {
    return Promise.resolve([...this.userMap.values()].filter((u) => u.appId === appId).sort((a, b) => byKey(a.email, b.email)).map(copy));
  }

  userBySubject(userId: string): Promise<ConsoleUser | undefined> {
    const user = this.userMap.get(userId);
    return Promise.resolve(user && copy(user));
  }

  addUser(user: ConsoleUser): Promise<void> {
    if (this.userMap.has(user.userId)) return Promise.reject(new Conflict(`User ${user.userId} exists already`));
    this.userMap.set(user.userId, copy(user));
    return Promise.resolve();
  }

  saveUser(user: ConsoleUser): Promise<void> {
    if (this.userMap.get(user.userId)?.appId !== user.appId) return Promise.reject(new Error(`user ${user.userId} does not exist`));
    this.userMap.set(user.userId, copy(user));
    return Promise.resolve();
  }

  removeUser(appId: string, userId: string): Promise<boolean> {
    const found = this.userMap.get(userId)?.appId === appId;
    if (found) this.userMap.delete(userId);
    return Promise.resolve(found);
  }

  clients(appId: string): Promise<ApiClient[]> {
    return Promise.resolve([...this.clientMap.values()].filter((c) => c.appId === appId).sort((a, b) => byKey(a.createdAt, b.createdAt)).map(copy));
  }

  client(clientId: string): Promise<ApiClient | undefined> {
    const found = this.clientMap.get(clientId);
    return Promise.resolve(found && copy(found));
  }

  async addClient(client: ApiClient): Promise<void> {
    if (this.clientMap.has(client.clientId) || (await this.applications?.getByClientId(client.clientId))) throw new Conflict(`Client id ${client.clientId} is already taken`);
    this.clientMap.set(client.clientId, copy(client));
  }

  removeClient(appId: string, clientId: string): Promise<boolean> {
    const found = this.clientMap.get(clientId)?.appId === appId;
    if (found) this.clientMap.delete(clientId);
    return Promise.resolve(found);
  }
}
