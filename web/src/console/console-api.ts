/**
 * The console's calls: the public API on the console's own origin (/v1/...), with the signed-in user's bearer
 * token. Errors keep the API's code (`error`), `reason` and `details`, so a view can tell cases apart.
 */
import { accessToken, forgetSession } from './console-auth.ts';

export class ApiProblem extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly details: unknown = null, readonly reason: string | null = null) {
    super(message);
  }
}

/** The API's error body: `error` is the code, `reason` tells apart the causes one code has. */
interface ErrorBody { error?: unknown; reason?: unknown; message?: unknown; details?: unknown }

export interface CallOptions {
  json?: unknown;
  body?: BodyInit;
  contentType?: string;
  query?: Record<string, string | number | null | undefined>;
  /** Answers null for a 404 instead of throwing (a route that may not exist on this deployment). */
  optional?: boolean;
}

/** Called when the API says the token is no longer good: the console signs in again. */
let onUnauthorised: () => void = () => undefined;
export const whenUnauthorised = (handler: () => void) => { onUnauthorised = handler; };

export async function call<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
  const url = new URL(path, window.location.origin);
  for (const [name, value] of Object.entries(options.query ?? {})) if (value !== null && value !== undefined && value !== '') url.searchParams.set(name, String(value));
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = accessToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let body = options.body;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.contentType) headers['content-type'] = options.contentType;
  const response = await fetch(url, { method, headers, body: body ?? null });
  if (response.status === 404 && options.optional) return null as T;
  if (response.status === 401 && token) {
    forgetSession();
    onUnauthorised();
  }
  if (!response.ok) {
    const problem = await response.json().catch(() => null) as ErrorBody | null;
    const text = (value: unknown) => (typeof value === 'string' ? value : null);
    throw new ApiProblem(response.status, text(problem?.error) ?? 'http_error', text(problem?.message) ?? response.statusText, problem?.details ?? null, text(problem?.reason));
  }
  if (response.status === 204) return null as T;
  return (response.headers.get('content-type') ?? '').includes('json') ? await response.json() as T : await response.blob() as T;
}

/** Fetches a file with the bearer token and saves it under `name` (the browser's download). */
export async function download(path: string, name: string): Promise<void> {
  const blob = await call<Blob>('GET', path);
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => { URL.revokeObjectURL(url); }, 10_000);
}
