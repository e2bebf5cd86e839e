import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_TENANT, type FieldOrigin, type ReminderSettings, type TenantSettings } from '#shared/kernel/model.ts';
import { isRetentionDays } from '#shared/retention/retention.ts';
import { isLocale } from '#shared/i18n/locales.ts';
import type { TenantRepository } from '#shared/ports/repositories.ts';

export class DynamoTenantRepository implements TenantRepository {
  constructor(private readonly db: DynamoDBDocumentClient, private readonly table: string) {}

  async get(appId: string, tenantId: string): Promise<TenantSettings> {
    const { Item } = await this.db.send(new GetCommand({
      TableName: this.table, Key: { PK: `APP#${appId}`, SK: `TENANT#${tenantId}` }, ConsistentRead: true,
    }));
    return {
      appId,
      tenantId,
      defaultExpiresInDays: typeof Item?.defaultExpiresInDays === 'number' ? Item.defaultExpiresInDays : DEFAULT_TENANT.defaultExpiresInDays,
      retentionDays: typeof Item?.retentionDays === 'number' && isRetentionDays(Item.retentionDays) ? Item.retentionDays : DEFAULT_TENANT.retentionDays,
      fieldOrigin: (Item?.fieldOrigin as FieldOrigin | undefined) ?? DEFAULT_TENANT.fieldOrigin,
      defaultLocale: isLocale(Item?.defaultLocale) ? Item.defaultLocale : DEFAULT_TENANT.defaultLocale,
      defaultReminders: (Item?.defaultReminders as ReminderSettings | null | undefined) ?? null,
    };
  }

  async put(settings: TenantSettings): Promise<void> {
    await this.db.send(new UpdateCommand({
      TableName: this.table, Key: { PK: `APP#${settings.appId}`, SK: `TENANT#${settings.tenantId}` },
      UpdateExpression: 'SET appId = :app, tenantId = :tenant, itemType = :type, defaultExpiresInDays = :expiry, retentionDays = :retention, fieldOrigin = :origin, defaultLocale = :locale, defaultReminders = :reminders',
      ExpressionAttributeValues: {
        ':app': settings.appId, ':tenant': settings.tenantId, ':type': 'tenant', ':expiry': settings.defaultExpiresInDays,
        ':retention': settings.retentionDays, ':origin': settings.fieldOrigin, ':locale': settings.defaultLocale, ':reminders': settings.defaultReminders ?? null,
      },
    }));
  }
}
