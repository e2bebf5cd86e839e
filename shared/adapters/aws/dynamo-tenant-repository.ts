import { BatchGetCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { BrandingRecord, LogoRef, StoredLogo } from '#shared/console/branding.ts';
import { DEFAULT_TENANT, type FieldOrigin, type ReminderSettings, type TenantSettings } from '#shared/kernel/model.ts';
import { isRetentionDays } from '#shared/retention/retention.ts';
import { isLocale } from '#shared/i18n/locales.ts';
import type { TenantRepository } from '#shared/ports/repositories.ts';

const settingsKey = (appId: string, tenantId: string) => ({ PK: `APP#${appId}`, SK: `TENANT#${tenantId}` });

/** The stored settings, the defaults filling what is not stored. */
function settingsOf(appId: string, tenantId: string, Item: Record<string, unknown> | undefined): TenantSettings {
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

export class DynamoTenantRepository implements TenantRepository {
  constructor(private readonly db: DynamoDBDocumentClient, private readonly table: string) {}

  async get(appId: string, tenantId: string): Promise<TenantSettings> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: settingsKey(appId, tenantId), ConsistentRead: true }));
    return settingsOf(appId, tenantId, Item);
  }

  /** One consistent BatchGetItem of the three items; keys it leaves unprocessed are asked for again. */
  async forEnvelope(appId: string, tenantId: string): Promise<{ settings: TenantSettings; app: BrandingRecord | null; tenant: BrandingRecord | null }> {
    const found = new Map<string, Record<string, unknown>>();
    let keys: Record<string, unknown>[] = [settingsKey(appId, tenantId), brandingKey(appId, null), brandingKey(appId, tenantId)];
    for (let attempt = 0; keys.length > 0; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * 50 * 2 ** Math.min(attempt, 6)));
      const { Responses, UnprocessedKeys } = await this.db.send(new BatchGetCommand({ RequestItems: { [this.table]: { Keys: keys, ConsistentRead: true } } }));
      for (const item of Responses?.[this.table] ?? []) found.set(String(item.SK), item);
      keys = UnprocessedKeys?.[this.table]?.Keys ?? [];
    }
    const record = (tenant: string | null) => (found.get(brandingKey(appId, tenant).SK)?.record as BrandingRecord | undefined) ?? null;
    return { settings: settingsOf(appId, tenantId, found.get(settingsKey(appId, tenantId).SK)), app: record(null), tenant: record(tenantId) };
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

  async branding(appId: string, tenantId: string | null): Promise<BrandingRecord | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: brandingKey(appId, tenantId), ConsistentRead: true }));
    return Item ? (Item.record as BrandingRecord) : null;
  }

  async saveBranding(appId: string, tenantId: string | null, record: BrandingRecord): Promise<void> {
    await this.db.send(new PutCommand({
      TableName: this.table, Item: { ...brandingKey(appId, tenantId), itemType: 'branding', appId, tenantId, record: withoutUndefined(record) },
    }));
  }

  async logo(logoId: string): Promise<StoredLogo | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: { PK: `LOGO#${logoId}`, SK: 'LOGO' } }));
    if (!Item) return null;
    const { id, contentType, width, height, sizeBytes, createdAt } = Item as LogoRef & { createdAt: string };
    return { id, contentType, width, height, sizeBytes, createdAt, bytes: new Uint8Array(Item.bytes as Uint8Array) };
  }

  /** Named by its hash, so storing it again writes the same item. */
  async saveLogo(logo: StoredLogo): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: { PK: `LOGO#${logo.id}`, SK: 'LOGO', itemType: 'logo', ...logo } }));
  }
}

const brandingKey = (appId: string, tenantId: string | null) => ({ PK: `APP#${appId}`, SK: tenantId === null ? 'BRAND' : `BRAND#${tenantId}` });

const withoutUndefined = (record: BrandingRecord) => Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
