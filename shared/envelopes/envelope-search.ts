/**
 * Finding envelopes by what a sender remembers of them: a piece of the subject or of a signer's (or carbon copy's)
 * email address, case-insensitively. The repositories apply it while walking a tenant's list, newest first.
 */
import type { Envelope } from '#shared/kernel/model.ts';

/** How many of a tenant's newest envelopes a search reads at most (a search is a walk, not an index lookup). */
export const SEARCH_SCAN_LIMIT = 5000;

export const searchNeedle = (search: string | null | undefined): string | null => {
  const needle = search?.trim().toLocaleLowerCase('en') ?? '';
  return needle === '' ? null : needle;
};

export function matchesSearch(envelope: Pick<Envelope, 'subject' | 'signers' | 'cc'>, needle: string): boolean {
  const haystack = [envelope.subject ?? '', ...envelope.signers.map((s) => s.email), ...(envelope.cc ?? []).map((c) => c.email)];
  return haystack.some((text) => text.toLocaleLowerCase('en').includes(needle));
}
