import * as v from 'valibot';
import { FIELD_ORIGINS } from '#shared/kernel/model.ts';
import { RETENTION_DAYS } from '#shared/retention/retention.ts';
import { LOCALES } from '#shared/i18n/locales.ts';
import { TenantId } from '../http/common-schemas.ts';
import { RemindersRequest } from '../envelopes/envelope-schemas.ts';

export const TenantParams = v.object({ tenantId: TenantId });

/** Tenant settings (decision 28); each omitted field keeps its current value. */
export const TenantSettingsRequest = v.object({
  retentionDays: v.optional(v.picklist(RETENTION_DAYS, `must be one of ${RETENTION_DAYS.join(', ')} (days)`)),
  defaultExpiresInDays: v.optional(v.pipe(v.number('must be an integer'), v.integer('must be an integer'), v.minValue(1, 'must be at least 1'), v.maxValue(3650, 'must be at most 3650'))),
  fieldOrigin: v.optional(v.picklist(FIELD_ORIGINS, `must be one of ${FIELD_ORIGINS.join(', ')}`)),
  defaultLocale: v.optional(v.picklist(LOCALES, `must be one of ${LOCALES.join(', ')}`)),
  defaultReminders: v.optional(v.pipe(RemindersRequest, v.description('Reminders of envelopes created without `reminders`; null: off'))),
});
