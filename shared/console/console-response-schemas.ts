/** Response bodies of the tenant, contact, usage and console-settings routes. */
import * as v from 'valibot';
import { RETENTION_DAYS } from '#shared/retention/retention.ts';
import { LOCALES } from '#shared/i18n/locales.ts';
import { FIELD_ORIGINS } from '#shared/kernel/model.ts';
import { count, timestamp, uuid } from '../http/response-primitives.ts';
import { ReminderSettingsResponse } from '../envelopes/envelope-response-schemas.ts';

export const TenantSettingsResponse = v.object({
  tenantId: v.string(),
  defaultExpiresInDays: v.pipe(v.number(), v.integer()),
  retentionDays: v.picklist(RETENTION_DAYS),
  fieldOrigin: v.picklist(FIELD_ORIGINS),
  defaultLocale: v.pipe(v.picklist(LOCALES), v.description('The locale of signers created without one (default `en`)')),
  defaultReminders: v.pipe(v.nullable(ReminderSettingsResponse), v.description('Reminders of envelopes created without `reminders`')),
});

export const ContactResponse = v.object({
  id: uuid,
  appId: uuid,
  name: v.string(),
  email: v.pipe(v.string(), v.email(), v.description('As last saved; unique per application, compared case-insensitively')),
  phone: v.nullable(v.string()),
  createdAt: timestamp,
});

export const ContactListResponse = v.array(ContactResponse);

export const UsageResponse = v.object({
  plan: v.string(),
  periodStart: v.pipe(v.string(), v.isoDate(), v.description('First day of the billing period: the calendar month in UTC')),
  periodEnd: v.pipe(v.string(), v.isoDate(), v.description('Last day of the billing period')),
  envelopesUsed: v.pipe(count, v.description('Envelopes sent in the period')),
  envelopesLimit: v.pipe(v.nullable(count), v.description('Envelopes the plan includes per period; null when unlimited')),
  overageAllowed: v.pipe(v.boolean(), v.description('False: a send beyond the limit is refused with 403 `quota_exceeded`')),
});

export const ConsoleSettingsResponse = v.object({
  embedOrigins: v.pipe(v.array(v.string()), v.description('Origins allowed to frame embedded signing')),
});
