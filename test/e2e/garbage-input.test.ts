/**
 * Bad input gets a 4xx in the error shape, never a 500: every route of the manifest, called over HTTP with
 * broken path parameters, bodies of every broken kind and odd headers. The path parameters that are not under
 * test are real (an envelope, a signer, a signing link), so broken bodies reach each route's own validation.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { routes } from '#infra/routes.ts';
import { apiUrl, call, newApp } from '#test/support/api.ts';
import { readyDraft } from '#test/support/envelopes.ts';
import { tokenOf } from '#test/support/signing.ts';

/**
 * A fresh application per test, so no test spends another's request budget, and a pool of signing links used
 * in turn, so no link reaches its own budget (120 a minute): a 429 would pass as a 4xx and prove nothing, so
 * every test also requires that none was answered.
 */
let bearer = '';
let real: Record<string, string> = {};
let links: string[] = [];
let calls = 0;

async function world(name: string): Promise<void> {
  // Every route times every broken input is more requests than a standard plan allows in a minute
  bearer = (await newApp(name, { plan: 'sweep' })).token;
  const draft = await readyDraft(bearer);
  links = [];
  for (let i = 0; i < 4; i++) {
    const sent = await readyDraft(bearer);
    const send = await call<{ signers: { signingUrl: string | null }[] }>('POST', `/v1/envelopes/${sent.id}/send`, { token: bearer, json: {} });
    expect(send.status).toBe(200);
    links.push(...send.body.signers.flatMap((s) => (s.signingUrl ? [tokenOf(s.signingUrl)] : [])));
  }
  const hook = await call<{ id: string }>('POST', '/v1/webhooks', { token: bearer, json: { url: 'http://127.0.0.1:9/hook', events: ['envelope.completed'] } });
  expect(hook.status).toBe(201);
  real = { id: draft.id, signerId: draft.signers[0]?.id ?? '', deliveryId: 'd-unknown', tenantId: 'acme', webhookId: hook.body.id };
}

const realValue = (name: string) => (name === 'token' ? links[calls++ % links.length] : real[name]) ?? 'x';

const BROKEN_PARAMS = ['%ZZ', '%E0%A4%A', 'x'.repeat(2048), '..%2F..%2Fetc%2Fpasswd', '%00', '%F0%9F%92%A5', "'%20OR%201=1", 'a.b.c', '%7B%7D'];

const text = (s: string, contentType: string) => ({ bytes: new Uint8Array(Buffer.from(s)), contentType });
const BROKEN_BODIES = [
  text('{"a":', 'application/json'),
  text('[1,2]', 'application/json'),
  text('null', 'application/json'),
  text('"just a string"', 'application/json'),
  text('{"tenantId":{"$gt":""},"signers":"x","fields":[null],"expiresInDays":1e309,"events":[{}],"url":7,"code":123456}', 'application/json'),
  text(`{"name":"${'n'.repeat(100_000)}","email":"${'e'.repeat(5000)}@x"}`, 'application/json'),
  text('{"__proto__":{"admin":true},"constructor":{"prototype":{}}}', 'application/json'),
  text('{}', 'application/json; charset=utf-16'),
  text('--x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7', 'multipart/form-data; boundary=x'),
  text('--x\r\nContent-Disposition: form-data; name="data"\r\n\r\n{"tenantId":\r\n--x--\r\n', 'multipart/form-data; boundary=x'),
  text('a=%ZZ&b&=&grant_type=client_credentials&client_id=%', 'application/x-www-form-urlencoded'),
  text('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF', 'application/pdf'),
  { bytes: new Uint8Array(randomBytes(512)), contentType: 'application/octet-stream' },
  text('{}', 'text/plain'),
  text('<x/>', 'application/xml'),
  text('{}', 'multipart/form-data'), // no boundary
  // Valid JSON, no valid UTF-8: a lone surrogate in every field a route may put in a header, key, URL or email
  text(`{${['filename', 'name', 'subject', 'tenantId', 'email', 'message', 'url', 'code', 'label'].map((k) => `"${k}":"a\\ud800"`).join(',')}}`, 'application/json'),
  text('--x\r\nContent-Disposition: form-data; name="file"; filename*=utf-16le\'\'%00%D8\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\r\n--x--\r\n', 'multipart/form-data; boundary=x'),
];

const ODD_HEADERS: Record<string, string>[] = [
  { 'idempotency-key': '' },
  { 'idempotency-key': 'k'.repeat(300) },
  { 'idempotency-key': '\u00e9\u00e8' },
  { authorization: 'Bearer' },
  { authorization: 'Basic %%%' },
  { 'x-forwarded-for': 'not-an-ip, 999.1.1.1' },
  { 'cloudfront-viewer-address': 'garbage' },
  { 'content-encoding': 'gzip' },
];

interface Outcome { request: string; status: number; problem: string | null }

async function attempt(method: string, path: string, init: { body?: { bytes: Uint8Array; contentType: string }; headers?: Record<string, string>; auth: boolean }): Promise<Outcome> {
  const headers: Record<string, string> = { ...(init.auth ? { authorization: `Bearer ${bearer}` } : {}), ...init.headers };
  if (init.body) headers['content-type'] = init.body.contentType;
  const response = await fetch(`${apiUrl()}${path}`, { method, headers, body: init.body?.bytes ?? null });
  const raw = Buffer.from(await response.arrayBuffer()).toString('utf8');
  const request = `${method} ${path.length > 120 ? `${path.slice(0, 60)}…${path.slice(-50)}` : path} ${init.body?.contentType ?? ''} ${JSON.stringify(init.headers ?? {}).slice(0, 60)}`;
  if (response.status >= 500) return { request, status: response.status, problem: `answered ${String(response.status)}: ${raw.slice(0, 200)}` };
  if (response.status >= 400) {
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return { request, status: response.status, problem: `a ${String(response.status)} without a JSON body` };
    }
    if (typeof body.error !== 'string' || body.status !== response.status || typeof body.message !== 'string' || body.type !== body.error) {
      return { request, status: response.status, problem: `error body out of shape: ${raw.slice(0, 200)}` };
    }
  }
  return { request, status: response.status, problem: null };
}

const pathWith = (template: string, values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? realValue(name));
const paramsOf = (template: string) => [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '');

describe('a lone surrogate', () => {
  it('in an upload file name is a 400 naming the field, and no upload is made', async () => {
    const { token } = await newApp('lone surrogate');
    const draft = await readyDraft(token);
    const refused = await call('POST', `/v1/envelopes/${draft.id}/document/upload-url`, { token, json: { filename: '\uD800.pdf', sizeBytes: 1000 } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'validation_error', errors: { 'body.filename': [expect.stringMatching(/well-formed Unicode/)] } });
    const after = await call<{ documents: unknown[] }>('GET', `/v1/envelopes/${draft.id}`, { token });
    expect(after.body.documents).toEqual(draft.documents);
  });
});

describe('every route, given garbage', { timeout: 120_000 }, () => {
  it('answers broken path parameters with a 4xx in the error shape', async () => {
    await world('garbage params');
    const outcomes: Outcome[] = [];
    for (const route of routes) {
      for (const param of paramsOf(route.path)) {
        for (const value of BROKEN_PARAMS) {
          outcomes.push(await attempt(route.method, pathWith(route.path, { [param]: value }), {
            auth: route.auth === 'bearer', ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { body: text('{}', 'application/json') }),
          }));
        }
      }
    }
    expect(outcomes.length).toBeGreaterThan(100);
    expect(outcomes.filter((o) => o.problem)).toEqual([]);
    expect(outcomes.filter((o) => o.status === 429).map((o) => o.request)).toEqual([]);
  });

  it('answers broken bodies with a 4xx in the error shape, on every route that takes one', async () => {
    await world('garbage bodies');
    const outcomes: Outcome[] = [];
    const malformed: Outcome[] = [];
    for (const route of routes.filter((r) => r.method === 'POST' || r.method === 'PUT')) {
      for (const body of BROKEN_BODIES) {
        const outcome = await attempt(route.method, pathWith(route.path, {}), { auth: route.auth === 'bearer', body });
        outcomes.push(outcome);
        if (body === BROKEN_BODIES[0]) malformed.push(outcome);
      }
    }
    expect(outcomes.filter((o) => o.problem)).toEqual([]);
    expect(outcomes.filter((o) => o.status === 429).map((o) => o.request)).toEqual([]);
    // Malformed JSON is refused wherever JSON is read (400, decision 5), never taken as an empty body
    expect(malformed.filter((o) => o.status < 400).map((o) => o.request)).toEqual([]);
  });

  it('answers odd headers without a 500', async () => {
    await world('garbage headers');
    const outcomes: Outcome[] = [];
    for (const route of routes) {
      for (const headers of ODD_HEADERS) {
        outcomes.push(await attempt(route.method, pathWith(route.path, {}), {
          auth: route.auth === 'bearer' && !('authorization' in headers), headers,
          ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { body: text('{}', 'application/json') }),
        }));
      }
    }
    expect(outcomes.filter((o) => o.problem)).toEqual([]);
    expect(outcomes.filter((o) => o.status === 429).map((o) => o.request)).toEqual([]);
  });
});
