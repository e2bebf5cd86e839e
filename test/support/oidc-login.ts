/**
 * A sign-in at an OpenID provider as the console does it, with plain fetch: authorization code with PKCE (S256),
 * the provider's login form filled in and posted, the code exchanged at the token endpoint. Cookies are kept by hand.
 */
import { createHash, randomBytes } from 'node:crypto';

export interface SignIn {
  issuer: string; clientId: string; redirectUri: string; email: string; password: string; scope?: string;
  /** Chosen when the provider asks an invited user to replace the temporary password (default: one derived from it). */
  newPassword?: string;
}
export interface SignedIn { accessToken: string; idToken: string; expiresIn: number }

class CookieJar {
  private readonly cookies = new Map<string, string>();
  keep(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      if (at > 0) this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
    return response;
  }
  header(): string { return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '); }
}

const locationOf = (response: Response, base: string): string => {
  const location = response.headers.get('location');
  if (!location) throw new Error(`expected a redirect, got ${String(response.status)}`);
  return new URL(location, base).toString();
};

export async function signInWithPassword(input: SignIn): Promise<SignedIn> {
  const discovery = await (await fetch(`${input.issuer}/.well-known/openid-configuration`)).json() as { authorization_endpoint: string; token_endpoint: string };
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(12).toString('base64url');
  const authorize = new URL(discovery.authorization_endpoint);
  for (const [name, value] of Object.entries({
    client_id: input.clientId, response_type: 'code', scope: input.scope ?? 'openid email profile', redirect_uri: input.redirectUri, state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256',
  })) authorize.searchParams.set(name, value);
  const jar = new CookieJar();
  const go = async (url: string, init: RequestInit = {}) => jar.keep(await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string> | undefined), cookie: jar.header() } }));
  const loginUrl = locationOf(await go(authorize.toString()), input.issuer);
  const form = await go(loginUrl);
  if (form.status !== 200) throw new Error(`the login page answered ${String(form.status)}: ${await form.text()}`);
  await form.text();
  const post = (fields: Record<string, string>) => go(loginUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  let posted = await post({ email: input.email, password: input.password });
  if (posted.status === 200 && (await posted.text()).includes('Choose your password')) {
    const chosen = input.newPassword ?? `${input.password}-Own1`;
    posted = await post({ step: 'new-password', newPassword: chosen, confirmPassword: chosen });
  }
  if (posted.status >= 400) throw new Error(`the login was refused (${String(posted.status)})`);
  let next = locationOf(posted, input.issuer);
  while (!next.startsWith(input.redirectUri)) next = locationOf(await go(next), input.issuer);
  const back = new URL(next);
  if (back.searchParams.get('state') !== state) throw new Error(`the provider came back without the state: ${next}`);
  const code = back.searchParams.get('code');
  if (!code) throw new Error(`the provider came back without a code: ${next}`);
  const token = await fetch(discovery.token_endpoint, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: input.redirectUri, client_id: input.clientId, code_verifier: verifier }).toString(),
  });
  const body = await token.json() as { access_token?: string; id_token?: string; expires_in?: number; error?: string };
  if (!token.ok || !body.access_token || !body.id_token) throw new Error(`the token endpoint answered ${String(token.status)}: ${JSON.stringify(body)}`);
  return { accessToken: body.access_token, idToken: body.id_token, expiresIn: body.expires_in ?? 0 };
}
