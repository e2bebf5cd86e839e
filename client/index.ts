/**
 * A typed client for the API: openapi-fetch over the types generated from the OpenAPI document (client/schema.d.ts,
 * `npm run client:generate`). Every path, parameter, body and answer is checked by the compiler:
 *
 *   const api = createEsignClient({ baseUrl: 'http://127.0.0.1:3000' });
 *   api.use(clientCredentials({ baseUrl, clientId: 'local-client', clientSecret: 'local-secret' }));
 *   const { data, error } = await api.GET('/v1/envelopes/{id}', { params: { path: { id } } });
 *
 * Beside the raw calls: uploadDocument (any kind of bytes, presigned when large), paginate (every item of a list
 * route), verifyWebhook (a delivery's signature and timestamp).
 */
import createClient, { type ClientOptions, type Middleware } from 'openapi-fetch';
import type { paths } from './schema.d.ts';
import type { EsignClient, Schemas } from './client-types.ts';

export type { components, operations, paths, webhooks } from './schema.d.ts';
export type { ApiError, EsignClient, Schemas } from './client-types.ts';

export { ApiCallError } from './client-errors.ts';
export { listAll, paginate, type ListItem, type ListPath, type PaginateOptions } from './client-pagination.ts';
export { MAX_DIRECT_BYTES, toBytes, uploadDocument, uploadLargeDocument, type BinaryBody, type UploadOptions } from './client-uploads.ts';
export { checkWebhook, verifyWebhook, type VerifyWebhookOptions, type WebhookHeaders, type WebhookVerdict } from './webhook-verifier.ts';

const isBinary = (body: unknown) => body instanceof Uint8Array || body instanceof ArrayBuffer || (typeof Blob !== 'undefined' && body instanceof Blob)
  || (typeof ReadableStream !== 'undefined' && body instanceof ReadableStream) || body instanceof URLSearchParams || body instanceof FormData;

/** Bytes, blobs, streams and forms go as they are; anything else as JSON (a form-encoded content type: as a form). */
function serializeBody(body: unknown, headers?: Headers | Record<string, string>): unknown {
  if (isBinary(body)) return body;
  const type = headers instanceof Headers ? headers.get('content-type') : headers?.['content-type'] ?? headers?.['Content-Type'];
  if (type === 'application/x-www-form-urlencoded') return new URLSearchParams(body as Record<string, string>).toString();
  return JSON.stringify(body);
}

export function createEsignClient(options: ClientOptions & { baseUrl: string }): EsignClient {
  return createClient<paths>({ bodySerializer: serializeBody, ...options });
}

/** Routes whose credential is in the path (or that issue the credential): no bearer header. */
const withoutBearer = (path: string) => path === '/oauth/token' || path.startsWith('/v1/signing/') || path.startsWith('/v1/download/') || path === '/v1/openapi.json';

/** A bearer token from client credentials (`POST /oauth/token`). */
export async function requestToken(options: { baseUrl: string; clientId: string; clientSecret: string; fetch?: typeof fetch }): Promise<Schemas['TokenResponse']> {
  const client = createEsignClient({ baseUrl: options.baseUrl, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const { data, error, response } = await client.POST('/oauth/token', {
    body: { grant_type: 'client_credentials', client_id: options.clientId, client_secret: options.clientSecret },
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  if (!data) throw new Error(`POST /oauth/token answered ${String(response.status)}: ${error.message}`);
  return data;
}

/**
 * Middleware that sends a bearer token on the bearer routes: obtained with client credentials, renewed a minute
 * before it expires, and once more when the service says it has expired (the local service's clock may have been
 * moved ahead with `POST /_local/clock`), in which case the request is sent again with the new token.
 */
export function clientCredentials(options: { baseUrl: string; clientId: string; clientSecret: string; fetch?: typeof fetch }): Middleware {
  let current: { token: string; renewAt: number } | undefined;
  const token = async (fresh = false) => {
    if (fresh || !current || Date.now() >= current.renewAt) {
      const issued = await requestToken(options);
      current = { token: issued.access_token, renewAt: Date.now() + Math.max(0, issued.expires_in - 60) * 1000 };
    }
    return current.token;
  };
  const copies = new WeakMap<Request, Request>();
  return {
    async onRequest({ request, schemaPath }) {
      if (withoutBearer(schemaPath)) return undefined;
      request.headers.set('authorization', `Bearer ${await token()}`);
      copies.set(request, request.clone());
      return request;
    },
    async onResponse({ request, response }) {
      const copy = copies.get(request);
      if (response.status !== 401 || !copy) return undefined;
      const body = (await response.clone().json().catch(() => null)) as { reason?: string } | null;
      if (body?.reason !== 'token_expired') return undefined;
      copy.headers.set('authorization', `Bearer ${await token(true)}`);
      return (options.fetch ?? fetch)(copy);
    },
  };
}

/** A fixed bearer token on the bearer routes. */
export function bearerToken(token: string): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      if (!withoutBearer(schemaPath)) request.headers.set('authorization', `Bearer ${token}`);
      return request;
    },
  };
}
