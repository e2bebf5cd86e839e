/**
 * The local stack the API, lifecycle and cost figures run against: startLocalStack in this process (in-memory
 * DynamoDB Local, s3rver, SES and SQS stand-ins), with the counting hooks of aws-calls.ts installed first and the
 * request budgets raised out of the way. Load comes from autocannon in a child process; the bench's own client
 * calls go over HTTP like any client's.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startLocalStack, type LocalStack } from '#local/stack.ts';
import { LOCAL_CREDENTIALS, TABLE } from '#local/provision.ts';
import { installHooks, recorder, uncounted, withScheduleTag } from './aws-calls.ts';

export interface CallResult<T> { status: number; body: T; ms: number }
export interface CallOptions {
  body?: unknown; contentType?: string; bearer?: boolean;
  /** The lifecycle step the request's AWS calls are listed under (aws-calls.ts `step`). */
  step?: string;
}

export interface BenchStack {
  local: LocalStack;
  token: string;
  /** A raw client on DynamoDB Local that is never counted (the floors). */
  floor: DynamoDBClient;
  /** One HTTP call to the API, tagged `<phase>|<handler>` for the counters; with the bearer token unless `bearer` is false. */
  call<T = Record<string, unknown>>(method: string, path: string, tag: string, options?: CallOptions): Promise<CallResult<T>>;
  stop(): Promise<void>;
}

const UNLIMITED = { limit: 1_000_000_000, windowSeconds: 60 };

/** `sesSendRate`: mail paced to that many emails per second, as on AWS (the paced bulk-send variant). */
export async function startBenchStack(options: { sesSendRate?: number } = {}): Promise<BenchStack> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  installHooks();
  const local = await withScheduleTag(() => startLocalStack({
    port: 0, signingPort: 0, ...options, rateLimits: { plans: { standard: UNLIMITED }, perToken: UNLIMITED, perIp: UNLIMITED },
  }));
  const floor = new DynamoDBClient({ endpoint: local.endpoints.dynamodb, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  const snapshotRaw = new DynamoDBClient({ endpoint: local.endpoints.dynamodb, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  const snapshot = DynamoDBDocumentClient.from(snapshotRaw);
  for (const client of [floor, snapshotRaw, snapshot]) uncounted.add(client);
  recorder.snapshot = { client: snapshot, table: TABLE };

  async function call<T>(method: string, path: string, tag: string, options: CallOptions = {}): Promise<CallResult<T>> {
    const { body, contentType = 'application/json', bearer = true, step } = options;
    const headers: Record<string, string> = { 'x-bench-tag': tag, ...(step ? { 'x-bench-step': step } : {}) };
    if (token && bearer) headers.authorization = `Bearer ${token}`;
    let payload: string | Uint8Array | FormData | URLSearchParams | undefined;
    if (body instanceof FormData || body instanceof URLSearchParams || body instanceof Uint8Array) payload = body;
    else if (body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined && !(body instanceof FormData) && !(body instanceof URLSearchParams)) headers['content-type'] = contentType;
    const start = performance.now();
    const response = await fetch(`${local.apiUrl}${path}`, { method, headers, body: payload });
    const text = await response.text();
    const ms = performance.now() - start;
    const parsed: unknown = response.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : text;
    return { status: response.status, body: parsed as T, ms };
  }

  let token = '';
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: local.devApp.clientId, client_secret: local.devApp.clientSecret });
  const issued = await call<{ access_token: string }>('POST', '/oauth/token', 'setup|functions/api/oauth-token.ts', { body: form });
  if (issued.status !== 200) throw new Error(`token request failed: ${String(issued.status)}`);
  token = issued.body.access_token;
  recorder.reset();
  return {
    local, floor, call, get token() { return token; },
    stop: async () => {
      floor.destroy();
      snapshotRaw.destroy();
      await local.stop();
    },
  };
}
