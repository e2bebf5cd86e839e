import { randomUUID } from 'node:crypto';
import { Conflict } from '#shared/kernel/errors.ts';
import type { IdentityAdmin } from '#shared/ports/services.ts';

/** Accounts by lowercased email, as a user pool with email sign-in keeps them. */
export class MemoryIdentityAdmin implements IdentityAdmin {
  readonly accounts = new Map<string, { userId: string; name: string | null; temporaryPassword: string }>();

  createUser(input: { email: string; name: string | null; temporaryPassword: string }): Promise<{ userId: string }> {
    const email = input.email.toLowerCase();
    if (this.accounts.has(email)) return Promise.reject(new Conflict(`An account with the email ${input.email} exists already`));
    const userId = randomUUID();
    this.accounts.set(email, { userId, name: input.name, temporaryPassword: input.temporaryPassword });
    return Promise.resolve({ userId });
  }

  deleteUser(email: string): Promise<void> {
    this.accounts.delete(email.toLowerCase());
    return Promise.resolve();
  }
}
