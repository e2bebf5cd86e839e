/**
 * The editor's calls: the same API routes as an integrator's, with the authoring session as the bearer token (on the
 * signing host's origin). The session is renewed while the person is active and under half an hour remains.
 */
import { ApiError } from '../api-error.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface ErrorBody { error?: unknown; reason?: unknown; message?: unknown; errors?: unknown; details?: unknown }

function errorOf(status: number, body: unknown): ApiError {
  const b = (typeof body === 'object' && body !== null ? body : {}) as ErrorBody;
  // The spec's shape nests the error ({ error: { code, message, details } }); older routes put it flat
  const nested = typeof b.error === 'object' && b.error !== null ? (b.error as ErrorBody & { code?: unknown }) : null;
  const code = nested && typeof nested.code === 'string' ? nested.code : typeof b.error === 'string' ? b.error : `http_${String(status)}`;
  const message = nested && typeof nested.message === 'string' ? nested.message : typeof b.message === 'string' ? b.message : `HTTP ${String(status)}`;
  const errors = (nested?.details ?? b.errors ?? b.details) as Record<string, string[]> | undefined;
  return new ApiError({ status, code, message, errors: errors && typeof errors === 'object' ? errors : {} });
}

export interface Session { session: string; sessionExpiresAt: string }

export class AuthorApi {
  private token: string;
  private expiresAt: number;
  private renewing: Promise<void> | null = null;

  constructor(session: Session) {
    this.token = session.session;
    this.expiresAt = Date.parse(session.sessionExpiresAt);
  }

  /** Renews the session when under 30 minutes remain (called on activity). */
  keepAlive(): void {
    if (this.renewing || this.expiresAt - Date.now() > 30 * 60_000) return;
    this.renewing = this.call<Session>('POST', '/v1/authoring/session').then((next) => {
      this.token = next.session;
      this.expiresAt = Date.parse(next.sessionExpiresAt);
    }, () => undefined).finally(() => { this.renewing = null; });
  }

  async call<T>(method: Method, path: string, json?: unknown): Promise<T> {
    const raw = json instanceof Blob;
    const body = raw ? json : json === undefined ? null : JSON.stringify(json);
    let response: Response;
    try {
      response = await fetch(path, {
        method,
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${this.token}`,
          ...(raw ? { 'content-type': 'application/pdf' } : json === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body,
        credentials: 'omit',
        cache: 'no-store',
      });
    } catch {
      throw new ApiError({ status: 0, code: 'network', message: 'No answer from the service' });
    }
    const text = await response.text().catch(() => '');
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    if (response.ok) return parsed as T;
    throw errorOf(response.status, parsed);
  }

  /** A document's original PDF bytes (the route may redirect to a presigned URL, which fetch follows). */
  async bytes(path: string): Promise<ArrayBuffer> {
    let response: Response;
    try {
      response = await fetch(path, { headers: { authorization: `Bearer ${this.token}` }, credentials: 'omit', cache: 'no-store' });
    } catch {
      throw new ApiError({ status: 0, code: 'network', message: 'No answer from the service' });
    }
    if (!response.ok) throw errorOf(response.status, await response.json().catch(() => null));
    return response.arrayBuffer();
  }
}

/** Opens the one-time editor URL (no bearer: the ticket is the credential). */
export async function openTicket<T>(ticket: string): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/v1/authoring/${encodeURIComponent(ticket)}/open`, { method: 'POST', headers: { accept: 'application/json' }, credentials: 'omit', cache: 'no-store' });
  } catch {
    throw new ApiError({ status: 0, code: 'network', message: 'No answer from the service' });
  }
  const parsed: unknown = await response.json().catch(() => null);
  if (!response.ok) throw errorOf(response.status, parsed);
  return parsed as T;
}
