/**
 * Every email of a branded envelope (docs/branding.md): it says who asks, carries the logo and colour, and comes
 * from "<emailFromName> via <service>" with a reply-to; the address stays the service's verified sender.
 */
import type { Locale } from '../i18n/locales.ts';
import { escapeHtml, html, text } from '../i18n/messages.ts';
import type { Envelope } from '../kernel/model.ts';
import { brandColors, logoPath } from '../console/branding.ts';

/** The service's own name: branded emails come from "<emailFromName> via <SERVICE_NAME>". */
export const SERVICE_NAME = 'Secure e-signature';

export interface EmailIdentity {
  /** The From header's display name; the address is the service's own (MAIL_FROM). */
  fromName?: string;
  replyTo?: string[];
}

type Branded = Pick<Envelope, 'branding' | 'sender' | 'createdBy'>;

/** Who asks, as the emails say it: "Jane Doe at Acme Corp", the person alone, the organisation alone, or null. */
export function whoAsks(envelope: Branded, locale: Locale): string | null {
  const sender = envelope.sender?.name ?? null;
  const organization = envelope.branding?.organizationName ?? null;
  if (sender && organization) return text(locale, 'who.personAtOrganization', { sender, organization });
  return sender ?? organization;
}

/** The sender and reply-to of an envelope's emails: nothing of its own when it names neither branding nor sender. */
export function identityOf(envelope: Branded): EmailIdentity {
  const name = envelope.branding?.emailFromName ?? envelope.sender?.name ?? null;
  const replyTo = envelope.branding?.replyTo ?? envelope.sender?.email ?? null;
  return { ...(name ? { fromName: `${name} via ${SERVICE_NAME}` } : {}), ...(replyTo ? { replyTo: [replyTo] } : {}) };
}

interface Rendered { subject: string; text: string; html: string }

/**
 * The email in the envelope's branding: a header band in the brand colour with the logo and name, the main link as
 * a button, links in the brand colour darkened for contrast, who asks (unless the lead said it) and where to ask.
 */
export function brandEmail<E extends Rendered>(
  envelope: Branded, locale: Locale, email: E, signingUrl: string, options: { saysWho?: boolean } = {},
): E & EmailIdentity {
  const branding = envelope.branding;
  const who = options.saysWho ? null : whoAsks(envelope, locale);
  const support = branding?.supportEmail ?? null;
  const identity = identityOf(envelope);
  const extraText = [who ? text(locale, 'email.requestFrom', { who }) : '', support ? text(locale, 'email.support', { email: support }) : ''].filter(Boolean);
  const extraHtml = [who ? `<p>${html(locale, 'email.requestFrom', { who })}</p>` : '', support ? `<p style="color:#4b5563;font-size:13px">${html(locale, 'email.support', { email: support })}</p>` : ''].join('');
  if (!branding) {
    if (extraText.length === 0) return { ...email, ...identity };
    return { ...email, ...identity, text: [email.text.trimEnd(), ...extraText].join('\n\n') + '\n', html: email.html + extraHtml };
  }
  const { primaryColor, textColor, accentColor } = brandColors(branding.primaryColor);
  const name = escapeHtml(branding.organizationName);
  const logo = branding.logo
    ? `<img src="${escapeHtml(`${signingUrl}${logoPath(branding.logo)}`)}" alt="${name}" height="40" style="height:40px;max-width:200px;vertical-align:middle;margin-inline-end:12px;border:0">`
    : '';
  const body = email.html
    // The link on its own paragraph is the call to action: a button in the brand colour
    .replace(/<p><a href="/g, `<p><a style="display:inline-block;background:${primaryColor};color:${textColor};padding:10px 18px;border-radius:6px;text-decoration:none;font-weight:600" href="`)
    .replace(/<a href="/g, `<a style="color:${accentColor}" href="`);
  return {
    ...email, ...identity,
    text: [branding.organizationName, email.text.trimEnd(), ...extraText].join('\n\n') + '\n',
    html: `<div style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:600px;color:#1f2937">`
      + `<div style="background:${primaryColor};color:${textColor};padding:12px 16px;border-radius:6px 6px 0 0;font-weight:600;font-size:18px">${logo}<span>${name}</span></div>`
      + `<div style="padding:8px 16px;border:1px solid #e5e7eb;border-top:0;border-radius:0 0 6px 6px">${body}${extraHtml}</div></div>`,
  };
}
