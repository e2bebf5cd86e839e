/**
 * Console sign-in over HTTP against the local stack: the console's discovery route, a real authorization-code login
 * with PKCE at the local OpenID provider (plain fetch, its login form posted), the access token on the API; a user
 * invited by email (the invitation in the outbox) signs in with the password it carries, works as a sender, is
 * promoted, then removed; console-made API clients get tokens and lose them when revoked.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { call, outboxFor, tokenFor } from '#test/support/api.ts';
import { signInWithPassword } from '#test/support/oidc-login.ts';

interface AuthConfig { issuer: string; clientId: string; scopes: string[]; redirectPath: string; logoutUrl: string | null }
let config: AuthConfig;
let redirectUri: string;
const signIn = (email: string, password: string) => signInWithPassword({ issuer: config.issuer, clientId: config.clientId, redirectUri, email, password });

beforeAll(async () => {
  const answer = await call<AuthConfig>('GET', '/v1/console/auth-config');
  expect(answer.status).toBe(200);
  config = answer.body;
  redirectUri = `${inject('signingUrl')}${config.redirectPath}`;
});

describe('console sign-in at the local OpenID provider', () => {
  it('tells the console where to sign in', () => {
    expect(config).toEqual({ issuer: inject('oidcIssuer'), clientId: inject('oidcClientId'), scopes: ['openid', 'email', 'profile'], redirectPath: '/app/callback', logoutUrl: null });
  });

  it('signs the development admin in with PKCE; the API takes the access token, not the ID token', async () => {
    const tokens = await signIn(inject('devAdminEmail'), inject('devAdminPassword'));
    const me = await call('GET', '/v1/console/me', { token: tokens.accessToken });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: inject('devAdminEmail'), role: 'admin', applicationName: 'Local development' });
    expect((await call('GET', '/v1/console/me', { token: tokens.idToken })).status).toBe(401);
  });

  it('refuses a wrong password, and an authorization request without PKCE', async () => {
    await expect(signIn(inject('devAdminEmail'), 'not-the-password')).rejects.toThrow(/refused \(401\)/);
    const url = new URL(`${config.issuer}/auth`);
    for (const [k, v] of Object.entries({ client_id: config.clientId, response_type: 'code', scope: 'openid', redirect_uri: redirectUri, state: 's' })) url.searchParams.set(k, v);
    const answer = await fetch(url, { redirect: 'manual' });
    expect(new URL(answer.headers.get('location') ?? '', config.issuer).searchParams.get('error')).toBe('invalid_request');
  });
});

describe('a user invited by email', () => {
  let admin: string;
  const email = `sender-${String(Date.now())}@example.org`;
  beforeAll(async () => { admin = (await signIn(inject('devAdminEmail'), inject('devAdminPassword'))).accessToken; });

  it('gets the invitation, signs in as a sender, and their envelopes are audited as theirs', async () => {
    const invited = await call<{ userId: string; role: string }>('POST', '/v1/console/users', { token: admin, json: { email, name: 'Sam Sender', role: 'sender' } });
    expect(invited.status).toBe(201);
    const [mail] = await outboxFor(email);
    const password = /Temporary password: (\S+)/.exec(mail?.text ?? '')?.[1];
    expect(mail?.text).toContain(`${inject('signingUrl')}/app/`);
    const token = (await signIn(email, password ?? '')).accessToken;
    expect((await call('GET', '/v1/console/me', { token })).body).toMatchObject({ email, role: 'sender' });
    expect((await call('GET', '/v1/console/users', { token })).status).toBe(403);
    const created = await call<{ id: string }>('POST', '/v1/envelopes', { token, json: { tenantId: 'signin', subject: 'NDA', signers: [{ name: 'Ana', email: 'ana@example.com' }] } });
    expect(created.status).toBe(201);
    const envelope = await call<{ auditLog: { event: string; actor: string }[] }>('GET', `/v1/envelopes/${created.body.id}`, { token });
    expect(envelope.body.auditLog.find((e) => e.event === 'envelope.created')?.actor).toBe(`user:${email}`);

    // promoted: the same token may now list users; removed: refused, and the account is gone
    expect((await call('PUT', `/v1/console/users/${invited.body.userId}`, { token: admin, json: { role: 'admin' } })).status).toBe(200);
    expect((await call('GET', '/v1/console/users', { token })).status).toBe(200);
    expect((await call('DELETE', `/v1/console/users/${invited.body.userId}`, { token: admin })).status).toBe(204);
    const refused = await call<{ reason: string }>('GET', '/v1/console/me', { token });
    expect([refused.status, refused.body.reason]).toEqual([403, 'user_unknown']);
    await expect(signIn(email, password ?? '')).rejects.toThrow(/refused/);
  });
});

describe('an invited user\'s first sign-in', () => {
  it('replaces the temporary password with their own, as Cognito asks; from then on only their own works', async () => {
    const admin = (await signIn(inject('devAdminEmail'), inject('devAdminPassword'))).accessToken;
    const email = `first-${String(Date.now())}@example.org`;
    expect((await call('POST', '/v1/console/users', { token: admin, json: { email, role: 'sender' } })).status).toBe(201);
    const temporary = /Temporary password: (\S+)/.exec((await outboxFor(email))[0]?.text ?? '')?.[1] ?? '';
    const own = 'Correct-horse-battery-9';
    const first = await signInWithPassword({ issuer: config.issuer, clientId: config.clientId, redirectUri, email, password: temporary, newPassword: own });
    expect((await call('GET', '/v1/console/me', { token: first.accessToken })).body).toMatchObject({ email, role: 'sender' });
    await expect(signIn(email, temporary)).rejects.toThrow(/refused \(401\)/);
    expect((await call('GET', '/v1/console/me', { token: (await signIn(email, own)).accessToken })).status).toBe(200);
  });
});

describe('API clients made in the console', () => {
  it('get tokens at /oauth/token until revoked, and from then on none of their tokens work', async () => {
    const admin = (await signIn(inject('devAdminEmail'), inject('devAdminPassword'))).accessToken;
    const created = await call<{ clientId: string; clientSecret: string }>('POST', '/v1/console/clients', { token: admin, json: { name: 'Billing' } });
    expect(created.status).toBe(201);
    const token = await tokenFor(created.body.clientId, created.body.clientSecret);
    expect((await call('GET', '/v1/console/me', { token })).body).toMatchObject({ role: 'admin', email: null });
    expect((await call('DELETE', `/v1/console/clients/${created.body.clientId}`, { token: admin })).status).toBe(204);
    expect((await call('GET', '/v1/console/me', { token })).status).toBe(401);
    await expect(tokenFor(created.body.clientId, created.body.clientSecret)).rejects.toThrow(/401/);
  });
});
