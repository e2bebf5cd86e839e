/**
 * An RFC 3161 timestamp authority over HTTP (RFC 3161 §3.4): POST application/timestamp-query, with an optional
 * header for authorities that want credentials (TSA_AUTH_HEADER, "Name: value" or a bare Authorization value).
 * Every failure, network or protocol, is a TimestampUnavailable: retryable, and never a silent B-B.
 */
import type { TimestampAuthority } from '#shared/ports/services.ts';
import { timestampRequest, TimestampUnavailable, tokenFromResponse } from '#shared/pki/tsp.ts';

export class HttpTimestampAuthority implements TimestampAuthority {
  private readonly headers: Record<string, string>;

  constructor(
    private readonly url: string,
    options: { authHeader?: string | null; timeoutMs?: number } = {},
    private readonly timeoutMs = options.timeoutMs ?? 10_000,
  ) {
    this.headers = { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply', ...authHeader(options.authHeader) };
  }

  async timestamp(digest: Uint8Array): Promise<Uint8Array> {
    const { request, nonce } = timestampRequest(digest);
    let response: Response;
    try {
      response = await fetch(this.url, { method: 'POST', headers: this.headers, body: request, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (cause) {
      throw new TimestampUnavailable(`The timestamp authority ${this.url} could not be reached`, { cause });
    }
    if (!response.ok) throw new TimestampUnavailable(`The timestamp authority ${this.url} answered HTTP ${String(response.status)}`);
    return tokenFromResponse(new Uint8Array(await response.arrayBuffer()), digest, nonce);
  }
}

function authHeader(value: string | null | undefined): Record<string, string> {
  if (!value) return {};
  const colon = value.indexOf(':');
  // "Basic abc" or "Bearer abc" contain no colon before the credentials; "X-Api-Key: abc" names its header.
  if (colon > 0 && /^[A-Za-z0-9-]+$/.test(value.slice(0, colon))) return { [value.slice(0, colon).trim()]: value.slice(colon + 1).trim() };
  return { authorization: value };
}
