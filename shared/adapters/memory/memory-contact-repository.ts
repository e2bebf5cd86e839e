import { contactEmailKey, contactSearchText, type Contact } from '#shared/console/contacts.ts';
import type { ContactRepository } from '#shared/ports/repositories.ts';
import { byKey, copy } from './memory-table.ts';

/** Contacts keyed by (application, case-folded email), as the table keys them. */
export class MemoryContactRepository implements ContactRepository {
  private readonly contacts = new Map<string, Contact>();

  list(appId: string, search: string | null): Promise<Contact[]> {
    const wanted = search?.trim().toLowerCase();
    const found = [...this.contacts.values()]
      .filter((c) => c.appId === appId && (!wanted || contactSearchText(c).includes(wanted)))
      .sort((a, b) => byKey(contactEmailKey(a.email), contactEmailKey(b.email)));
    return Promise.resolve(found.map(copy));
  }

  /** An update keeps the stored id, application and createdAt, and takes the new name, email (its casing) and phone. */
  upsert(contact: Contact): Promise<Contact> {
    const key = contactKey(contact.appId, contact.email);
    const existing = this.contacts.get(key);
    const saved = existing ? { ...existing, name: contact.name, email: contact.email, phone: contact.phone } : { ...contact, phone: contact.phone ?? null };
    this.contacts.set(key, copy(saved));
    return Promise.resolve(copy(saved));
  }

  delete(appId: string, id: string): Promise<boolean> {
    const found = [...this.contacts.entries()].find(([, c]) => c.appId === appId && c.id === id);
    if (found) this.contacts.delete(found[0]);
    return Promise.resolve(found !== undefined);
  }
}

const contactKey = (appId: string, email: string) => `${appId}#${contactEmailKey(email)}`;
