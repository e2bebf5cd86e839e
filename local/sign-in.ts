/**
 * Console sign-in on one machine: the local OpenID provider (engines/oidc.ts) with its accounts, the development
 * admin (`admin@localhost` / `local-password` unless told otherwise) as an administrator of the development
 * application, and what the routes are told of the provider, as CDK tells them of the user pool.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Deps } from '#shared/deps.ts';
import { Conflict } from '#shared/kernel/errors.ts';
import type { SignInSettings } from '../infra/stacks/environment.ts';
import { LocalAccounts } from './engines/oidc-accounts.ts';
import { startOidcProvider, type RunningOidc } from './engines/oidc.ts';

/** The user pool id the local user routes are given; the in-process answers serve only it. */
export const LOCAL_USER_POOL_ID = 'us-east-1_local';

export interface LocalSignIn {
  oidc: RunningOidc;
  accounts: LocalAccounts;
  settings: SignInSettings;
}

export async function startSignIn(options: { dir: string; port: number; signingUrl: string }): Promise<LocalSignIn> {
  await mkdir(options.dir, { recursive: true });
  const accounts = await LocalAccounts.open(options.dir);
  const oidc = await startOidcProvider({
    port: options.port, dir: options.dir, accounts,
    redirectUris: [`${options.signingUrl}/app/callback`], postLogoutRedirectUris: [`${options.signingUrl}/app/`],
  });
  return {
    oidc, accounts,
    settings: { issuer: oidc.issuer, clientId: oidc.clientId, jwksUrl: oidc.jwksUrl, audience: oidc.audience, logoutUrl: null, userPoolId: LOCAL_USER_POOL_ID },
  };
}

/** The development admin's account, password reset to the configured one, and their place in the development application. */
export async function ensureDevAdmin(deps: Pick<Deps, 'team' | 'clock'>, signIn: LocalSignIn, appId: string, admin = { email: 'admin@localhost', password: 'local-password' }) {
  const account = await signIn.accounts.ensure(admin.email, 'Local admin', admin.password);
  if (await deps.team.userBySubject(account.id)) return admin;
  await deps.team.addUser({ appId, userId: account.id, email: account.email, name: account.name, role: 'admin', createdAt: deps.clock.now().toISOString() })
    .catch((error: unknown) => { if (!(error instanceof Conflict)) throw error; });
  return admin;
}

export const signInDir = (root: string) => join(root, 'oidc');
