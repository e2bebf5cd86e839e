import { inject } from 'vitest';

export const apiUrl = () => inject('apiUrl');

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  bytes: Uint8Array;
}

export interface CallOptions {
  token?: string;
  json?: unknown;
  form?: FormData | URLSearchParams;
  raw?: { bytes: Uint8Array; contentType: string };
  headers?: Record<string, string>;
}

/** One HTTP call to the local API; JSON responses are parsed, anything else is left as bytes. */
export async function call<T = Record<string, unknown>>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: RequestInit['body'];
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    body = options.form;
  } else if (options.raw) {
    headers['content-type'] = options.raw.contentType;
    body = options.raw.bytes;
  }
  const response = await fetch(`${apiUrl()}${path}`, { method, headers, body });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const isJson = response.headers.get('content-type')?.includes('json') ?? false;
  const parsed: unknown = isJson && bytes.length > 0 ? JSON.parse(Buffer.from(bytes).toString('utf8')) : undefined;
  return { status: response.status, headers: response.headers, body: parsed as T, bytes };
}

export async function tokenFor(clientId: string, clientSecret: string): Promise<string> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });
  const response = await call<{ access_token: string }>('POST', '/oauth/token', { form });
  if (response.status !== 200) throw new Error(`token request failed: ${String(response.status)}`);
  return response.body.access_token;
}

/** Plan and quota of a test application: plan `test` has the small request budget set up in global-setup.ts. */
export interface AppOptions {
  plan?: string;
  envelopesLimit?: number | null;
  overageAllowed?: boolean;
  allowActiveContent?: boolean;
}

/** A fresh application with its own token, so test files never see each other's envelopes. */
export async function newApp(name = 'test app', options: AppOptions = {}): Promise<{ appId: string; clientId: string; clientSecret: string; token: string }> {
  const created = await call<{ appId: string; clientId: string; clientSecret: string }>('POST', '/_local/apps', { json: { name, ...options } });
  if (created.status !== 201) throw new Error(`app creation failed: ${String(created.status)}`);
  return { ...created.body, token: await tokenFor(created.body.clientId, created.body.clientSecret) };
}

export interface OutboxMessage {
  channel: 'email' | 'sms';
  to: string;
  subject: string | null;
  text: string;
  html: string | null;
}

export async function outboxFor(address: string): Promise<OutboxMessage[]> {
  return (await call<OutboxMessage[]>('GET', `/_local/outbox?to=${encodeURIComponent(address)}`)).body;
}

/** The shape every error response has (decision 5). */
export function expectErrorShape(body: unknown, code: string, status: number): void {
  const b = body as Record<string, unknown>;
  if (b.error !== code || b.type !== code || b.status !== status || typeof b.message !== 'string' || typeof b.title !== 'string' || typeof b.errors !== 'object') {
    throw new Error(`unexpected error body: ${JSON.stringify(body)}`);
  }
}
