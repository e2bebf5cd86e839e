import http, { type ClientRequest, type IncomingMessage } from 'node:http';
import type { WebhookSendResult } from '#shared/ports/services.ts';
import https from 'node:https';
import { StringDecoder } from 'node:string_decoder';
import { checkTargetUrl, pinnedLookup, resolveSafeAddresses, TargetRefused, type HostLookup, type VettedAddresses } from './webhook-target.ts';

/**
 * One webhook delivery attempt over the wire, with no business logic: the caller signs the body, records the
 * result and schedules retries. Never logs the body or headers (they carry signatures and customer data).
 */

/** Each attempt must be answered with a 2xx within 10 s (decision 25). */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** How much of a response is read, and kept as the snippet shown in the deliveries console. */
export const WEBHOOK_MAX_RESPONSE_BYTES = 4096;
export const WEBHOOK_USER_AGENT = 'esign-webhooks/1.0';

export interface DeliveryRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  maxResponseBytes?: number;
  /** Local mode only: lets http://localhost and loopback addresses through. */
  allowLoopback: boolean;
}

export type DeliveryResult = WebhookSendResult;

export interface DeliveryOptions {
  /** Replaces the system resolver (tests). */
  lookup?: HostLookup;
}

// The engine owns framing and identity; a caller's value here could desync the body or the connection.
const ENGINE_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'content-type', 'user-agent']);

interface Clock {
  started: number;
  timeoutMs: number;
}

class DeliveryTimeout extends Error {}

/** Keeps the first `limit` bytes of a response body; says when to stop reading. */
class SnippetReader {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** True once the limit is reached. */
  add(chunk: Buffer): boolean {
    const part = chunk.subarray(0, Math.max(0, this.limit - this.size));
    this.chunks.push(part);
    this.size += part.length;
    return this.size >= this.limit;
  }

  /** UTF-8 text of what was read; a character cut by the limit is dropped rather than mangled. */
  text(): string {
    return new StringDecoder('utf8').write(Buffer.concat(this.chunks));
  }
}

const elapsed = (clock: Clock): number => Math.round(performance.now() - clock.started);
const remaining = (clock: Clock): number => Math.max(0, clock.started + clock.timeoutMs - performance.now());

function failure(clock: Clock, statusCode: number | null, error: string, responseSnippet: string | null): DeliveryResult {
  return { ok: false, statusCode, durationMs: elapsed(clock), error, responseSnippet };
}

/** Sends one POST. Resolves (never rejects) within `timeoutMs` plus scheduling slack, whatever the receiver does. */
export async function deliverWebhook(request: DeliveryRequest, options: DeliveryOptions = {}): Promise<DeliveryResult> {
  const clock: Clock = { started: performance.now(), timeoutMs: request.timeoutMs };
  const check = checkTargetUrl(request.url, { allowLoopbackHttp: request.allowLoopback });
  if (!check.ok) return failure(clock, null, `refused target: ${check.reason}`, null);
  const url = new URL(request.url);
  let vetted: VettedAddresses;
  try {
    const resolving = resolveSafeAddresses(url.hostname, { allowLoopback: request.allowLoopback, lookup: options.lookup });
    vetted = await withinDeadline(resolving, clock);
  } catch (error) {
    return failure(clock, null, describeError(error), null);
  }
  return send(url, vetted, request, clock);
}

/** DNS cannot be cancelled, but the attempt stops waiting for it at the deadline. */
async function withinDeadline<T>(work: Promise<T>, clock: Clock): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => { reject(new DeliveryTimeout(`timed out after ${clock.timeoutMs} ms resolving the host`)); }, remaining(clock));
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function send(url: URL, vetted: VettedAddresses, request: DeliveryRequest, clock: Clock): Promise<DeliveryResult> {
  return new Promise((resolve) => {
    const reader = new SnippetReader(request.maxResponseBytes ?? WEBHOOK_MAX_RESPONSE_BYTES);
    let statusCode: number | null = null;
    let outgoing: ClientRequest | undefined;
    let settled = false;
    const settle = (error: string | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outgoing?.destroy(); // closes the socket in whatever state it is: nothing more is read
      resolve(outcome(clock, statusCode, error, reader));
    };
    const phase = (): string => (statusCode === null ? 'waiting for the response' : 'reading the response body');
    const timer = setTimeout(() => { settle(`timed out after ${request.timeoutMs} ms ${phase()}`); }, remaining(clock));
    try {
      outgoing = open(url, vetted, request, (response) => {
        statusCode = response.statusCode ?? null;
        response.on('data', (chunk: Buffer) => { if (reader.add(chunk)) settle(null); });
        response.on('end', () => { settle(null); });
        response.on('error', (error) => { settle(describeError(error)); });
        response.on('close', () => { settle('the connection closed before the response was complete'); });
      });
      outgoing.on('error', (error) => { settle(describeError(error)); });
      outgoing.end(request.body);
    } catch (error) {
      settle(describeError(error)); // e.g. a header value with a newline, refused before anything is sent
    }
  });
}

function open(url: URL, vetted: VettedAddresses, request: DeliveryRequest, onResponse: (response: IncomingMessage) => void): ClientRequest {
  const transport = url.protocol === 'https:' ? https : http;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (!ENGINE_HEADERS.has(name.toLowerCase())) headers[name] = value;
  }
  Object.assign(headers, {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'content-length': String(Buffer.byteLength(request.body)),
  });
  // agent: false gives a fresh socket every time, so a pooled connection can never skip the vetted lookup.
  return transport.request(url, { method: 'POST', headers, agent: false, lookup: pinnedLookup(vetted) }, onResponse);
}

function outcome(clock: Clock, statusCode: number | null, error: string | null, reader: SnippetReader): DeliveryResult {
  const snippet = statusCode === null ? null : reader.text();
  if (error !== null) return failure(clock, statusCode, error, snippet);
  if (statusCode === null) return failure(clock, null, 'no response', null);
  if (statusCode >= 200 && statusCode < 300) {
    return { ok: true, statusCode, durationMs: elapsed(clock), responseSnippet: reader.text() };
  }
  if (statusCode >= 300 && statusCode < 400) return failure(clock, statusCode, `redirect not followed (HTTP ${statusCode})`, snippet);
  return failure(clock, statusCode, `the receiver answered HTTP ${statusCode}`, snippet);
}

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the receiver',
  ENOTFOUND: 'DNS lookup failed: host not found',
  EAI_AGAIN: 'DNS lookup failed: temporary resolver failure',
  ENODATA: 'DNS lookup failed: no address for the host',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'connection closed by the receiver while sending',
};

/** A message safe for the deliveries console: what went wrong, never a header value or the body. */
function describeError(error: unknown): string {
  if (error instanceof TargetRefused) return `refused target: ${error.message}`;
  if (error instanceof DeliveryTimeout) return error.message;
  if (!(error instanceof Error)) return 'delivery failed';
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const known = NETWORK_ERRORS[code];
  if (known !== undefined) return `${known} (${code})`;
  // Node quotes a bad header's value in some of these messages: name the problem, not the value.
  if (code === 'ERR_INVALID_CHAR' || code.startsWith('ERR_HTTP_INVALID_HEADER')) return `invalid request header (${code})`;
  if (/CERT|^ERR_TLS_|^ERR_SSL_|^EPROTO$/.test(code)) return `TLS error (${code}): ${firstLine(error.message)}`;
  if (code.startsWith('HPE_')) return `invalid HTTP response from the receiver (${code})`;
  return code === '' ? `delivery failed: ${firstLine(error.message)}` : `delivery failed (${code}): ${firstLine(error.message)}`;
}

/** OpenSSL messages run on with library internals; the console needs the first line, briefly. */
function firstLine(message: string): string {
  return (message.split('\n')[0] ?? '').slice(0, 200);
}
