/** A call the service refused or failed: the status, and the error body (`error`, `message`, `reason`, `errors`) when it sent one. */
export class ApiCallError extends Error {
  readonly status: number;
  readonly body: unknown;
  readonly code: string | undefined;
  readonly reason: string | undefined;

  constructor(what: string, response: Response, body: unknown) {
    const detail = typeof body === 'object' && body !== null ? (body as { error?: unknown; message?: unknown; reason?: unknown }) : {};
    const message = typeof detail.message === 'string' ? detail.message : typeof body === 'string' ? body.slice(0, 200) : response.statusText;
    super(`${what} answered ${String(response.status)}: ${message}`);
    this.name = 'ApiCallError';
    this.status = response.status;
    this.body = body;
    this.code = typeof detail.error === 'string' ? detail.error : undefined;
    this.reason = typeof detail.reason === 'string' ? detail.reason : undefined;
  }
}
