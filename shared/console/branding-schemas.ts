/** Request and response bodies of the branding routes (docs/branding.md). */
import * as v from 'valibot';
import { TenantId } from '../http/common-schemas.ts';

const name = (max: number) => v.pipe(
  v.string('must be a string'), v.trim(), v.nonEmpty('is required'), v.maxLength(max, `must be at most ${String(max)} characters`),
  // It becomes part of an email's From header: no line breaks, quotes or angle brackets
  v.check((value) => !/[\p{Cc}"<>\\]/u.test(value), 'must not contain control characters, quotes, backslashes or angle brackets'),
);
const email = v.pipe(v.string('must be an email address'), v.trim(), v.email('must be an email address'), v.maxLength(254, 'must be at most 254 characters'));
const color = v.pipe(v.string('must be a colour'), v.trim(), v.regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour written #rrggbb'));
const logo = v.pipe(
  v.nullable(v.pipe(v.string('must be a data: URI'), v.maxLength(400_000, 'is larger than 200 KB'))),
  v.description('`data:image/png;base64,...` or `data:image/svg+xml;base64,...` (at most 200 KB; an SVG is sanitised); null removes it; absent keeps it'),
);

const fields = {
  organizationName: v.pipe(name(100), v.description('Who asks the signer: "Jane Doe at <organizationName> asked you to sign ..."')),
  primaryColor: v.pipe(color, v.description('The header and button colour; its text colour is picked for 4.5:1 contrast, and as link text on white it is darkened until it reaches 4.5:1')),
  emailFromName: v.pipe(name(64), v.description('Emails come from "<emailFromName> via <service>"; the address stays the service\'s verified sender')),
  replyTo: v.optional(v.nullable(email)),
  supportEmail: v.optional(v.nullable(email)),
  logo: v.optional(logo),
};

export const BrandingRequest = v.object(fields);

/** A tenant's override: each field it sets wins over the application's; what it leaves out is the application's. */
export const TenantBrandingRequest = v.object({
  organizationName: v.optional(fields.organizationName),
  primaryColor: v.optional(fields.primaryColor),
  emailFromName: v.optional(fields.emailFromName),
  replyTo: fields.replyTo,
  supportEmail: fields.supportEmail,
  logo: fields.logo,
});

export const TenantBrandingParams = v.object({ tenantId: TenantId });

export const LogoParams = v.object({ logoId: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/, 'must be a logo id')) });

const LogoResponse = v.object({
  url: v.pipe(v.string(), v.description('Public and cacheable, on the signing host')),
  contentType: v.picklist(['image/png', 'image/svg+xml']),
  width: v.nullable(v.number()),
  height: v.nullable(v.number()),
  sizeBytes: v.number(),
});

/** The branding in force (the application's with the tenant's fields over it), with its contrast-checked colours. */
export const EffectiveBrandingResponse = v.object({
  organizationName: v.string(),
  primaryColor: v.string(),
  textColor: v.pipe(v.string(), v.description('Text on primaryColor: white or black, whichever contrasts more (at least 4.5:1)')),
  accentColor: v.pipe(v.string(), v.description('primaryColor as text on white: itself, or darkened until it reaches 4.5:1')),
  emailFromName: v.string(),
  replyTo: v.nullable(v.string()),
  supportEmail: v.nullable(v.string()),
  logo: v.nullable(LogoResponse),
});

/** A stored record: every field null that was never set (an application without branding answers all nulls). */
export const BrandingResponse = v.object({
  organizationName: v.nullable(v.string()),
  primaryColor: v.nullable(v.string()),
  emailFromName: v.nullable(v.string()),
  replyTo: v.nullable(v.string()),
  supportEmail: v.nullable(v.string()),
  logo: v.nullable(LogoResponse),
  updatedAt: v.nullable(v.string()),
  effective: v.pipe(v.nullable(EffectiveBrandingResponse), v.description('What envelopes created now get (null: no branding)')),
});

/** What the signing, download and embedded pages show. */
export const PageBrandingResponse = v.nullable(v.object({
  organizationName: v.string(),
  primaryColor: v.string(),
  textColor: v.string(),
  accentColor: v.string(),
  logoUrl: v.pipe(v.nullable(v.string()), v.description('Same-origin path of the logo')),
  supportEmail: v.nullable(v.string()),
  senderName: v.pipe(v.nullable(v.string()), v.description('Who asked: the envelope\'s sender')),
}));
