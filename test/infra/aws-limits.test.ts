/**
 * The limits API Gateway and Lambda enforce, as pure checks over an event or an answer, then as the local runtime
 * enforces them: over HTTP through the local API listener, with test routes (an answer over 6 MB, a function that never
 * answers, timed on a timer the test moves) and no engine behind them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_GATEWAY_MAX_BODY_BYTES, gatewayRequestBreach, invocationRequestBreach, invocationResponseBreach, LAMBDA_MAX_REQUEST_BYTES, LAMBDA_MAX_RESPONSE_BYTES, MAX_INLINE_BODY_BYTES, payloadBytes } from '#shared/http/aws-limits.ts';
import { pdfResult } from '#shared/envelopes/download-views.ts';
import type { ApiHandler } from '#shared/http/pipeline.ts';
import { binary, ok, type HttpResult } from '#shared/http/responses.ts';
import { invokeRoute, invokeWithin, type LimitLog, type Timer } from '#local/aws-limits.ts';
import { bindRoute } from '#local/router.ts';
import { apiListener } from '#local/server.ts';
import type { RouteDef } from '#infra/routes.ts';
import { testConfig } from '#test/support/config.ts';

const MiB = 1024 * 1024;

/** A timer that fires only when the test says so; `waiting` holds the timers not yet fired or cancelled. */
function manualTimer() {
  const waiting: { ms: number; fire: () => void }[] = [];
  const timer: Timer = (ms, signal) => new Promise((fire, cancel) => {
    const entry = { ms, fire: () => { fire(); } };
    waiting.push(entry);
    signal.addEventListener('abort', () => { waiting.splice(waiting.indexOf(entry), 1); cancel(new Error('cancelled')); });
  });
  return { timer, waiting, fireAll: () => { for (const w of waiting.splice(0)) w.fire(); } };
}

function logLines() {
  const lines: { message: string; fields: Record<string, unknown> }[] = [];
  const log: LimitLog = (message, fields) => { lines.push({ message, fields }); };
  return { lines, log };
}

const until = async (condition: () => boolean) => { while (!condition()) await new Promise((done) => setImmediate(done)); };

const event = (body: string | undefined, isBase64Encoded = false): APIGatewayProxyEventV2 => ({
  version: '2.0', routeKey: 'GET /test', rawPath: '/test', rawQueryString: '', headers: { host: 'localhost' }, isBase64Encoded,
  requestContext: { accountId: 'local', apiId: 'local', domainName: 'localhost', domainPrefix: 'local', http: { method: 'GET', path: '/test', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' }, requestId: 'r', routeKey: 'GET /test', stage: '$default', time: '', timeEpoch: 0 },
  ...(body === undefined ? {} : { body }),
});

const pdfDocument = { sha256: 'a'.repeat(64) } as Parameters<typeof pdfResult>[1];
/** The longest filename a PDF answer names: 120 + 80 characters of subject and document name, each three UTF-8 bytes. */
const longName = `${'é'.repeat(120)} - ${'文'.repeat(80)}.pdf`;

describe('the limits as checks over an invocation', () => {
  it('carries a PDF of the inline limit in a response within Lambda\'s 6 MB, and not one of 5,035,237 bytes', () => {
    expect(MAX_INLINE_BODY_BYTES).toBeLessThanOrEqual(4.5 * MiB);
    const largest = pdfResult(new Uint8Array(MAX_INLINE_BODY_BYTES), pdfDocument, longName);
    expect(invocationResponseBreach({ ...largest, headers: { ...largest.headers, 'strict-transport-security': 'max-age=63072000', 'x-ratelimit-limit': '600' } })).toBeNull();
    const tooLarge = pdfResult(new Uint8Array(5_035_237), pdfDocument, 'Contract.pdf');
    expect(invocationResponseBreach(tooLarge)).toMatchObject({ limit: 'Lambda response payload', maxBytes: LAMBDA_MAX_RESPONSE_BYTES });
  });

  it('measures an answer as the JSON Lambda sends, its binary body base64-encoded', () => {
    const answer = binary(new Uint8Array(3 * MiB), 'application/pdf');
    expect(payloadBytes(answer)).toBeGreaterThan(4 * MiB);
    const atLimit = ok({}); // a JSON answer whose serialized form is exactly the limit
    const padding = LAMBDA_MAX_RESPONSE_BYTES - payloadBytes({ ...atLimit, body: '' });
    expect(invocationResponseBreach({ ...atLimit, body: 'x'.repeat(padding) })).toBeNull();
    expect(invocationResponseBreach({ ...atLimit, body: 'x'.repeat(padding + 1) })).toMatchObject({ bytes: LAMBDA_MAX_RESPONSE_BYTES + 1 });
  });

  it('holds an event to 6 MB with its body base64-encoded, and a request body to API Gateway\'s 10 MB', () => {
    const overhead = payloadBytes(event(''));
    expect(invocationRequestBreach(event('A'.repeat(LAMBDA_MAX_REQUEST_BYTES - overhead)))).toBeNull();
    expect(invocationRequestBreach(event('A'.repeat(LAMBDA_MAX_REQUEST_BYTES - overhead + 1)))).toMatchObject({ limit: 'Lambda request payload' });
    // A 4.6 MiB binary body is over 6 MiB once base64-encoded.
    expect(invocationRequestBreach(event(Buffer.alloc(Math.round(4.6 * MiB)).toString('base64'), true))).not.toBeNull();
    expect(gatewayRequestBreach(API_GATEWAY_MAX_BODY_BYTES)).toBeNull();
    expect(gatewayRequestBreach(API_GATEWAY_MAX_BODY_BYTES + 1)).toMatchObject({ limit: 'API Gateway request payload', maxBytes: 10_485_760 });
  });

  it('refuses a DIRECT_DOWNLOAD_MAX_BYTES over the inline limit when the configuration is read; defaults to that limit', () => {
    expect(testConfig().directDownloadMaxBytes).toBe(MAX_INLINE_BODY_BYTES);
    expect(testConfig({ DIRECT_DOWNLOAD_MAX_BYTES: String(MAX_INLINE_BODY_BYTES) }).directDownloadMaxBytes).toBe(MAX_INLINE_BODY_BYTES);
    expect(testConfig({ DIRECT_DOWNLOAD_MAX_BYTES: '1000000' }).directDownloadMaxBytes).toBe(1_000_000);
    expect(() => testConfig({ DIRECT_DOWNLOAD_MAX_BYTES: String(5 * MiB) })).toThrow(/DIRECT_DOWNLOAD_MAX_BYTES may be at most 4669440 bytes/);
  });
});

describe('a function held to its timeout', () => {
  const never = () => new Promise<HttpResult>(() => undefined);

  it('a route: its own timeout ends it first (500), else the integration\'s 29 s (503), each logged by name', async () => {
    for (const [timeoutSeconds, status, limit, seconds] of [[15, 500, 'Lambda function timeout', 15], [29, 503, 'API Gateway integration timeout', 29], [120, 503, 'API Gateway integration timeout', 29]] as const) {
      const { timer, waiting, fireAll } = manualTimer();
      const { lines, log } = logLines();
      const answer = invokeRoute({ handler: never, timeoutSeconds }, event(undefined), {} as Context, { timer, log });
      await until(() => waiting.length > 0);
      expect(waiting[0]?.ms).toBe(seconds * 1000);
      fireAll();
      expect((await answer).statusCode).toBe(status);
      expect(lines).toEqual([expect.objectContaining({ fields: expect.objectContaining({ limit, timeoutSeconds: seconds }) as unknown })]);
    }
  });

  it('a background invocation fails as timed out, and one that answers in time is untouched', async () => {
    const { timer, waiting, fireAll } = manualTimer();
    const { lines, log } = logLines();
    const failing = invokeWithin('functions/workers/seal.ts', 300, never, { timer, log });
    await until(() => waiting.length > 0);
    fireAll();
    await expect(failing).rejects.toMatchObject({ name: 'Sandbox.Timedout', message: 'Task timed out after 300.00 seconds' });
    expect(lines[0]?.fields).toMatchObject({ limit: 'Lambda function timeout', function: 'functions/workers/seal.ts' });
    await expect(invokeWithin('w', 1, () => Promise.resolve('done'), { timer, log })).resolves.toBe('done');
  });
});

describe('the local API over HTTP', () => {
  const { timer, waiting, fireAll } = manualTimer();
  const { lines, log } = logLines();
  let server: Server;
  let base: string;
  const route = (method: 'GET' | 'POST', path: string, handler: ApiHandler, timeoutSeconds = 15) =>
    bindRoute({ method, path, handler: `test${path}` } as RouteDef, handler, timeoutSeconds);
  const routes = [
    route('GET', '/large', () => Promise.resolve(binary(new Uint8Array(Math.round(4.6 * MiB)), 'application/pdf'))),
    route('GET', '/inline', () => Promise.resolve(binary(new Uint8Array(Math.round(4.4 * MiB)), 'application/pdf'))),
    route('GET', '/slow', () => new Promise<HttpResult>(() => undefined), 29),
    route('POST', '/echo', (e) => Promise.resolve(ok({ bytes: Buffer.from(e.body ?? '', e.isBase64Encoded ? 'base64' : 'utf8').length }))),
  ];
  const fallback = () => ({ handler: () => Promise.resolve(ok({}, 404)), timeoutSeconds: 15 });

  beforeAll(async () => {
    server = createServer((req, res) => void apiListener(() => routes, {}, fallback, { timer, log })(req, res));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  });
  afterAll(() => new Promise<void>((done) => { server.close(() => { done(); }); }));

  it('answers 500 for an answer over Lambda\'s 6 MB, and logs the limit; a 4.4 MB PDF passes', async () => {
    const answer = await fetch(`${base}/large`);
    expect(answer.status).toBe(500);
    expect(await answer.json()).toEqual({ message: 'Internal Server Error' });
    expect(lines.at(-1)?.fields).toMatchObject({ limit: 'Lambda response payload', route: 'GET /large', maxBytes: LAMBDA_MAX_RESPONSE_BYTES });
    const inline = await fetch(`${base}/inline`);
    expect(inline.status).toBe(200);
    expect((await inline.arrayBuffer()).byteLength).toBe(Math.round(4.4 * MiB));
  });

  it('answers 413 for a body over API Gateway\'s 10 MB, and for one whose event is over Lambda\'s 6 MB', async () => {
    const pdf = { 'content-type': 'application/pdf' };
    const gateway = await fetch(`${base}/echo`, { method: 'POST', headers: pdf, body: new Uint8Array(API_GATEWAY_MAX_BODY_BYTES + 1) });
    expect(gateway.status).toBe(413);
    expect(await gateway.text()).toBe('HTTP content length exceeded 10485760 bytes.');
    expect(lines.at(-1)?.fields).toMatchObject({ limit: 'API Gateway request payload', bytes: API_GATEWAY_MAX_BODY_BYTES + 1 });
    const lambda = await fetch(`${base}/echo`, { method: 'POST', headers: pdf, body: new Uint8Array(5 * MiB) });
    expect(lambda.status).toBe(413);
    expect(await lambda.json()).toEqual({ message: 'Request Too Long' });
    expect(lines.at(-1)?.fields).toMatchObject({ limit: 'Lambda request payload' });
    const within = await fetch(`${base}/echo`, { method: 'POST', headers: pdf, body: new Uint8Array(4 * MiB) });
    expect(await within.json()).toEqual({ bytes: 4 * MiB });
  });

  it('answers 503 once the integration\'s 29 s pass without an answer', async () => {
    const answer = fetch(`${base}/slow`);
    await until(() => waiting.length > 0);
    expect(waiting[0]?.ms).toBe(29_000);
    fireAll();
    const response = await answer;
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ message: 'Service Unavailable' });
    expect(lines.at(-1)?.fields).toMatchObject({ limit: 'API Gateway integration timeout', route: 'GET /slow' });
  });
});
