/** Branding as the console routes and the signer's pages show it. */
import type { Envelope } from '../kernel/model.ts';
import { brandColors, brandingFor, logoPath, type BrandingRecord, type EnvelopeBranding, type LogoRef } from './branding.ts';

const logoView = (logo: LogoRef | null | undefined, signingUrl: string) =>
  logo ? { url: `${signingUrl}${logoPath(logo)}`, contentType: logo.contentType, width: logo.width, height: logo.height, sizeBytes: logo.sizeBytes } : null;

export function effectiveBrandingView(branding: EnvelopeBranding | null, signingUrl: string) {
  if (!branding) return null;
  const { primaryColor, textColor, accentColor } = brandColors(branding.primaryColor);
  return {
    organizationName: branding.organizationName, primaryColor, textColor, accentColor, emailFromName: branding.emailFromName,
    replyTo: branding.replyTo, supportEmail: branding.supportEmail, logo: logoView(branding.logo, signingUrl),
  };
}

export function brandingView(record: BrandingRecord | null, effective: EnvelopeBranding | null, signingUrl: string) {
  return {
    organizationName: record?.organizationName ?? null, primaryColor: record?.primaryColor ?? null, emailFromName: record?.emailFromName ?? null,
    replyTo: record?.replyTo ?? null, supportEmail: record?.supportEmail ?? null, logo: logoView(record?.logo, signingUrl),
    updatedAt: record?.updatedAt ?? null, effective: effectiveBrandingView(effective, signingUrl),
  };
}

/** The signing, download and embedded pages' header: the envelope's branding, the logo on the page's own origin. */
export function pageBrandingView(envelope: Pick<Envelope, 'branding' | 'sender'>) {
  const branding = envelope.branding;
  if (!branding) return null;
  return {
    organizationName: branding.organizationName, ...brandColors(branding.primaryColor),
    logoUrl: branding.logo ? logoPath(branding.logo) : null, supportEmail: branding.supportEmail, senderName: envelope.sender?.name ?? null,
  };
}

/** The header of a sender's page (the editor): a draft's own branding, what its signers will see; a template's tenant's. */
export async function editorBrandingView(
  deps: {
    envelopes: { find(id: string): Promise<Pick<Envelope, 'appId' | 'branding' | 'sender'> | undefined> };
    templates: { get(appId: string, id: string): Promise<{ tenantId: string } | undefined> };
    tenants: { branding(appId: string, tenantId: string | null): Promise<BrandingRecord | null> };
  },
  appId: string, kind: 'envelope' | 'template', id: string,
) {
  if (kind === 'envelope') {
    const envelope = await deps.envelopes.find(id);
    return envelope?.appId === appId ? pageBrandingView(envelope) : null;
  }
  const template = await deps.templates.get(appId, id);
  return template ? pageBrandingView({ branding: await brandingFor(deps, appId, template.tenantId), sender: null }) : null;
}
