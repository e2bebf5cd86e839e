/** Request and response bodies of sign-in discovery, the signed-in caller, console users and API clients. */
import * as v from 'valibot';
import { timestamp } from '../http/response-primitives.ts';
import { PageBrandingResponse } from './branding-schemas.ts';
import { LOCALES } from '../i18n/locales.ts';

export const CONSOLE_ROLES = ['admin', 'sender'] as const;
const role = v.pipe(v.picklist(CONSOLE_ROLES, 'must be admin or sender'), v.description('`admin`: everything; `sender`: envelopes and templates, no users, API clients, webhooks or settings'));

export const AuthConfigResponse = v.object({
  issuer: v.pipe(v.string(), v.description("The OpenID provider: its discovery document is `<issuer>/.well-known/openid-configuration`")),
  clientId: v.pipe(v.string(), v.description("The console's public client: authorization code with PKCE (S256), no secret")),
  scopes: v.array(v.string()),
  redirectPath: v.pipe(v.string(), v.description('Appended to the signing host origin: the redirect_uri the provider sends the code to')),
  logoutUrl: v.pipe(v.nullable(v.string()), v.description("Cognito's hosted logout (`?client_id=&logout_uri=`); null: the discovery document's `end_session_endpoint`")),
});

export const MeResponse = v.object({
  email: v.pipe(v.nullable(v.string()), v.description('Null for a client-credentials token')),
  name: v.nullable(v.string()),
  role,
  appId: v.string(),
  applicationName: v.string(),
  branding: v.pipe(PageBrandingResponse, v.description("The application's branding for the console's header (its tenants may override it for their envelopes); null: none")),
});

export const UserResponse = v.object({
  userId: v.pipe(v.string(), v.description("The user's `sub` at the OpenID provider")),
  email: v.string(),
  name: v.nullable(v.string()),
  role,
  createdAt: timestamp,
});
export const UserListResponse = v.array(UserResponse);

export const InviteUserRequest = v.object({
  email: v.pipe(v.string('must be an email address'), v.trim(), v.email('must be an email address'), v.maxLength(254, 'must be at most 254 characters')),
  name: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(200, 'must be at most 200 characters'))), null),
  role,
  locale: v.pipe(v.optional(v.picklist(LOCALES, `must be one of ${LOCALES.join(', ')}`)), v.description('The language of the invitation email; default en')),
});

export const UpdateUserRequest = v.object({ role });

export const UserParams = v.object({ userId: v.pipe(v.string(), v.maxLength(128)) });
export const ClientParams = v.object({ clientId: v.pipe(v.string(), v.maxLength(256)) });

export const ApiClientResponse = v.object({
  clientId: v.string(),
  name: v.string(),
  createdAt: timestamp,
  primary: v.pipe(v.boolean(), v.description("The application's own client: its secret also signs webhooks, so it is rotated, never revoked")),
});
export const ApiClientListResponse = v.array(ApiClientResponse);

export const CreateApiClientRequest = v.object({
  name: v.pipe(v.string('is required'), v.trim(), v.nonEmpty('is required'), v.maxLength(200, 'must be at most 200 characters')),
});

export const CreatedApiClientResponse = v.object({
  clientId: v.string(),
  clientSecret: v.pipe(v.nullable(v.string()), v.description('Shown once, stored only hashed; null when an Idempotency-Key repeat answers')),
  name: v.string(),
  createdAt: timestamp,
});
