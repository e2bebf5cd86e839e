/**
 * The local OpenID provider (the `oidc-provider` package, OpenID certified) that the sender console signs in with,
 * as it signs in with the Cognito user pool on AWS: authorization code with PKCE (required), one public client (the
 * console, redirecting to `<signing host>/app/callback`), RS256 keys kept under the data directory, and JWT access
 * tokens (RFC 9068) for the API's audience, which the API verifies against this provider's JWKS. It listens on
 * loopback only. Its login page is a plain form (oidc-login-page.ts) checked against the local accounts.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';
import { freePort } from './free-port.ts';
import type { LocalAccount, LocalAccounts } from './oidc-accounts.ts';
import { loginPage, MIN_PASSWORD, newPasswordPage } from './oidc-login-page.ts';
import type { RunningEngine } from './types.ts';

/** The resource the console's access tokens are for: their `aud`, which the API requires. */
export const LOCAL_API_AUDIENCE = 'urn:esign:api';
export const CONSOLE_CLIENT_ID = 'esign-console';
export const CONSOLE_SCOPES = ['openid', 'email', 'profile'] as const;

export interface OidcOptions {
  /** 0 or absent: a free port. */
  port?: number;
  /** Keys kept here between starts; absent: new ones. */
  dir?: string;
  accounts: LocalAccounts;
  /** Where the console may be sent back to (`<signing host>/app/callback`). */
  redirectUris: string[];
  /** Where it may be sent after signing out. */
  postLogoutRedirectUris: string[];
  /** The access token's lifetime in seconds (one hour, as Cognito's default). */
  accessTokenSeconds?: number;
}

export interface RunningOidc extends RunningEngine {
  issuer: string;
  jwksUrl: string;
  clientId: string;
  audience: string;
}

interface ProviderKeys { signing: JWK; cookies: string[] }

async function providerKeys(dir: string | undefined): Promise<ProviderKeys> {
  const file = dir ? join(dir, 'oidc-keys.json') : undefined;
  if (file) {
    try {
      return JSON.parse(await readFile(file, 'utf8')) as ProviderKeys;
    } catch {
      // first start: made below
    }
  }
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const keys = { signing: { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: randomBytes(8).toString('hex') }, cookies: [randomBytes(32).toString('base64url')] };
  if (file) await writeFile(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}

function configuration(options: OidcOptions, keys: ProviderKeys): Configuration {
  const accessTokenSeconds = options.accessTokenSeconds ?? 3600;
  return {
    clients: [{
      client_id: CONSOLE_CLIENT_ID, token_endpoint_auth_method: 'none', application_type: 'web',
      redirect_uris: options.redirectUris, post_logout_redirect_uris: options.postLogoutRedirectUris,
      grant_types: ['authorization_code'], response_types: ['code'],
    }],
    pkce: { required: () => true },
    jwks: { keys: [keys.signing] },
    cookies: { keys: keys.cookies },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    scopes: [...CONSOLE_SCOPES],
    findAccount: (_ctx, id) => {
      const account = options.accounts.byId(id);
      return account && { accountId: id, claims: () => ({ sub: id, email: account.email, email_verified: true, ...(account.name ? { name: account.name } : {}) }) };
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => LOCAL_API_AUDIENCE,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({ scope: CONSOLE_SCOPES.join(' '), audience: LOCAL_API_AUDIENCE, accessTokenFormat: 'jwt', accessTokenTTL: accessTokenSeconds, jwt: { sign: { alg: 'RS256' } } }),
      },
    },
    // The API knows a user by `sub`; the email rides along for the audit log's `user:<email>`.
    extraTokenClaims: (_ctx, token) => {
      const account = 'accountId' in token && typeof token.accountId === 'string' ? options.accounts.byId(token.accountId) : undefined;
      return account ? { email: account.email } : undefined;
    },
    ttl: { AccessToken: accessTokenSeconds, AuthorizationCode: 60, IdToken: accessTokenSeconds, Interaction: 600, Session: 86_400, Grant: 86_400 },
    renderError: (ctx, out) => { ctx.type = 'html'; ctx.body = loginPage({ error: `${out.error}: ${out.error_description ?? ''}` }); },
  };
}

const formOf = async (req: IncomingMessage): Promise<URLSearchParams> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
};

/** The form posts here, and the provider's answer redirects to the console: a browser holds both to form-action. */
let formAction = "'self'";
const page = (res: ServerResponse, status: number, html: string) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'` });
  res.end(html);
};

/** Sign-ins whose temporary password was right, by interaction: the account that must now choose its own. */
const choosing = new Map<string, string>();

/** A new password for an account that must replace its temporary one; its problem, else null once saved. */
async function chooseNewPassword(accounts: LocalAccounts, accountId: string, form: URLSearchParams): Promise<string | null> {
  const password = form.get('newPassword') ?? '';
  if (password.length < MIN_PASSWORD) return `The new password needs at least ${String(MIN_PASSWORD)} characters.`;
  if (password !== form.get('confirmPassword')) return 'The two passwords are not the same.';
  const account = accounts.byId(accountId);
  if (account && await accounts.check(account.email, password)) return 'Choose a password other than the temporary one.';
  await accounts.setPassword(accountId, password);
  return null;
}

/**
 * The login form and its answer: a matching password finishes the interaction with the first-party grant; an
 * invited user's temporary password first asks for their own, as Cognito does.
 */
async function interaction(provider: Provider, accounts: LocalAccounts, req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (details.uid !== uid) {
    page(res, 400, loginPage({ error: 'This sign-in has expired; start again.' }));
    return;
  }
  if (req.method === 'GET') {
    page(res, 200, loginPage({ action: `/interaction/${uid}`, email: typeof details.params.login_hint === 'string' ? details.params.login_hint : '' }));
    return;
  }
  const form = await formOf(req);
  const pending = choosing.get(uid);
  let account: LocalAccount | undefined;
  if (form.get('step') === 'new-password' && pending) {
    const problem = await chooseNewPassword(accounts, pending, form);
    account = accounts.byId(pending);
    if (problem && account) {
      page(res, 400, newPasswordPage({ action: `/interaction/${uid}`, email: account.email, error: problem }));
      return;
    }
    choosing.delete(uid);
  } else {
    const email = form.get('email') ?? '';
    account = await accounts.check(email, form.get('password') ?? '');
    if (!account) {
      page(res, 401, loginPage({ action: `/interaction/${uid}`, email, error: 'The email or password is not correct.' }));
      return;
    }
    if (account.mustChangePassword) {
      choosing.set(uid, account.id);
      page(res, 200, newPasswordPage({ action: `/interaction/${uid}`, email: account.email }));
      return;
    }
  }
  if (!account) {
    page(res, 400, loginPage({ error: 'This sign-in has expired; start again.' }));
    return;
  }
  // The console is the provider's own client: what it asks for is granted without a consent page.
  const grant = new provider.Grant({ accountId: account.id, clientId: String(details.params.client_id) });
  grant.addOIDCScope(typeof details.params.scope === 'string' ? details.params.scope : CONSOLE_SCOPES.join(' '));
  grant.addResourceScope(LOCAL_API_AUDIENCE, CONSOLE_SCOPES.join(' '));
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { login: { accountId: account.id }, consent: { grantId } }, { mergeWithLastSubmission: false });
}

/** Starts the provider on 127.0.0.1 (its issuer `http://127.0.0.1:<port>`). */
export async function startOidcProvider(options: OidcOptions): Promise<RunningOidc> {
  const port = options.port === undefined || options.port === 0 ? await freePort() : options.port;
  const issuer = `http://127.0.0.1:${String(port)}`;
  formAction = ["'self'", ...new Set(options.redirectUris.map((uri) => new URL(uri).origin))].join(' ');
  const provider = new Provider(issuer, configuration(options, await providerKeys(options.dir)));
  const callback = provider.callback();
  const server = createServer((req, res) => {
    const uid = /^\/interaction\/([\w-]+)$/.exec(new URL(req.url ?? '/', issuer).pathname)?.[1];
    if (!uid) return void callback(req, res);
    interaction(provider, options.accounts, req, res, uid).catch((error: unknown) => {
      page(res, 400, loginPage({ error: `This sign-in cannot go on (${(error as Error).message}); start again from the console.` }));
    });
  });
  await new Promise<void>((done, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => { done(); });
  });
  let stopped: Promise<void> | undefined;
  return {
    endpoint: issuer, issuer, jwksUrl: `${issuer}/jwks`, clientId: CONSOLE_CLIENT_ID, audience: LOCAL_API_AUDIENCE,
    stop: () => (stopped ??= new Promise<void>((done) => { server.close(() => { done(); }); server.closeAllConnections(); })),
  };
}
