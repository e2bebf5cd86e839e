import type { ApplicationRepository, ContactRepository, UsageRepository } from '#shared/ports/repositories.ts';
import type { Clock, Ids } from '#shared/ports/services.ts';
import type { Contact } from './contacts.ts';
import { NotFound } from '../kernel/errors.ts';
import { parseId } from '../kernel/ids.ts';
import { usagePeriod } from './usage.ts';

export interface ConsoleDeps {
  clock: Clock;
  ids: Ids;
  contacts: ContactRepository;
  usage: UsageRepository;
  applications: Pick<ApplicationRepository, 'get'>;
}

export interface ContactInput {
  name: string;
  email: string;
  phone: string | null;
}

export function listContacts(deps: Pick<ConsoleDeps, 'contacts'>, appId: string, search: string | null): Promise<Contact[]> {
  return deps.contacts.list(appId, search);
}

/** Creates the contact, or updates the application's contact with the same email (compared case-insensitively). */
export function saveContact(deps: Pick<ConsoleDeps, 'clock' | 'ids' | 'contacts'>, appId: string, input: ContactInput): Promise<Contact> {
  return deps.contacts.upsert({ ...input, id: deps.ids.next(), appId, createdAt: deps.clock.now().toISOString() });
}

/** 404 for an unknown id and for another application's contact alike. */
export async function deleteContact(deps: Pick<ConsoleDeps, 'contacts'>, appId: string, rawId: string): Promise<void> {
  const id = parseId('con', rawId);
  if (!id || !(await deps.contacts.delete(appId, id))) throw new NotFound('Contact not found');
}

/** The usage summary for the current period: the calendar month in UTC (decision 30). */
export async function usageSummary(deps: Pick<ConsoleDeps, 'clock' | 'usage' | 'applications'>, appId: string) {
  const period = usagePeriod(deps.clock.now());
  const [app, envelopesUsed] = await Promise.all([deps.applications.get(appId), deps.usage.envelopesSent(appId, period.id)]);
  if (!app) throw new NotFound('Application not found');
  return {
    plan: app.plan, periodStart: period.start, periodEnd: period.end, envelopesUsed,
    envelopesLimit: app.envelopesLimit, overageAllowed: app.overageAllowed,
  };
}
