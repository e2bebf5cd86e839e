/**
 * How the console's users sign in on AWS, from CDK context: MFA (`signInMfa`: `off`, `optional` (default) or
 * `required`, by authenticator app), the hosted sign-in domain's prefix (`signInDomainPrefix`; default
 * `<prefix>-<account>`), and the customer's own identity providers (`identityProviders`, a JSON list), each an
 * OpenID Connect provider (`{"type":"oidc","name","issuerUrl","clientId","clientSecretArn"}`, the secret read from
 * Secrets Manager at deploy) or a SAML one (`{"type":"saml","name","metadataUrl"}`).
 */
import type { Node } from 'constructs';

export type SignInMfa = 'off' | 'optional' | 'required';

export type IdentityProviderSetting =
  | { type: 'oidc'; name: string; issuerUrl: string; clientId: string; clientSecretArn: string }
  | { type: 'saml'; name: string; metadataUrl: string };

export interface ConsoleSignInSettings {
  mfa: SignInMfa;
  domainPrefix: string | null;
  identityProviders: IdentityProviderSetting[];
}

export const DEFAULT_SIGN_IN: ConsoleSignInSettings = { mfa: 'optional', domainPrefix: null, identityProviders: [] };

const MFA: readonly SignInMfa[] = ['off', 'optional', 'required'];
/** Cognito's rule for a provider's name: 1 to 32 characters, no leading `Cognito`. */
const PROVIDER_NAME = /^(?!Cognito)[\w.-]{1,32}$/;

const string = (entry: Record<string, unknown>, key: string, where: string): string => {
  const value = entry[key];
  if (typeof value !== 'string' || value === '') throw new Error(`identityProviders[${where}].${key} is required (a string)`);
  return value;
};

function providerOf(entry: unknown, index: number): IdentityProviderSetting {
  const where = String(index);
  if (typeof entry !== 'object' || entry === null) throw new Error(`identityProviders[${where}] must be an object`);
  const e = entry as Record<string, unknown>;
  const name = string(e, 'name', where);
  if (!PROVIDER_NAME.test(name)) throw new Error(`identityProviders[${where}].name must be 1 to 32 letters, digits, '.', '_' or '-', not starting with Cognito (got ${name})`);
  if (e.type === 'oidc') {
    const issuerUrl = string(e, 'issuerUrl', where);
    if (!issuerUrl.startsWith('https://')) throw new Error(`identityProviders[${where}].issuerUrl must be an https:// URL`);
    return { type: 'oidc', name, issuerUrl, clientId: string(e, 'clientId', where), clientSecretArn: string(e, 'clientSecretArn', where) };
  }
  if (e.type === 'saml') return { type: 'saml', name, metadataUrl: string(e, 'metadataUrl', where) };
  throw new Error(`identityProviders[${where}].type must be oidc or saml`);
}

export function signInSettingsOf(node: Node): ConsoleSignInSettings {
  const mfa: unknown = node.tryGetContext('signInMfa') ?? DEFAULT_SIGN_IN.mfa;
  if (typeof mfa !== 'string' || !(MFA as readonly string[]).includes(mfa)) throw new Error(`signInMfa must be off, optional or required (got ${JSON.stringify(mfa)})`);
  const prefix: unknown = node.tryGetContext('signInDomainPrefix');
  if (prefix !== undefined && (typeof prefix !== 'string' || !/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(prefix))) {
    throw new Error('signInDomainPrefix must be lowercase letters, digits and hyphens (not at either end), at most 63');
  }
  const raw: unknown = node.tryGetContext('identityProviders');
  const list: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw ?? [];
  if (!Array.isArray(list)) throw new Error('identityProviders must be a JSON list');
  const identityProviders = list.map(providerOf);
  const names = identityProviders.map((p) => p.name);
  if (new Set(names).size !== names.length) throw new Error('identityProviders: each name once');
  return { mfa: mfa as SignInMfa, domainPrefix: typeof prefix === 'string' ? prefix : null, identityProviders };
}
