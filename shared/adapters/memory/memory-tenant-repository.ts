import { DEFAULT_TENANT, type TenantSettings } from '#shared/kernel/model.ts';
import type { TenantRepository } from '#shared/ports/repositories.ts';
import { copy } from './memory-table.ts';

/** Tenant settings; the envelope counters behind the list's `total` live with the envelopes (MemoryEnvelopeRepository). */
export class MemoryTenantRepository implements TenantRepository {
  private readonly settings = new Map<string, TenantSettings>();

  get(appId: string, tenantId: string): Promise<TenantSettings> {
    const stored = this.settings.get(`${appId}#${tenantId}`);
    return Promise.resolve(stored ? copy(stored) : { appId, tenantId, ...DEFAULT_TENANT });
  }

  put(settings: TenantSettings): Promise<void> {
    const { appId, tenantId, defaultExpiresInDays, retentionDays, fieldOrigin, defaultLocale } = settings;
    this.settings.set(`${appId}#${tenantId}`, { appId, tenantId, defaultExpiresInDays, retentionDays, fieldOrigin, defaultLocale, defaultReminders: settings.defaultReminders ?? null });
    return Promise.resolve();
  }
}
