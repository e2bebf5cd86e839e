/**
 * Retention classes (decision 28): the lengths a tenant may choose. Each class is one S3 lifecycle
 * rule expiring objects tagged with it; the CDK stack and the local scheduler read this same table.
 */
export const RETENTION_DAYS = [7, 30, 90, 365, 730, 2555] as const;
export type RetentionDays = (typeof RETENTION_DAYS)[number];

export const RETENTION_TAG = 'retention-class';

export const retentionClass = (days: RetentionDays) => `d${String(days)}`;

export interface LifecycleRule {
  id: string;
  tag: { key: string; value: string };
  expireAfterDays: RetentionDays;
}

export const LIFECYCLE_RULES: readonly LifecycleRule[] = RETENTION_DAYS.map((days) => ({
  id: `retention-${String(days)}d`,
  tag: { key: RETENTION_TAG, value: retentionClass(days) },
  expireAfterDays: days,
}));

export const isRetentionDays = (days: number): days is RetentionDays => (RETENTION_DAYS as readonly number[]).includes(days);

const DAY_MS = 86_400_000;

/** Days before deletion when a recipient who has not downloaded gets a reminder (decision 33). */
export const REMINDER_DAYS = [20, 10, 1] as const;

/**
 * The retention window starts when the envelope ends (completed, declined, voided, expired): every stored
 * document gets its deletion date, and the blobs are re-tagged so the lifecycle rule counts from now.
 */
export function startRetention<E extends RetentionTarget>(envelope: E, now: Date): E {
  const deletionAt = new Date(now.getTime() + envelope.retentionDays * DAY_MS);
  const retentionUntil = deletionAt.toISOString().slice(0, 10);
  return {
    ...envelope,
    deletionAt: deletionAt.toISOString(),
    documents: envelope.documents.map((d) => (d.purgeStatus === 'active' ? { ...d, retentionUntil } : d)),
    ...(envelope.attachments ? { attachments: envelope.attachments.map((a) => (a.purgeStatus === 'active' ? { ...a, retentionUntil } : a)) } : {}),
  };
}

interface RetentionTarget {
  retentionDays: number;
  deletionAt?: string | null;
  documents: { retentionUntil: string | null; purgeStatus: 'active' | 'purged' }[];
  attachments?: { retentionUntil: string | null; purgeStatus: 'active' | 'purged' }[];
}

/** The retention class for a tenant's length; lengths outside the table round up to the next class. */
export function classFor(days: number): RetentionDays {
  return RETENTION_DAYS.find((d) => d >= days) ?? RETENTION_DAYS[RETENTION_DAYS.length - 1] ?? 2555;
}

/** The reminder due now for a link, if any: the smallest threshold reached and not sent yet. */
export function dueReminder(deletionAt: string, now: Date, sent: readonly number[]): number | null {
  const daysLeft = (Date.parse(deletionAt) - now.getTime()) / DAY_MS;
  if (daysLeft <= 0) return null;
  const reached = REMINDER_DAYS.filter((d) => daysLeft <= d);
  const next = reached.at(-1);
  if (next === undefined || sent.includes(next)) return null;
  return next;
}
