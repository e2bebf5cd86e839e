/**
 * The local OpenID provider's accounts: email, name and a scrypt hash of the password, kept in `accounts.json` under
 * the data directory (in memory without one). The provider signs people in against it; the in-process Cognito answers
 * (in-process.ts) create and delete accounts in it, as AdminCreateUser and AdminDeleteUser do in a user pool.
 */
import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hashClientSecret, verifyClientSecret } from '#shared/console/client-secrets.ts';

export interface LocalAccount {
  id: string;
  email: string;
  name: string | null;
  passwordHash: string;
  /** An invitation's temporary password: replaced at the first sign-in, as Cognito's FORCE_CHANGE_PASSWORD. */
  mustChangePassword?: boolean;
}

export class LocalAccounts {
  private constructor(private readonly accounts: Map<string, LocalAccount>, private readonly file: string | undefined) {}

  static async open(dir: string | undefined): Promise<LocalAccounts> {
    const file = dir ? join(dir, 'accounts.json') : undefined;
    let stored: LocalAccount[] = [];
    if (file) {
      try {
        stored = JSON.parse(await readFile(file, 'utf8')) as LocalAccount[];
      } catch {
        // first start: no accounts yet
      }
    }
    return new LocalAccounts(new Map(stored.map((account) => [account.email.toLowerCase(), account])), file);
  }

  byEmail(email: string): LocalAccount | undefined {
    return this.accounts.get(email.trim().toLowerCase());
  }

  byId(id: string): LocalAccount | undefined {
    return [...this.accounts.values()].find((account) => account.id === id);
  }

  /** Creates the account; false when the email has one already. A temporary password is replaced at the first sign-in. */
  async create(email: string, name: string | null, password: string, temporary = false): Promise<LocalAccount | undefined> {
    if (this.byEmail(email)) return undefined;
    const account: LocalAccount = { id: randomUUID(), email: email.trim().toLowerCase(), name, passwordHash: await hashClientSecret(password), ...(temporary ? { mustChangePassword: true } : {}) };
    this.accounts.set(account.email, account);
    await this.save();
    return account;
  }

  /** The account, with its password set to `password` (the development admin's, on every start). */
  async ensure(email: string, name: string | null, password: string): Promise<LocalAccount> {
    const existing = this.byEmail(email);
    if (!existing) {
      const created = await this.create(email, name, password);
      if (!created) throw new Error(`the account ${email} appeared meanwhile`);
      return created;
    }
    if (!(await verifyClientSecret(password, existing.passwordHash))) {
      existing.passwordHash = await hashClientSecret(password);
      await this.save();
    }
    return existing;
  }

  /** The user's own password, in place of the temporary one. */
  async setPassword(id: string, password: string): Promise<void> {
    const account = this.byId(id);
    if (!account) throw new Error('no such account');
    account.passwordHash = await hashClientSecret(password);
    delete account.mustChangePassword;
    await this.save();
  }

  async delete(email: string): Promise<boolean> {
    const removed = this.accounts.delete(email.trim().toLowerCase());
    if (removed) await this.save();
    return removed;
  }

  /** The account whose password this is; one scrypt whether or not the email has an account. */
  async check(email: string, password: string): Promise<LocalAccount | undefined> {
    const account = this.byEmail(email);
    return (await verifyClientSecret(password, account?.passwordHash)) ? account : undefined;
  }

  private async save(): Promise<void> {
    if (this.file) await writeFile(this.file, JSON.stringify([...this.accounts.values()], null, 2), { mode: 0o600 });
  }
}
