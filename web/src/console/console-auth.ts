/**
 * Signing in: OpenID Connect authorization code with PKCE against the issuer `GET /v1/console/auth-config` names,
 * through oauth4webapi (a small, dependency-free, OpenID-certified client): the verifier, state, discovery and the
 * token response's checks (issuer, audience, expiry of the ID token) are its tested code rather than ours. The access
 * token lives in the tab's sessionStorage only (gone with the tab), never in a cookie or localStorage.
 */
import * as oauth from 'oauth4webapi';

export interface AuthConfig {
  issuer: string;
  clientId: string;
  scopes: string[];
  redirectPath: string;
  /** The provider's own logout page (Cognito's hosted one); null: the discovery document's end_session_endpoint. */
  logoutUrl: string | null;
}

interface Session { accessToken: string; expiresAt: number }
interface Pending { verifier: string; state: string; returnTo: string }

const SESSION = 'esign.console.session';
const PENDING = 'esign.console.pending';

function read(key: string): unknown {
  try {
    const raw = sessionStorage.getItem(key);
    return raw ? JSON.parse(raw) as unknown : null;
  } catch {
    return null;
  }
}

/** The access token of this tab's session, if it has one that has not expired. */
export function accessToken(): string | null {
  const session = read(SESSION) as Session | null;
  return session && session.expiresAt > Date.now() ? session.accessToken : null;
}

export function forgetSession(): void {
  sessionStorage.removeItem(SESSION);
}

/** The provider's discovery, plain HTTP allowed only for a provider on this machine (the local stack's). */
async function discover(config: AuthConfig): Promise<{ as: oauth.AuthorizationServer; insecure: boolean }> {
  const issuer = new URL(config.issuer);
  const insecure = issuer.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(issuer.hostname);
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- plain HTTP only for the local stack's provider on this machine
  const response = await oauth.discoveryRequest(issuer, { algorithm: 'oidc', [oauth.allowInsecureRequests]: insecure });
  return { as: await oauth.processDiscoveryResponse(issuer, response), insecure };
}

const redirectUri = (config: AuthConfig) => new URL(config.redirectPath, window.location.origin).href;

/** Sends the browser to the provider's sign-in page; it comes back to the redirect path with a code. */
export async function signIn(config: AuthConfig, returnTo: string): Promise<void> {
  const { as } = await discover(config);
  if (!as.authorization_endpoint) throw new Error('The identity provider has no authorization endpoint');
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  sessionStorage.setItem(PENDING, JSON.stringify({ verifier, state, returnTo } satisfies Pending));
  const url = new URL(as.authorization_endpoint);
  url.searchParams.set('client_id', config.clientId);
  url.searchParams.set('redirect_uri', redirectUri(config));
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', config.scopes.join(' '));
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', state);
  window.location.assign(url.href);
}

/** On the redirect path: trades the code for tokens (checking state and the ID token); answers where to go next. */
export async function completeSignIn(config: AuthConfig): Promise<string> {
  const pending = read(PENDING) as Pending | null;
  sessionStorage.removeItem(PENDING);
  if (!pending) throw new Error('No sign-in was started in this tab');
  const { as, insecure } = await discover(config);
  const client: oauth.Client = { client_id: config.clientId };
  const params = oauth.validateAuthResponse(as, client, new URL(window.location.href), pending.state);
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- as in discover()
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri(config), pending.verifier, { [oauth.allowInsecureRequests]: insecure });
  const result = await oauth.processAuthorizationCodeResponse(as, client, response);
  const expiresIn = result.expires_in ?? 3600;
  sessionStorage.setItem(SESSION, JSON.stringify({ accessToken: result.access_token, expiresAt: Date.now() + expiresIn * 1000 } satisfies Session));
  return pending.returnTo.startsWith('/app/') ? pending.returnTo : '/app/';
}

/**
 * Forgets the token, then ends the provider's session too (else the next sign-in would go through without a password):
 * at the deployment's logout page (Cognito: `client_id`, `logout_uri`) or the provider's end_session_endpoint.
 */
export async function signOut(config: AuthConfig | null): Promise<void> {
  forgetSession();
  const back = new URL('/app/', window.location.origin).href;
  if (!config) {
    window.location.assign(back);
    return;
  }
  if (config.logoutUrl) {
    const url = new URL(config.logoutUrl);
    url.searchParams.set('client_id', config.clientId);
    url.searchParams.set('logout_uri', back);
    window.location.assign(url.href);
    return;
  }
  const { as } = await discover(config);
  if (!as.end_session_endpoint) {
    window.location.assign(back);
    return;
  }
  const url = new URL(as.end_session_endpoint);
  url.searchParams.set('client_id', config.clientId);
  url.searchParams.set('post_logout_redirect_uri', back);
  window.location.assign(url.href);
}
