/**
 * An application's branding, optionally overridden per tenant: who the signer is told asks them (the organisation),
 * its logo and colour on the emails and pages, and the name its emails come from. An envelope keeps the branding
 * in force when it was created (`EnvelopeBranding`), so every message and page of one envelope, and its audit
 * certificate, tell the same story even if the branding changes later. See docs/branding.md.
 */

/** A stored logo, named by the SHA-256 of its (sanitised) bytes: the same logo is one item, and its URL never changes. */
export interface LogoRef {
  id: string;
  contentType: 'image/png' | 'image/svg+xml';
  width: number | null;
  height: number | null;
  sizeBytes: number;
}

export interface StoredLogo extends LogoRef {
  bytes: Uint8Array;
  createdAt: string;
}

/** The application's record (every field set), or a tenant's override (only the fields it overrides). */
export interface BrandingRecord {
  organizationName?: string | undefined;
  primaryColor?: string | undefined;
  emailFromName?: string | undefined;
  replyTo?: string | null | undefined;
  supportEmail?: string | null | undefined;
  logo?: LogoRef | null | undefined;
  updatedAt: string;
}

/** The branding in force for an envelope: the application's, with the tenant's fields over it. */
export interface EnvelopeBranding {
  organizationName: string;
  primaryColor: string;
  emailFromName: string;
  replyTo: string | null;
  supportEmail: string | null;
  logo: LogoRef | null;
}

/** Who sent the envelope, as the signer is told: given at create, else the signed-in user who created it. */
export interface EnvelopeSender {
  name: string;
  email: string | null;
}

/** The tenant's fields win; a field the tenant left unset is the application's. Null: neither has a record. */
export function resolveBranding(app: BrandingRecord | null, tenant: BrandingRecord | null): EnvelopeBranding | null {
  if (!app && !tenant) return null;
  const pick = <K extends keyof BrandingRecord>(key: K): BrandingRecord[K] | undefined => (tenant?.[key] !== undefined ? tenant[key] : app?.[key]);
  const organizationName = pick('organizationName');
  // A tenant override without an application record still needs a name to say who asks
  if (!organizationName) return null;
  return {
    organizationName,
    primaryColor: pick('primaryColor') ?? DEFAULT_PRIMARY,
    emailFromName: pick('emailFromName') ?? organizationName,
    replyTo: pick('replyTo') ?? null,
    supportEmail: pick('supportEmail') ?? null,
    logo: pick('logo') ?? null,
  };
}

/** The branding an envelope of this tenant takes now: the application's, with the tenant's fields over it. */
export async function brandingFor(deps: { tenants: { branding(appId: string, tenantId: string | null): Promise<BrandingRecord | null> } }, appId: string, tenantId: string): Promise<EnvelopeBranding | null> {
  const [app, tenant] = await Promise.all([deps.tenants.branding(appId, null), deps.tenants.branding(appId, tenantId)]);
  return resolveBranding(app, tenant);
}

/** What a new envelope of this tenant takes, in one read: the tenant's settings and the branding resolved. */
export async function tenantForEnvelope<S>(deps: { tenants: { forEnvelope(appId: string, tenantId: string): Promise<{ settings: S; app: BrandingRecord | null; tenant: BrandingRecord | null }> } }, appId: string, tenantId: string): Promise<{ settings: S; branding: EnvelopeBranding | null }> {
  const { settings, app, tenant } = await deps.tenants.forEnvelope(appId, tenantId);
  return { settings, branding: resolveBranding(app, tenant) };
}

/** The signing pages' own blue: the colour of a tenant override that names no colour and has no application record. */
export const DEFAULT_PRIMARY = '#1d4ed8';

// ---------------------------------------------------------------------------------------------
// Contrast (WCAG 2.x relative luminance and contrast ratio).

/** Normal text needs 4.5:1 against its background (WCAG 2.x AA, 1.4.3). */
export const AA_CONTRAST = 4.5;

const HEX = /^#([0-9a-f]{6})$/i;

export const isHexColor = (value: string) => HEX.test(value);

function channels(hex: string): [number, number, number] {
  const match = HEX.exec(hex);
  if (!match?.[1]) throw new Error(`not a #rrggbb colour: ${hex}`);
  const n = Number.parseInt(match[1], 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export function relativeLuminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The text colour on the primary colour (header, buttons): white or black, whichever contrasts more (always >= 4.5:1). */
export function textColorOn(primary: string): '#ffffff' | '#000000' {
  return contrastRatio(primary, '#ffffff') >= contrastRatio(primary, '#000000') ? '#ffffff' : '#000000';
}

/** What text in the brand colour stands on: white, and the pages' light grey (web/src/styles.css `--bg`). */
const LIGHT_SURFACES = ['#ffffff', '#f3f4f6'];

/**
 * The primary colour as text (links) on white: itself when it reaches 4.5:1 there (and on the pages' light grey),
 * else darkened step by step (same hue) until it does. A light brand colour stays the header's background; its
 * links, and buttons with white text, take the darker shade.
 */
export function accentOnWhite(primary: string): string {
  let [r, g, b] = channels(primary);
  let color = primary.toLowerCase();
  while (Math.min(...LIGHT_SURFACES.map((surface) => contrastRatio(color, surface))) < AA_CONTRAST) {
    [r, g, b] = [Math.floor(r * 0.9), Math.floor(g * 0.9), Math.floor(b * 0.9)];
    color = `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
  }
  return color;
}

/** The colours a page or email uses: the brand colour, the text on it, and the brand colour as text on white. */
export function brandColors(primary: string) {
  return { primaryColor: primary.toLowerCase(), textColor: textColorOn(primary), accentColor: accentOnWhite(primary) };
}

/** Where the signing host serves a logo (a public route, cached for good: the id is the content's hash). */
export const logoPath = (logo: Pick<LogoRef, 'id'>) => `/v1/branding/${logo.id}/logo`;
