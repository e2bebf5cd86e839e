import { SignJWT } from 'jose';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { call, expectErrorShape, newApp, tokenFor } from '#test/support/api.ts';

const form = (fields: Record<string, string>) => new URLSearchParams(fields);

describe('POST /oauth/token', () => {
  let app: Awaited<ReturnType<typeof newApp>>;
  beforeAll(async () => { app = await newApp('auth'); });

  it('issues a one-hour HS256 bearer token for valid client credentials', async () => {
    const res = await call('POST', '/oauth/token', { form: form({ grant_type: 'client_credentials', client_id: app.clientId, client_secret: app.clientSecret }) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    const [header] = String(res.body.access_token).split('.');
    expect(JSON.parse(Buffer.from(header ?? '', 'base64url').toString())).toMatchObject({ alg: 'HS256' });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('accepts the credentials as HTTP Basic too', async () => {
    const basic = Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64');
    const res = await call('POST', '/oauth/token', { form: form({ grant_type: 'client_credentials' }), headers: { authorization: `Basic ${basic}` } });
    expect(res.status).toBe(200);
  });

  it('takes Basic credentials form-encoded (RFC 6749) or as sent, and answers 401, not 500, for ones that do not decode', async () => {
    const basic = (id: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` });
    const encoded = await call('POST', '/oauth/token', { form: form({ grant_type: 'client_credentials' }), headers: basic(encodeURIComponent(app.clientId), encodeURIComponent(app.clientSecret)) });
    expect(encoded.status).toBe(200);
    const broken = await call('POST', '/oauth/token', { form: form({ grant_type: 'client_credentials' }), headers: basic('a%ZZ', '%E0%A4%A') });
    expect(broken.status).toBe(401);
    expectErrorShape(broken.body, 'unauthorized', 401);
  });

  it('answers 401 for a wrong secret or an unknown client, with the error body', async () => {
    for (const [id, secret] of [[app.clientId, 'wrong'], ['nobody', app.clientSecret]] as const) {
      const res = await call('POST', '/oauth/token', { form: form({ grant_type: 'client_credentials', client_id: id, client_secret: secret }) });
      expect(res.status).toBe(401);
      expectErrorShape(res.body, 'unauthorized', 401);
      expect(JSON.stringify(res.body)).not.toContain(app.clientSecret);
    }
  });

  it('answers 400 for a missing field or another grant type, naming the field', async () => {
    const missing = await call('POST', '/oauth/token', { form: form({ grant_type: 'client_credentials', client_id: app.clientId }) });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: 'validation_error', errors: { client_secret: expect.any(Array) as unknown } });
    const grant = await call('POST', '/oauth/token', { form: form({ grant_type: 'password', client_id: app.clientId, client_secret: app.clientSecret }) });
    expect(grant.status).toBe(400);
    expect(grant.body).toMatchObject({ errors: { grant_type: expect.any(Array) as unknown } });
  });

  it('refuses a JSON body with 415', async () => {
    const res = await call('POST', '/oauth/token', { json: { grant_type: 'client_credentials', client_id: app.clientId, client_secret: app.clientSecret } });
    expect(res.status).toBe(415);
    expectErrorShape(res.body, 'unsupported_media_type', 415);
  });
});

describe('bearer authentication on /v1', () => {
  let app: Awaited<ReturnType<typeof newApp>>;
  beforeAll(async () => { app = await newApp('bearer'); });
  const list = (authorization?: string) => call('GET', '/v1/envelopes?tenantId=t', { headers: authorization ? { authorization } : {} });
  const claims = () => ({ client_id: app.clientId, typ: 'access' });
  const sign = (key: string, exp: number) => new SignJWT(claims()).setProtectedHeader({ alg: 'HS256' }).setIssuer('esign-service')
    .setAudience('esign-api').setSubject(app.appId).setIssuedAt(exp - 3600).setExpirationTime(exp).sign(new TextEncoder().encode(key));

  it('lets a valid token through', async () => {
    expect((await list(`Bearer ${app.token}`)).status).toBe(200);
  });

  it('answers 401 with WWW-Authenticate when the token is missing or malformed', async () => {
    for (const header of [undefined, 'Bearer', 'Basic abc', 'Bearer not.a.jwt']) {
      const res = await list(header);
      expect(res.status).toBe(401);
      expectErrorShape(res.body, 'unauthorized', 401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it('refuses a token signed with another key, an expired token and alg none', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect((await list(`Bearer ${await sign('x'.repeat(43), now + 3600)}`)).status).toBe(401);
    const expired = await list(`Bearer ${await sign(inject('jwtSecret'), now - 10)}`);
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ message: expect.stringMatching(/^The access token has expired \(at .+; the service time is .+\)/) });
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ ...claims(), sub: app.appId, iss: 'esign-service', aud: 'esign-api', exp: now + 3600 })).toString('base64url');
    expect((await list(`Bearer ${header}.${payload}.`)).status).toBe(401);
  });

  it('refuses a token issued more than a minute in the future, and takes one within that clock skew', async () => {
    const now = Math.floor(Date.now() / 1000);
    const issuedAt = (iat: number) => new SignJWT(claims()).setProtectedHeader({ alg: 'HS256' }).setIssuer('esign-service')
      .setAudience('esign-api').setSubject(app.appId).setIssuedAt(iat).setExpirationTime(now + 3600).sign(new TextEncoder().encode(inject('jwtSecret')));
    const future = await list(`Bearer ${await issuedAt(now + 600)}`);
    expect(future.status).toBe(401);
    expect(future.body).toMatchObject({ error: 'unauthorized', reason: 'token_invalid' });
    expect((await list(`Bearer ${await issuedAt(now + 30)}`)).status).toBe(200);
  });

  it('accepts a token it signed itself with the deployment key (control for the forgery cases)', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect((await list(`Bearer ${await sign(inject('jwtSecret'), now + 600)}`)).status).toBe(200);
  });

  it('gives the dev application printed by npm start a working token', async () => {
    const token = await tokenFor(inject('devClientId'), inject('devClientSecret'));
    expect((await list(`Bearer ${token}`)).status).toBe(200);
  });
});
