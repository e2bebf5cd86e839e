/**
 * Setting and reading branding (docs/branding.md): the application's record, a tenant's override, and what an
 * envelope created now takes. A new logo is checked (branding-logo.ts) and stored by its hash before the record
 * names it.
 */
import type { Config } from '../config.ts';
import type { TenantRepository } from '#shared/ports/repositories.ts';
import type { Clock } from '#shared/ports/services.ts';
import { acceptLogo } from './branding-logo.ts';
import type { BrandingRecord, LogoRef } from './branding.ts';

export interface BrandingDeps {
  tenants: TenantRepository;
  clock: Clock;
  config: Pick<Config, 'signingUrl'>;
}

export interface BrandingInput {
  organizationName?: string | undefined;
  primaryColor?: string | undefined;
  emailFromName?: string | undefined;
  replyTo?: string | null | undefined;
  supportEmail?: string | null | undefined;
  /** A data: URI; null removes the logo, absent keeps it. */
  logo?: string | null | undefined;
}

/** Stores the record with the fields given (each absent one keeps its value); a new logo is stored first. */
export async function saveBranding(deps: BrandingDeps, appId: string, tenantId: string | null, input: BrandingInput): Promise<BrandingRecord> {
  const now = deps.clock.now();
  const current = await deps.tenants.branding(appId, tenantId);
  let logo: LogoRef | null | undefined = current?.logo;
  if (typeof input.logo === 'string') {
    const stored = await acceptLogo(input.logo, now);
    await deps.tenants.saveLogo(stored);
    const { bytes: _bytes, createdAt: _at, ...ref } = stored;
    logo = ref;
  } else if (input.logo === null) {
    logo = null;
  }
  const { logo: _given, ...given } = input;
  const defined = Object.fromEntries(Object.entries(given as Record<string, unknown>).filter(([, value]) => value !== undefined)) as Omit<BrandingInput, 'logo'>;
  const record: BrandingRecord = { ...current, ...defined, logo, updatedAt: now.toISOString() };
  await deps.tenants.saveBranding(appId, tenantId, record);
  return record;
}
