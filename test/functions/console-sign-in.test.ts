/**
 * Console users' access tokens through the pipeline, on in-memory ports, the provider's keys served on loopback: a
 * token is accepted only when its signature, issuer, audience, client, expiry and kind (access, not ID) hold; the
 * user maps to their application and role, a sender is refused the administrators' routes, and what a user does is
 * audited as `user:<email>`. Client credentials made in the console get tokens and stop at once when revoked.
 */
import { createServer, type Server } from 'node:http';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApplication } from '#shared/console/application-actions.ts';
import type { Deps } from '#shared/deps.ts';
import type { FunctionDefinition } from '#shared/http/endpoint.ts';
import type { HttpResult } from '#shared/http/responses.ts';
import { definition as getMe } from '#functions/api/get-me.ts';
import { definition as listUsers } from '#functions/api/list-users.ts';
import { definition as listClients } from '#functions/api/list-api-clients.ts';
import { definition as createClient } from '#functions/api/create-api-client.ts';
import { definition as revokeClient } from '#functions/api/revoke-api-client.ts';
import { definition as listWebhooks } from '#functions/api/list-webhooks.ts';
import { definition as putSettings } from '#functions/api/put-console-settings.ts';
import { definition as listEnvelopes } from '#functions/api/list-envelopes.ts';
import { definition as listTemplates } from '#functions/api/list-templates.ts';
import { definition as createEnvelope } from '#functions/api/create-envelope.ts';
import { definition as getEnvelope } from '#functions/api/get-envelope.ts';
import { definition as issueToken } from '#functions/api/oauth-token.ts';
import { memoryDeps } from '#test/support/memory-deps.ts';
import { testConfig } from '#test/support/config.ts';

const ISSUER = 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_test';
const CLIENT = 'console-client';
const AUDIENCE = 'urn:esign:api';
const KID = 'provider-key';

let keys: { provider: CryptoKey; forger: CryptoKey; other: CryptoKey };
let server: Server;
let jwksUrl: string;

beforeAll(async () => {
  const [provider, forger, other] = await Promise.all([generateKeyPair('RS256'), generateKeyPair('RS256'), generateKeyPair('RS256')]);
  keys = { provider: provider.privateKey, forger: forger.privateKey, other: other.privateKey };
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(provider.publicKey)), kid: KID, alg: 'RS256', use: 'sig' }] });
  server = createServer((_req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(jwks); });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  jwksUrl = `http://127.0.0.1:${String(typeof address === 'object' && address ? address.port : 0)}/jwks`;
});
afterAll(() => new Promise<void>((done) => { server.close(() => { done(); }); }));

interface Mint { key?: CryptoKey; typ?: string; claims?: Record<string, unknown>; issuer?: string; audience?: string | null; expiresIn?: number }
/** An access token as the provider mints one (RFC 9068 header type, the console's client, the API's audience), varied by `over`. */
function mint(sub: string, over: Mint = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({ client_id: CLIENT, scope: 'openid email profile', ...over.claims })
    .setProtectedHeader({ alg: 'RS256', kid: KID, typ: over.typ ?? 'at+jwt' })
    .setIssuer(over.issuer ?? ISSUER).setSubject(sub).setIssuedAt(now - 60).setExpirationTime(now + (over.expiresIn ?? 3600));
  if (over.audience !== null) jwt.setAudience(over.audience ?? AUDIENCE);
  return jwt.sign(over.key ?? keys.provider);
}

function eventOf(method: string, path: string, token: string | null, extra: { json?: unknown; form?: string; params?: Record<string, string>; query?: Record<string, string> } = {}): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = { 'user-agent': 'vitest', ...(token ? { authorization: `Bearer ${token}` } : {}) };
  if (extra.json !== undefined) headers['content-type'] = 'application/json';
  if (extra.form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
  return {
    version: '2.0', routeKey: `${method} ${path}`, rawPath: path, rawQueryString: '', headers,
    queryStringParameters: extra.query, pathParameters: extra.params,
    requestContext: {
      accountId: 'test', apiId: 'test', domainName: 'api.example.com', domainPrefix: 'api', requestId: `r-${String(Math.random())}`, routeKey: `${method} ${path}`,
      stage: '$default', time: '', timeEpoch: 0, http: { method, path, protocol: 'HTTP/1.1', sourceIp: '198.51.100.7', userAgent: 'vitest' },
    },
    body: extra.json !== undefined ? JSON.stringify(extra.json) : extra.form, isBase64Encoded: false,
  };
}

type Body = Record<string, unknown> & { reason?: string | null };
async function send(deps: Deps, definition: FunctionDefinition, event: APIGatewayProxyEventV2): Promise<{ status: number; body: Body }> {
  const result = (await (definition.createHandler(deps) as (e: APIGatewayProxyEventV2, c: Context) => Promise<HttpResult>)(event, {} as Context));
  return { status: result.statusCode, body: (result.body ? JSON.parse(result.body) : {}) as Body };
}

async function setup(env: Record<string, string> = { OIDC_AUDIENCE: AUDIENCE }) {
  const deps = await memoryDeps({ config: testConfig({ OIDC_ISSUER: ISSUER, OIDC_CLIENT_ID: CLIENT, OIDC_JWKS_URL: jwksUrl, ...env }) });
  const app = await createApplication(deps, { name: 'Acme' });
  const createdAt = new Date().toISOString();
  await deps.team.addUser({ appId: app.appId, userId: 'u-admin', email: 'ada@acme.test', name: 'Ada', role: 'admin', createdAt });
  await deps.team.addUser({ appId: app.appId, userId: 'u-sender', email: 'sam@acme.test', name: null, role: 'sender', createdAt });
  return { deps, app };
}

describe('a console user\'s access token', () => {
  it('is accepted with the provider\'s signature, issuer, audience and client: the user, role and application', async () => {
    const { deps, app } = await setup();
    const me = await send(deps, getMe, eventOf('GET', '/v1/console/me', await mint('u-admin')));
    expect(me).toEqual({ status: 200, body: { email: 'ada@acme.test', name: 'Ada', role: 'admin', appId: app.appId, applicationName: 'Acme', branding: null } });
    expect((await send(deps, getMe, eventOf('GET', '/v1/console/me', await mint('u-sender')))).body.role).toBe('sender');
    // The console's header shows the application's branding, to a sender too (who may not read the branding routes)
    await deps.tenants.saveBranding(app.appId, null, { organizationName: 'Acme Corp', primaryColor: '#ffd400', updatedAt: '2026-01-01T00:00:00.000Z' });
    expect((await send(deps, getMe, eventOf('GET', '/v1/console/me', await mint('u-sender')))).body.branding)
      .toEqual({ organizationName: 'Acme Corp', primaryColor: '#ffd400', textColor: '#000000', accentColor: '#786300', logoUrl: null, supportEmail: null, senderName: null });
  });

  it.each([
    ['a forged signature', { key: 'forger' }],
    ['another issuer (another pool)', { issuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_other' }],
    ['another audience', { audience: 'urn:other:api' }],
    ['another client', { claims: { client_id: 'someone-else' } }],
    ['an ID token (no access type, no client_id)', { typ: 'JWT', audience: CLIENT, claims: { client_id: undefined } }],
    ['a Cognito ID token', { typ: 'JWT', claims: { token_use: 'id' } }],
  ] as const)('is refused 401 token_invalid with %s', async (_what, over) => {
    const { deps } = await setup();
    const token = await mint('u-admin', { ...over, key: 'key' in over ? keys[over.key] : keys.provider });
    const answer = await send(deps, getMe, eventOf('GET', '/v1/console/me', token));
    expect(answer.status).toBe(401);
    expect(answer.body.reason).toBe('token_invalid');
  });

  it('is refused 401 token_expired once expired', async () => {
    const { deps } = await setup();
    const answer = await send(deps, getMe, eventOf('GET', '/v1/console/me', await mint('u-admin', { expiresIn: -120 })));
    expect([answer.status, answer.body.reason]).toEqual([401, 'token_expired']);
  });

  it('of Cognito (token_use access, no audience) is accepted where no audience is configured', async () => {
    const { deps } = await setup({});
    expect((await send(deps, getMe, eventOf('GET', '/v1/console/me', await mint('u-admin', { typ: 'JWT', audience: null, claims: { token_use: 'access' } })))).status).toBe(200);
    expect((await send(deps, getMe, eventOf('GET', '/v1/console/me', await mint('u-admin', { typ: 'JWT', audience: null, claims: { token_use: 'id' } })))).status).toBe(401);
  });

  it('of someone no application invited is refused 403 user_unknown', async () => {
    const { deps } = await setup();
    const answer = await send(deps, getMe, eventOf('GET', '/v1/console/me', await mint('u-stranger')));
    expect([answer.status, answer.body.reason]).toEqual([403, 'user_unknown']);
  });
});

describe('roles', () => {
  it('refuse a sender the users, API clients, webhooks and settings (403 role_forbidden); an admin passes', async () => {
    const { deps } = await setup();
    const [sender, admin] = [await mint('u-sender'), await mint('u-admin')];
    const cases = [
      [listUsers, eventOf('GET', '/v1/console/users', sender)], [listClients, eventOf('GET', '/v1/console/clients', sender)],
      [createClient, eventOf('POST', '/v1/console/clients', sender, { json: { name: 'x' } })], [listWebhooks, eventOf('GET', '/v1/webhooks', sender)],
      [putSettings, eventOf('PUT', '/v1/console/settings', sender, { json: { embedOrigins: [] } })],
    ] as const;
    for (const [definition, event] of cases) {
      const answer = await send(deps, definition, event);
      expect([event.rawPath, answer.status, answer.body.reason]).toEqual([event.rawPath, 403, 'role_forbidden']);
      const asAdmin = await send(deps, definition, { ...event, headers: { ...event.headers, authorization: `Bearer ${admin}` } });
      expect([event.rawPath, asAdmin.status]).toEqual([event.rawPath, event.requestContext.http.method === 'POST' ? 201 : 200]);
    }
  });

  it('let a sender work with envelopes and templates, audited as user:<email>', async () => {
    const { deps } = await setup();
    const sender = await mint('u-sender');
    expect((await send(deps, listEnvelopes, eventOf('GET', '/v1/envelopes', sender, { query: { tenantId: 'acme' } }))).status).toBe(200);
    expect((await send(deps, listTemplates, eventOf('GET', '/v1/templates', sender, { query: { tenantId: 'acme' } }))).status).toBe(200);
    const created = await send(deps, createEnvelope, eventOf('POST', '/v1/envelopes', sender, { json: { tenantId: 'acme', subject: 'NDA', signers: [{ name: 'Ana', email: 'ana@example.com' }] } }));
    expect(created.status).toBe(201);
    const read = await send(deps, getEnvelope, eventOf('GET', `/v1/envelopes/${String(created.body.id)}`, sender, { params: { id: String(created.body.id) } }));
    const audit = read.body.auditLog as { event: string; actor: string }[];
    expect(audit.find((e) => e.event === 'envelope.created')?.actor).toBe('user:sam@acme.test');
  });
});

describe('API clients made in the console', () => {
  it('get tokens at /oauth/token, act for the application, and stop at once when revoked', async () => {
    const { deps, app } = await setup();
    const admin = await mint('u-admin');
    const created = await send(deps, createClient, eventOf('POST', '/v1/console/clients', admin, { json: { name: 'Billing' } }));
    const { clientId, clientSecret } = created.body as { clientId: string; clientSecret: string };
    const form = (secret: string) => new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }).toString();
    expect((await send(deps, issueToken, eventOf('POST', '/oauth/token', null, { form: form('wrong') }))).status).toBe(401);
    const token = (await send(deps, issueToken, eventOf('POST', '/oauth/token', null, { form: form(clientSecret) }))).body.access_token as string;
    const me = await send(deps, getMe, eventOf('GET', '/v1/console/me', token));
    expect(me.body).toMatchObject({ role: 'admin', email: null, appId: app.appId });
    const listed = (await send(deps, listClients, eventOf('GET', '/v1/console/clients', admin))).body as unknown as { clientId: string; primary: boolean }[];
    expect(listed.map((c) => [c.clientId, c.primary])).toEqual([[app.clientId, true], [clientId, false]]);
    expect(JSON.stringify(listed)).not.toContain(clientSecret);
    expect((await send(deps, revokeClient, eventOf('DELETE', `/v1/console/clients/${clientId}`, admin, { params: { clientId } }))).status).toBe(204);
    const after = await send(deps, getMe, eventOf('GET', '/v1/console/me', token));
    expect([after.status, after.body.reason]).toEqual([401, 'token_invalid']);
    expect((await send(deps, issueToken, eventOf('POST', '/oauth/token', null, { form: form(clientSecret) }))).status).toBe(401);
    expect((await send(deps, revokeClient, eventOf('DELETE', `/v1/console/clients/${app.clientId}`, admin, { params: { clientId: app.clientId } }))).status).toBe(409);
  });
});
