/**
 * Retention classes (spec 3.4, DECISIONS 15): the lengths a tenant may choose. Each class is one S3 lifecycle
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
