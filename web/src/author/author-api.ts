/**
 * The editor's calls: the same API routes as an integrator's, with the authoring session as the bearer token (on the
 * signing host's origin), through the pages' one request function. The session is renewed while the person is active
 * and under half an hour remains.
 */
import { fetchBytes, request, type Method } from '../api.ts';

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

  /** JSON in and out; a Blob is sent as the PDF it is. */
  call<T>(method: Method, path: string, json?: unknown): Promise<T> {
    return request<T>(method, path, json instanceof Blob ? { pdf: json, bearer: this.token } : { json, bearer: this.token });
  }

  /** A document's original PDF bytes. */
  bytes(path: string): Promise<ArrayBuffer> {
    return fetchBytes(path, this.token);
  }
}

/** Opens the one-time editor URL (no bearer: the ticket is the credential). */
export const openTicket = <T>(ticket: string): Promise<T> => request<T>('POST', `/v1/authoring/${encodeURIComponent(ticket)}/open`);
