import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { issueAccessToken } from '#shared/kernel/tokens.ts';
import { NotFound, RateLimited } from '#shared/kernel/errors.ts';
import type { Application } from '#shared/ports/repositories.ts';
import { MemoryIdempotencyStore } from '#shared/adapters/memory/memory-idempotency-store.ts';
import { MemoryTeamRepository } from '#shared/adapters/memory/memory-team-repository.ts';
import { MemoryRateLimiter } from '#shared/adapters/memory/memory-rate-limiter.ts';
import { uuidV7Ids } from '#shared/adapters/system.ts';
import type { IdempotencyStore } from '#shared/ports/traffic.ts';
import { testConfig } from '#test/support/config.ts';
import type { AuthKind, RouteDeclaration } from './declaration.ts';
import { jsonBody } from './body-rules.ts';
import { requestFingerprint } from './fingerprint.ts';
import { pipeline, type PipelineDeps, type RouteImpl } from './pipeline.ts';
import { ok, type HttpResult } from './responses.ts';
import * as v from 'valibot';

const NOW = new Date('2026-03-10T12:00:00.000Z');
const config = testConfig({ RATE_LIMITS: JSON.stringify({ plans: { test: { limit: 2, windowSeconds: 60 } }, perToken: { limit: 3, windowSeconds: 60 }, perIp: { limit: 4, windowSeconds: 30 } }) });

const app = (appId: string, over: Partial<Application> = {}) => ({ appId, clientId: 'c', plan: appId === 'app-test' ? 'test' : 'standard', suspended: false, ...over }) as Application;

function depsWith(over: Partial<PipelineDeps> = {}) {
  const idempotency = new MemoryIdempotencyStore();
  const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  const applications = { get: vi.fn((appId: string) => Promise.resolve(appId === 'gone' ? undefined : app(appId))) };
  const deps: PipelineDeps = {
    config, clock: { now: () => NOW }, ids: uuidV7Ids, rateLimiter: new MemoryRateLimiter(), idempotency, logger, applications, team: new MemoryTeamRepository(),
    ...over,
  };
  return { deps, idempotency, logger, applications };
}

function declared<K extends AuthKind>(auth: K, over: Partial<RouteDeclaration<K>> = {}): RouteDeclaration<K> {
  return { method: 'POST', path: '/v1/x', auth, operationId: 'x', summary: 'x', tag: 'Meta', success: { status: 200, description: '' }, errors: {}, access: { table: 'read' }, ...over };
}

/** `impl` as a route of no auth (`none`: identified for the budget, never refused) in the pipeline. */
const served = (impl: RouteImpl<unknown, unknown, unknown, unknown>, deps: PipelineDeps, auth: AuthKind = 'none') => pipeline(declared(auth), deps, impl);

/** What the store holds for a key, read the way a retry would: by claiming it (a free key answers undefined). */
const heldFor = (store: IdempotencyStore, id: string) =>
  store.claim({ id, fingerprint: 'probe', owner: 'probe', now: NOW, lockSeconds: 60, expiresInSeconds: 86_400 });

let requestSeq = 0;
function event(method: string, path: string, options: { headers?: Record<string, string>; body?: string; token?: string; ip?: string } = {}): APIGatewayProxyEventV2 {
  return {
    version: '2.0', routeKey: `${method} ${path}`, rawPath: path, rawQueryString: '', headers: options.headers ?? {},
    pathParameters: options.token ? { token: options.token } : undefined, body: options.body, isBase64Encoded: false,
    requestContext: { http: { method, path, protocol: 'HTTP/1.1', sourceIp: options.ip ?? '198.51.100.7', userAgent: 'vitest' }, requestId: `req-${String(++requestSeq)}` },
  } as unknown as APIGatewayProxyEventV2;
}

const context = {} as Context;
const bodyOf = (result: HttpResult) => JSON.parse(result.body ?? '{}') as { error?: string; errors?: unknown };
const bearer = async (appId: string) => ({ authorization: `Bearer ${await issueAccessToken(config.jwtSecret, { appId, clientId: 'c' }, NOW)}` });
const counter = () => {
  let runs = 0;
  const handler = vi.fn((): Promise<HttpResult> => Promise.resolve(ok({ run: ++runs }, 201)));
  return handler;
};

describe('rate limits around a route', () => {
  it('counts an application against its plan and puts the budget on every answer, errors included', async () => {
    const { deps } = depsWith();
    const failing = served(() => Promise.reject(new NotFound('nothing here')), deps);
    const headers = await bearer('app-test');
    const first = await failing(event('GET', '/v1/x', { headers }), context);
    expect(first.statusCode).toBe(404);
    expect(first.headers).toMatchObject({ 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': String(NOW.getTime() / 1000 + 60) });
    expect((await failing(event('GET', '/v1/x', { headers }), context)).headers['x-ratelimit-remaining']).toBe('0');
    const limited = await failing(event('GET', '/v1/x', { headers }), context);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers).toMatchObject({ 'retry-after': '60', 'x-ratelimit-remaining': '0', 'x-request-id': expect.stringMatching(/^req-/) as unknown });
    expect(JSON.parse(limited.body ?? '{}')).toMatchObject({ error: 'rate_limited', status: 429 });
  });

  it('counts link calls per token and per address and reports the tighter; anything else per address', async () => {
    const { deps } = depsWith();
    const handler = served(counter(), deps);
    const viaToken = await handler(event('GET', '/v1/signing/t1', { token: 't1' }), context);
    expect(viaToken.headers).toMatchObject({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '2' });
    for (const token of ['t2', 't3']) await handler(event('GET', `/v1/signing/${token}`, { token }), context);
    // the address has spent 3 of its 4 (30 s window); token t4 has 3 left: the address is tighter
    expect((await handler(event('GET', '/v1/signing/t4', { token: 't4' }), context)).headers).toMatchObject({ 'x-ratelimit-limit': '4', 'x-ratelimit-remaining': '0' });
    const fromAddress = await handler(event('POST', '/oauth/token', { headers: { authorization: 'Bearer forged' } }), context);
    expect(fromAddress.statusCode).toBe(429);
    expect(fromAddress.headers['retry-after']).toBe('30');
    expect((await handler(event('POST', '/oauth/token', { ip: '198.51.100.8' }), context)).statusCode).toBe(201);
  });

  it('counts an open route that may not read the table against the address, whatever token comes along, reading nothing', async () => {
    const { deps, applications } = depsWith();
    const lookups = vi.spyOn(deps.team, 'userBySubject');
    const handler = pipeline(declared('none', { access: {} }), deps, counter());
    const result = await handler(event('GET', '/v1/x', { headers: await bearer('app-1') }), context);
    expect(result.statusCode).toBe(201);
    expect(result.headers['x-ratelimit-limit']).toBe('4');
    expect(applications.get).not.toHaveBeenCalled();
    expect(lookups).not.toHaveBeenCalled();
  });

  it('fails open when the counter store is unavailable', async () => {
    const { deps, logger } = depsWith({ rateLimiter: { hit: () => Promise.reject(new Error('throttled')) } });
    const result = await served(counter(), deps)(event('GET', '/v1/x', { headers: await bearer('app-1') }), context);
    expect(result.statusCode).toBe(201);
    expect(result.headers['x-ratelimit-limit']).toBeUndefined();
    expect(logger.error).toHaveBeenCalledOnce();
  });
});

describe('Idempotency-Key around a route', () => {
  const post = async (key: string | undefined, body = '{"a":1}', appId = 'app-1') =>
    event('POST', '/v1/things', { headers: { ...(await bearer(appId)), 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) }, body });

  it('runs once and replays the stored answer with Idempotent-Replayed, with fresh budget headers', async () => {
    const { deps } = depsWith();
    const inner = counter();
    const handler = served(inner, deps);
    const first = await handler(await post('k1'), context);
    const again = await handler(await post('k1', '{ "a": 1 }'), context);
    expect(inner).toHaveBeenCalledOnce();
    expect(again).toMatchObject({ statusCode: 201, body: first.body, headers: { 'idempotent-replayed': 'true', 'x-ratelimit-remaining': '598' } });
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  });

  it('never stores a field the route withholds from replay: a repeat answers it as null, the record holds no trace', async () => {
    const { deps, idempotency } = depsWith();
    const inner = vi.fn(() => Promise.resolve(ok({ id: 'w1', secret: 'whsec-shown-once' }, 200)));
    const handler = pipeline({ ...declared('none'), withheldFromReplay: ['secret'] }, deps, inner);
    const first = await handler(await post('k-secret'), context);
    const again = await handler(await post('k-secret'), context);
    expect(inner).toHaveBeenCalledOnce();
    expect(JSON.parse(first.body ?? '{}')).toEqual({ id: 'w1', secret: 'whsec-shown-once' });
    expect(JSON.parse(again.body ?? '{}')).toEqual({ id: 'w1', secret: null });
    expect(JSON.stringify(await heldFor(idempotency, 'app-1#k-secret'))).not.toContain('whsec-shown-once');
  });

  it('answers 409 for another request with the key, and for the key while the first still runs', async () => {
    const { deps, idempotency } = depsWith();
    const handler = served(counter(), deps);
    await handler(await post('k2'), context);
    const reused = await handler(await post('k2', '{"a":2}'), context);
    expect([reused.statusCode, bodyOf(reused).error]).toEqual([409, 'idempotency_key_reused']);
    await idempotency.claim({ id: 'app-1#k3', fingerprint: requestFingerprint(await post('k3')), owner: 'other', now: NOW, lockSeconds: 60, expiresInSeconds: 86_400 });
    const busy = await handler(await post('k3'), context);
    expect([busy.statusCode, bodyOf(busy).error]).toEqual([409, 'request_in_progress']);
    expect(busy.headers['x-ratelimit-limit']).toBe('600');
  });

  it('does not keep a 5xx, a 429 or a 409, so a retry runs again; keeps the other 4xx', async () => {
    for (const [status, kept] of [[500, false], [429, false], [409, false], [422, true], [400, true], [404, true]] as const) {
      const { deps, idempotency } = depsWith();
      const inner = vi.fn(() => Promise.resolve(ok({ status }, status)));
      const handler = served(inner, deps);
      await handler(await post('k'), context);
      await handler(await post('k'), context);
      expect(inner, String(status)).toHaveBeenCalledTimes(kept ? 1 : 2);
      expect(await heldFor(idempotency, 'app-1#k'), String(status)).toEqual(kept ? expect.objectContaining({ state: 'completed' }) : undefined);
    }
    const { deps, idempotency } = depsWith();
    const throwing = served(() => Promise.reject(new RateLimited('busy', 5)), deps);
    expect((await throwing(await post('k'), context)).statusCode).toBe(429);
    expect(await heldFor(idempotency, 'app-1#k')).toBeUndefined();
  });

  it('scopes keys to the application and the link token; ignores them without a scope or on GET; checks their form', async () => {
    const { deps } = depsWith();
    const inner = counter();
    const handler = served(inner, deps);
    await handler(await post('same', '{}', 'app-1'), context);
    await handler(await post('same', '{}', 'app-2'), context);
    await handler(event('POST', '/v1/signing/tok-a/consent', { token: 'tok-a', headers: { 'idempotency-key': 'same' } }), context);
    await handler(event('POST', '/v1/signing/tok-a/consent', { token: 'tok-a', headers: { 'idempotency-key': 'same' } }), context);
    await handler(event('POST', '/oauth/token', { headers: { 'idempotency-key': 'same' } }), context);
    await handler(event('POST', '/oauth/token', { headers: { 'idempotency-key': 'same' } }), context);
    await handler(event('GET', '/v1/things', { headers: { ...(await bearer('app-1')), 'idempotency-key': 'same' } }), context);
    expect(inner).toHaveBeenCalledTimes(6);
    const invalid = await handler(await post('has space'), context);
    expect([invalid.statusCode, bodyOf(invalid).errors]).toEqual([400, { 'Idempotency-Key': [expect.any(String)] }]);
  });
});

describe('authentication by the route\'s auth kind', () => {
  const bearerRoute = (deps: PipelineDeps, impl: RouteImpl<unknown, unknown, unknown, unknown> = counter()) =>
    pipeline(declared('bearer', { method: 'GET' }), deps, impl);

  it('refuses a bearer route without a token, with a bad one, or for an application gone or suspended; a link route needs none', async () => {
    const { deps, applications } = depsWith();
    const statusOf = async (headers: Record<string, string>) => {
      const result = await bearerRoute(deps)(event('GET', '/v1/x', { headers }), context);
      return [result.statusCode, bodyOf(result).error, result.headers['www-authenticate']];
    };
    expect(await statusOf({})).toEqual([401, 'unauthorized', 'Bearer']);
    expect(await statusOf({ authorization: 'Bearer forged' })).toEqual([401, 'unauthorized', 'Bearer']);
    expect(await statusOf(await bearer('gone'))).toEqual([401, 'unauthorized', 'Bearer']);
    applications.get.mockResolvedValueOnce(app('app-9', { suspended: true })); // the rate limit's plan read and the check share it
    expect(await statusOf(await bearer('app-9'))).toEqual([403, 'forbidden', undefined]);
    const viaLink = await pipeline(declared('link'), deps, counter())(event('POST', '/v1/signing/t/consent', { token: 't' }), context);
    expect(viaLink.statusCode).toBe(201);
  });

  it('hands the verified principal to the route and reads the application once per container and window', async () => {
    const { deps, applications } = depsWith();
    const seen: unknown[] = [];
    const handler = bearerRoute(deps, vi.fn((request: { principal: unknown }) => { seen.push(request.principal); return Promise.resolve(ok({}, 200)); }));
    const headers = await bearer('app-1');
    for (let i = 0; i < 3; i++) expect((await handler(event('GET', '/v1/x', { headers }), context)).statusCode).toBe(200);
    expect(seen).toEqual([{ appId: 'app-1', clientId: 'c' }, { appId: 'app-1', clientId: 'c' }, { appId: 'app-1', clientId: 'c' }]);
    expect(applications.get).toHaveBeenCalledTimes(1);
  });
});

describe('parsing and errors in the pipeline', () => {
  it('validates params, query and body by the declaration; a 400 is an answer like any other, with the request id', async () => {
    const { deps } = depsWith();
    const declaration = declared('none', {
      params: v.object({ id: v.pipe(v.string(), v.uuid()) }),
      query: v.object({ n: v.optional(v.string()) }),
      body: jsonBody(v.object({ a: v.number() })),
    });
    const impl = vi.fn((request: { params: unknown; query: unknown; body: unknown }) => Promise.resolve(ok({ params: request.params, query: request.query, body: request.body })));
    const handler = pipeline(declaration, deps, impl as never);
    const withId = (id: string, body: string) => ({ ...event('POST', `/v1/x/${id}`, { headers: { 'content-type': 'application/json' }, body }), pathParameters: { id } });
    const good = await handler({ ...withId('0190a4c0-0000-7000-8000-000000000001', '{"a":1}'), queryStringParameters: { n: '2' } }, context);
    expect(JSON.parse(good.body ?? '{}')).toEqual({ params: { id: '0190a4c0-0000-7000-8000-000000000001' }, query: { n: '2' }, body: { a: 1 } });
    const badPath = await handler(withId('nope', '{"a":1}'), context);
    expect([badPath.statusCode, Object.keys(bodyOf(badPath).errors as object)]).toEqual([400, ['id']]);
    const badBody = await handler(withId('0190a4c0-0000-7000-8000-000000000001', '{"a":"x"}'), context);
    expect([badBody.statusCode, badBody.headers['x-request-id']]).toEqual([400, expect.stringMatching(/^req-/)]);
    const wrongType = await handler({ ...withId('0190a4c0-0000-7000-8000-000000000001', 'x'), headers: { 'content-type': 'text/plain' } }, context);
    expect(wrongType.statusCode).toBe(415);
    expect(impl).toHaveBeenCalledOnce();
  });

  it('answers an unexpected error as a 500 without internals and logs it', async () => {
    const { deps, logger } = depsWith();
    const result = await served(() => Promise.reject(new Error('secret internals')), deps)(event('GET', '/v1/x'), context);
    expect(result.statusCode).toBe(500);
    expect(result.body).not.toContain('secret internals');
    expect(logger.error).toHaveBeenCalledWith('request failed', expect.objectContaining({ error: 'secret internals' }));
  });
});

describe('security headers', () => {
  const NOT_A_PAGE = { 'content-security-policy': "default-src 'none'; frame-ancestors 'none'; sandbox", 'x-frame-options': 'DENY', 'x-content-type-options': 'nosniff' };

  it('puts a no-page policy, nosniff and DENY on every answer: JSON, PDF and errors', async () => {
    const { deps } = depsWith();
    const pdf = (): Promise<HttpResult> => Promise.resolve({ statusCode: 200, headers: { 'content-type': 'application/pdf' }, body: '', isBase64Encoded: true });
    for (const impl of [() => Promise.resolve(ok({})), pdf, () => Promise.reject(new NotFound('none')), () => Promise.reject(new Error('boom'))]) {
      const result = await served(impl, deps)(event('GET', '/v1/x'), context);
      expect(result.headers).toMatchObject(NOT_A_PAGE);
    }
  });

  it('leaves a route that sets its own policy to frame itself (the embedded page), still with nosniff', async () => {
    const { deps } = depsWith();
    const page = () => Promise.resolve(ok({}, 200, { 'content-security-policy': 'frame-ancestors https://app.example.com' }));
    const result = await served(page, deps)(event('GET', '/v1/x'), context);
    expect(result.headers['content-security-policy']).toBe('frame-ancestors https://app.example.com');
    expect(result.headers['x-frame-options']).toBeUndefined();
    expect(result.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('request fingerprints', () => {
  const multipart = (boundary: string) => event('POST', '/v1/envelopes', {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: `--${boundary}\r\nContent-Disposition: form-data; name="data"\r\n\r\n{"tenantId":"a"}\r\n--${boundary}--\r\n`,
  });

  it('ignores the multipart boundary and JSON formatting, but not the path, method or content', () => {
    expect(requestFingerprint(multipart('----one'))).toBe(requestFingerprint(multipart('----two')));
    const json = (body: string, path = '/v1/x') => requestFingerprint(event('POST', path, { headers: { 'content-type': 'application/json' }, body }));
    expect(json('{"a":1,"b":[1,2]}')).toBe(json('{ "b": [1, 2], "a": 1 }'));
    expect(json('{"a":1}')).not.toBe(json('{"a":2}'));
    expect(json('{"a":1}')).not.toBe(json('{"a":1}', '/v1/y'));
    expect(requestFingerprint(event('POST', '/v1/x'))).not.toBe(requestFingerprint(event('PUT', '/v1/x')));
  });
});

describe('RATE_LIMITS configuration', () => {
  it('merges over the default rate limits and refuses a bad value at start', () => {
    expect(testConfig().rateLimits).toEqual({
      plans: { standard: { limit: 600, windowSeconds: 60 } }, perToken: { limit: 120, windowSeconds: 60 }, perIp: { limit: 1200, windowSeconds: 60 },
    });
    expect(config.rateLimits.plans).toEqual({ standard: { limit: 600, windowSeconds: 60 }, test: { limit: 2, windowSeconds: 60 } });
    expect(() => testConfig({ RATE_LIMITS: '{not json' })).toThrow(/RATE_LIMITS must be JSON/);
    expect(() => testConfig({ RATE_LIMITS: '{"perIp":{"limit":0,"windowSeconds":60}}' })).toThrow(/limit must be at least 1/);
  });
});
