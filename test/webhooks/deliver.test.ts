import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { afterEach, describe, expect, it } from 'vitest';
import { deliverWebhook, WEBHOOK_MAX_RESPONSE_BYTES, WEBHOOK_TIMEOUT_MS, WEBHOOK_USER_AGENT, type DeliveryRequest } from '#shared/webhooks/webhook-delivery.ts';
import { signatureHeader, verifySignature } from '#shared/webhooks/webhook-signature.ts';
import type { HostLookup } from '#shared/webhooks/webhook-target.ts';

interface Received {
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  url: string;
  port: number;
  received: Received[];
  connections: () => number;
}

const servers: net.Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => {
    if (server instanceof http.Server) server.closeAllConnections();
    server.close(() => { resolve(); });
  })));
});

async function listen(server: net.Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A real receiver on 127.0.0.1 that records each request, then lets `respond` answer (or not). */
async function receiver(respond: (res: ServerResponse, req: IncomingMessage) => void): Promise<Receiver> {
  const received: Received[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      respond(res, req);
    });
  });
  server.on('connection', () => { connections++; });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}/hook`, port, received, connections: () => connections };
}

const body = JSON.stringify({ id: 'evt-1', event: 'envelope.completed', data: { subject: 'Lease' } });

function attempt(url: string, overrides: Partial<DeliveryRequest> = {}): DeliveryRequest {
  return { url, body, headers: { 'X-Service-Signature': signatureHeader(body, 'whsec-1') }, timeoutMs: 2000, allowLoopback: true, ...overrides };
}

function fakeDns(answer: () => Promise<LookupAddress[]>): HostLookup & { calls: string[] } {
  const calls: string[] = [];
  return Object.assign((hostname: string) => { calls.push(hostname); return answer(); }, { calls });
}

describe('deliverWebhook: outcomes', () => {
  it('delivers a signed POST with the service headers, and a 2xx is a success', async () => {
    const hook = await receiver((res) => { res.writeHead(202).end('{"ok":true}'); });
    const result = await deliverWebhook(attempt(hook.url, {
      headers: { 'X-Service-Signature': signatureHeader(body, 'whsec-1'), 'X-Event-Id': 'evt-1', 'Content-Type': 'text/plain', 'Content-Length': '1' },
    }));
    expect(result).toMatchObject({ ok: true, statusCode: 202, responseSnippet: '{"ok":true}' });
    const [request] = hook.received;
    expect(request).toMatchObject({ method: 'POST', body });
    expect(request!.headers).toMatchObject({ 'content-type': 'application/json', 'user-agent': 'esign-webhooks/1.0', 'x-event-id': 'evt-1' });
    expect(verifySignature(request!.body, 'whsec-1', request!.headers['x-service-signature'])).toBe(true);
  });

  it('treats a 204 with no body as a success with an empty snippet', async () => {
    const hook = await receiver((res) => { res.writeHead(204).end(); });
    expect(await deliverWebhook(attempt(hook.url))).toMatchObject({ ok: true, statusCode: 204, responseSnippet: '' });
  });

  it('fails on a 500, reporting the status and the start of the body', async () => {
    const hook = await receiver((res) => { res.writeHead(500).end('database down'); });
    expect(await deliverWebhook(attempt(hook.url))).toMatchObject({
      ok: false, statusCode: 500, error: 'the receiver answered HTTP 500', responseSnippet: 'database down',
    });
  });

  it('does not follow a redirect: a 302 is a failure and its target receives nothing', async () => {
    const target = await receiver((res) => { res.end('should not be reached'); });
    const hook = await receiver((res) => { res.writeHead(302, { location: target.url }).end(); });
    const result = await deliverWebhook(attempt(hook.url));
    expect(result).toMatchObject({ ok: false, statusCode: 302, error: 'redirect not followed (HTTP 302)' });
    expect(target.connections()).toBe(0);
  });
});

describe('deliverWebhook: time and size bounds', () => {
  it('cuts a receiver that never answers at the configured timeout', async () => {
    const hook = await receiver(() => { /* never answers */ });
    const started = Date.now();
    const result = await deliverWebhook(attempt(hook.url, { timeoutMs: 300 }));
    const wall = Date.now() - started;
    expect(result).toMatchObject({ ok: false, statusCode: null, error: 'timed out after 300 ms waiting for the response', responseSnippet: null });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    expect(wall).toBeLessThan(5000); // cut, not left to the test's own timeout; roomy for a loaded machine
  });

  it('cuts a receiver that sends headers then trickles the body, by the same overall timeout', async () => {
    const hook = await receiver((res) => {
      res.writeHead(200);
      res.write('x');
      const drip = setInterval(() => res.write('x'), 50);
      res.on('close', () => { clearInterval(drip); });
    });
    const started = Date.now();
    const result = await deliverWebhook(attempt(hook.url, { timeoutMs: 300 }));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result).toMatchObject({ ok: false, statusCode: 200, error: 'timed out after 300 ms reading the response body' });
    expect(result.responseSnippet).toMatch(/^x+$/);
  });

  it('reads at most 4 KB of a 50 MB answer, then hangs up', async () => {
    const total = 50 * 1024 * 1024;
    let written = 0;
    const hook = await receiver((res) => {
      const chunk = Buffer.alloc(64 * 1024, 'a');
      res.writeHead(200, { 'content-length': String(total) });
      const pump = (): void => {
        while (written < total) {
          written += chunk.length;
          if (!res.write(chunk)) { res.once('drain', pump); return; }
        }
        res.end();
      };
      pump();
    });
    const result = await deliverWebhook(attempt(hook.url, { timeoutMs: 30_000 }));
    expect(result).toMatchObject({ ok: true, statusCode: 200, responseSnippet: 'a'.repeat(WEBHOOK_MAX_RESPONSE_BYTES) });
    expect(written).toBeLessThan(total);
  });

  it('keeps the snippet valid UTF-8 when the byte limit cuts a character', async () => {
    const hook = await receiver((res) => { res.writeHead(400).end('aéé'); });
    expect(await deliverWebhook(attempt(hook.url, { maxResponseBytes: 4 }))).toMatchObject({ ok: false, statusCode: 400, responseSnippet: 'aé' });
  });

  it('exports the spec timeout of 10 s and the user agent', () => {
    expect(WEBHOOK_TIMEOUT_MS).toBe(10_000);
    expect(WEBHOOK_MAX_RESPONSE_BYTES).toBe(4096);
    expect(WEBHOOK_USER_AGENT).toBe('esign-webhooks/1.0');
  });
});

describe('deliverWebhook: network failures', () => {
  it('reports a refused connection', async () => {
    const probe = net.createServer();
    const port = await listen(probe);
    await new Promise<void>((resolve) => probe.close(() => { resolve(); }));
    servers.splice(servers.indexOf(probe), 1);
    expect(await deliverWebhook(attempt(`http://127.0.0.1:${port}/hook`))).toMatchObject({
      ok: false, statusCode: null, error: 'connection refused (ECONNREFUSED)', responseSnippet: null,
    });
  });

  it('reports a receiver that drops the connection mid-body, keeping what arrived', async () => {
    const hook = await receiver((res) => {
      res.writeHead(200);
      res.write('partial');
      setTimeout(() => res.socket?.destroy(), 30);
    });
    const result = await deliverWebhook(attempt(hook.url));
    expect(result).toMatchObject({ ok: false, statusCode: 200, responseSnippet: 'partial' });
    expect(result.ok ? '' : result.error).toMatch(/reset|closed/);
  });

  it('reports a DNS failure, and a resolver that hangs is cut by the timeout', async () => {
    const notFound = fakeDns(() => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.example'), { code: 'ENOTFOUND' })));
    expect(await deliverWebhook(attempt('https://nowhere.example/hook'), { lookup: notFound })).toMatchObject({
      ok: false, statusCode: null, error: 'DNS lookup failed: host not found (ENOTFOUND)',
    });
    const hanging = fakeDns(() => new Promise<never>(() => { /* never resolves */ }));
    const result = await deliverWebhook(attempt('https://slow-dns.example/hook', { timeoutMs: 300 }), { lookup: hanging });
    expect(result).toMatchObject({ ok: false, error: 'timed out after 300 ms resolving the host' });
    expect(result.durationMs).toBeLessThan(5000);
  });

  it('refuses a header value that would inject a header, without sending and without echoing it', async () => {
    const hook = await receiver((res) => { res.end(); });
    const result = await deliverWebhook(attempt(hook.url, { headers: { 'X-Note': 'a\r\nX-Injected: secret-value' } }));
    expect(result).toMatchObject({ ok: false, statusCode: null, error: 'invalid request header (ERR_INVALID_CHAR)' });
    expect(JSON.stringify(result)).not.toContain('secret-value');
    expect(hook.connections()).toBe(0);
  });
});

describe('deliverWebhook: target safety', () => {
  it('refuses loopback when not allowed, before any connection', async () => {
    const hook = await receiver((res) => { res.end(); });
    const https = await deliverWebhook(attempt(`https://127.0.0.1:${hook.port}/hook`, { allowLoopback: false }));
    expect(https).toMatchObject({ ok: false, statusCode: null, error: 'refused target: the webhook host 127.0.0.1 is a loopback address' });
    const http = await deliverWebhook(attempt(hook.url, { allowLoopback: false }));
    expect(http).toMatchObject({ ok: false, error: expect.stringMatching(/^refused target: .*must use https/) as unknown });
    expect(hook.connections()).toBe(0);
  });

  it('refuses a public-looking name that resolves to a private or loopback address, before any connection', async () => {
    const hook = await receiver((res) => { res.end(); });
    const toLoopback = fakeDns(() => Promise.resolve([{ address: '127.0.0.1', family: 4 }]));
    const result = await deliverWebhook(attempt(`https://hooks.example.com:${hook.port}/hook`, { allowLoopback: false }), { lookup: toLoopback });
    expect(result).toMatchObject({ ok: false, statusCode: null, error: 'refused target: hooks.example.com resolves to 127.0.0.1 is a loopback address' });
    const mixed = fakeDns(() => Promise.resolve([{ address: '127.0.0.1', family: 4 }, { address: '10.0.0.5', family: 4 }]));
    const second = await deliverWebhook(attempt(`https://hooks.example.com:${hook.port}/hook`), { lookup: mixed });
    expect(second).toMatchObject({ ok: false, error: 'refused target: hooks.example.com resolves to 10.0.0.5 is a private address' });
    expect(hook.connections()).toBe(0);
  });

  it('reaches a receiver on 127.0.0.1 when localhost resolves to ::1 first (all vetted addresses are offered)', async () => {
    const hook = await receiver((res) => { res.end('ok'); });
    const dualStack = fakeDns(() => Promise.resolve([{ address: '::1', family: 6 }, { address: '127.0.0.1', family: 4 }]));
    const result = await deliverWebhook(attempt(`http://localhost:${hook.port}/hook`), { lookup: dualStack });
    expect(result).toMatchObject({ ok: true, statusCode: 200 });
    expect(hook.received).toHaveLength(1);
  });

  it('connects to the vetted address and resolves only once (no DNS rebinding between check and connect)', async () => {
    let connections = 0;
    // Speaks plain text to a TLS client: proves where the connection went without needing a certificate.
    const port = await listen(net.createServer((socket) => { connections++; socket.resume().end('HTTP/1.1 200 OK\r\n\r\n'); }));
    let answers = 0;
    const rebinding = fakeDns(() => Promise.resolve([{ address: answers++ === 0 ? '127.0.0.1' : '10.0.0.1', family: 4 }]));
    const result = await deliverWebhook(attempt(`https://rebind.invalid:${port}/hook`), { lookup: rebinding });
    expect(rebinding.calls).toEqual(['rebind.invalid']);
    expect(connections).toBe(1);
    expect(result).toMatchObject({ ok: false, statusCode: null, error: expect.stringMatching(/^TLS error/) as unknown });
  });
});
