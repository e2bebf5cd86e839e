import { DEFAULT_TENANT, type TenantSettings } from '#shared/kernel/model.ts';
import type { TenantRepository } from '#shared/ports/repositories.ts';
import type { BrandingRecord, StoredLogo } from '#shared/console/branding.ts';
import { copy } from './memory-table.ts';

/** Tenant settings; the envelope counters behind the list's `total` live with the envelopes (MemoryEnvelopeRepository). */
export class MemoryTenantRepository implements TenantRepository {
  private readonly settings = new Map<string, TenantSettings>();
  private readonly brandings = new Map<string, BrandingRecord>();
  private readonly logos = new Map<string, StoredLogo>();

  get(appId: string, tenantId: string): Promise<TenantSettings> {
    const stored = this.settings.get(`${appId}#${tenantId}`);
    return Promise.resolve(stored ? copy(stored) : { appId, tenantId, ...DEFAULT_TENANT });
  }

  put(settings: TenantSettings): Promise<void> {
    const { appId, tenantId, defaultExpiresInDays, retentionDays, fieldOrigin, defaultLocale } = settings;
    this.settings.set(`${appId}#${tenantId}`, { appId, tenantId, defaultExpiresInDays, retentionDays, fieldOrigin, defaultLocale, defaultReminders: settings.defaultReminders ?? null });
    return Promise.resolve();
  }

  branding(appId: string, tenantId: string | null): Promise<BrandingRecord | null> {
    const stored = this.brandings.get(`${appId}#${tenantId ?? ''}`);
    return Promise.resolve(stored ? copy(stored) : null);
  }

  async forEnvelope(appId: string, tenantId: string): Promise<{ settings: TenantSettings; app: BrandingRecord | null; tenant: BrandingRecord | null }> {
    const [settings, app, tenant] = await Promise.all([this.get(appId, tenantId), this.branding(appId, null), this.branding(appId, tenantId)]);
    return { settings, app, tenant };
  }

  saveBranding(appId: string, tenantId: string | null, record: BrandingRecord): Promise<void> {
    this.brandings.set(`${appId}#${tenantId ?? ''}`, copy(record));
    return Promise.resolve();
  }

  logo(logoId: string): Promise<StoredLogo | null> {
    const stored = this.logos.get(logoId);
    return Promise.resolve(stored ? { ...stored, bytes: new Uint8Array(stored.bytes) } : null);
  }

  saveLogo(logo: StoredLogo): Promise<void> {
    this.logos.set(logo.id, { ...logo, bytes: new Uint8Array(logo.bytes) });
    return Promise.resolve();
  }
}
