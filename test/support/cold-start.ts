/**
 * Cold starts of the deployed bundles, without AWS: `measureBundles()` bundles every manifest function exactly as
 * CDK does (infra/constructs/bundling.ts, with the function's own bundle options), then, for each, starts a fresh
 * `node` with only the environment its synthesized template gives it (plus what Lambda's runtime sets: region,
 * credentials), imports the bundle, and hands its handler a first event (events/ samples, or one made for the route).
 * The functions read their secrets from Secrets Manager at cold start: the SDK is pointed at a tiny fake endpoint
 * (AWS_ENDPOINT_URL_SECRETS_MANAGER, and AWS_ENDPOINT_URL_SSM for the seal chain) that hands out placeholders, and DynamoDB at a DynamoDB Local with the table.
 *
 * Used by test/infra/cdk-bundle.test.ts (cold-start failures become test failures) and meant for `npm run bench`:
 *
 *   const results = await measureBundles();   // starts its own DynamoDB Local when not given one
 *   for (const r of results) console.log(r.handler, r.bytes, r.initMs, r.firstEventMs);
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { ResourceKey } from '#infra/stacks/environment.ts';
import { createTableInput } from '#shared/adapters/aws/table-schema.ts';
import { BUNDLE_FILE, bundleFunction, codeBytes, REPO_ROOT } from '#infra/constructs/bundling.ts';
import { startDynamoDbLocal } from '#local/engines/dynamodb.ts';
import { bundleOptionsOf } from '#infra/stacks/functions.ts';
import { fallbackRoute, routes } from '#infra/routes.ts';
import { manifestHandlers } from '#infra/stacks/environment.ts';
import { manifestFunctions, resolverFor, synthesize, TEST_PSEUDO, type SynthesizedFunction } from './templates.ts';

export interface ColdStart {
  handler: string;
  /** The minified bundle (index.mjs, its chunks and the modules shipped beside it: pdf.js), source maps excluded. */
  bytes: number;
  /** Importing the bundle in a fresh process: Lambda's init phase. */
  initMs: number;
  /** The first invocation: secrets read, deps built, the first clients loaded, the event handled. */
  firstEventMs: number;
  /** What the first event got: the handler's result, or the error it threw. */
  answer: { ok: true; value: unknown } | { ok: false; error: string };
}

export interface MeasureOptions {
  /** Only these handler modules (default: every manifest function). */
  handlers?: readonly string[];
  /** A DynamoDB Local to create the table in; started (and stopped) here when omitted. */
  dynamodbEndpoint?: string;
  /** Processes at a time. */
  concurrency?: number;
}

const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' };
const PLACEHOLDER_SECRET = 'p'.repeat(64);

/** A placeholder seal chain (one certificate's worth of base64; nothing at cold start parses it further). */
const PLACEHOLDER_CHAIN = `-----BEGIN CERTIFICATE-----\n${Buffer.from('cold-start').toString('base64')}\n-----END CERTIFICATE-----\n`;

/** A tiny Secrets Manager (GetSecretValue answers a placeholder for any ARN) that is also SSM (GetParameter: a placeholder chain). */
function fakeSecretsManager(): Promise<{ endpoint: string; server: Server }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => { body += chunk.toString(); });
    req.on('end', () => {
      const { SecretId, Name } = JSON.parse(body || '{}') as { SecretId?: string; Name?: string };
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
      if (String(req.headers['x-amz-target']).startsWith('AmazonSSM.')) res.end(JSON.stringify({ Parameter: { Name, Value: PLACEHOLDER_CHAIN } }));
      else res.end(JSON.stringify({ ARN: SecretId, Name: SecretId, SecretString: PLACEHOLDER_SECRET }));
    });
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    done({ endpoint: `http://127.0.0.1:${String(typeof address === 'object' && address ? address.port : 0)}`, server });
  }));
}

/** Placeholder values of the handed-off resources; the table is a real one. */
function placeholders(table: string): (key: string) => string {
  const arn = (service: string, resource: string) => `arn:aws:${service}:${TEST_PSEUDO.region}:${TEST_PSEUDO.account}:${resource}`;
  const values: Partial<Record<ResourceKey | 'apiId', string>> = {
    apiUrl: 'https://api.example.com', signingUrl: 'https://sign.example.com',
    tableName: table, tableArn: arn('dynamodb', `table/${table}`),
    bucketName: 'cold-start-documents', bucketArn: 'arn:aws:s3:::cold-start-documents', encryptionKeyArn: arn('kms', 'key/cold-start'),
    jobsQueueUrl: `https://sqs.${TEST_PSEUDO.region}.amazonaws.com/${TEST_PSEUDO.account}/cold-start-jobs`, jobsQueueArn: arn('sqs', 'cold-start-jobs'),
    sealStateMachineArn: arn('states', 'stateMachine:seal'), webhookRetryStateMachineArn: arn('states', 'stateMachine:webhook-retry'),
    sealKeyArn: arn('kms', 'key/seal'), sealCertificatePem: '',
  };
  return (key) => values[key as ResourceKey] ?? arn('secretsmanager', `secret:cold-start/${key}`);
}

const fill = (text: string) => text.replace(/\{\{(\w+)\}\}/g, () => randomUUID());

/** A first event for the function: its sample in events/ when there is one. */
function firstEvent(handler: string): unknown {
  const route = routes.find((r) => r.handler === handler);
  if (route) {
    const key = `${route.method} ${route.path}`;
    const samples = ['add-field', 'add-signer', 'create-envelope-json', 'get-document', 'get-envelope', 'list-envelopes', 'oauth-token', 'openapi', 'send-envelope', 'upload-document', 'verify-audit', 'void-envelope'];
    for (const sample of samples) {
      const text = readFileSync(join(REPO_ROOT, 'events', 'api', `${sample}.json`), 'utf8');
      if ((JSON.parse(text) as { routeKey: string }).routeKey === key) return JSON.parse(fill(text));
    }
    // The get-envelope sample, made over for this route (its parameters invented, no credentials).
    const base = JSON.parse(fill(readFileSync(join(REPO_ROOT, 'events', 'api', 'get-envelope.json'), 'utf8'))) as { requestContext: { http: Record<string, string> } } & Record<string, unknown>;
    const params: Record<string, string> = Object.fromEntries([...route.path.matchAll(/\{(\w+)\}/g)].map(([, name = '']) => [name, randomUUID()]));
    const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => params[name] ?? '');
    const headers = { 'content-type': 'application/json', 'user-agent': 'cold-start' };
    return {
      ...base, routeKey: key, rawPath: path, headers, pathParameters: params, body: route.method === 'GET' ? undefined : '{}',
      requestContext: { ...base.requestContext, routeKey: key, http: { ...base.requestContext.http, method: route.method, path } },
    };
  }
  if (handler === fallbackRoute.handler) {
    const base = JSON.parse(fill(readFileSync(join(REPO_ROOT, 'events', 'api', 'get-envelope.json'), 'utf8'))) as { requestContext: { http: Record<string, string> } } & Record<string, unknown>;
    return { ...base, routeKey: '$default', rawPath: '/v1/nowhere', pathParameters: {}, requestContext: { ...base.requestContext, routeKey: '$default', http: { ...base.requestContext.http, path: '/v1/nowhere' } } };
  }
  const sample: Record<string, string> = {
    'functions/workers/jobs.ts': 'jobs-routing-advance', 'functions/workers/object-removed.ts': 'object-removed',
    'functions/workers/seal.ts': 'seal', 'functions/workers/finalize.ts': 'finalize', 'functions/workers/seal-failed.ts': 'seal-failed',
    'functions/workers/webhook-attempt.ts': 'webhook-attempt',
  };
  return JSON.parse(fill(readFileSync(join(REPO_ROOT, 'events', 'workers', `${sample[handler] ?? 'schedule'}.json`), 'utf8')));
}

/** Runs in the fresh process: import (timed), then one invocation (timed); the result on stdout. */
const RUNNER = `
const started = performance.now();
const { handler } = await import(process.argv[2]);
const imported = performance.now();
let answer;
try { answer = { ok: true, value: await handler(JSON.parse(process.argv[3]), { awsRequestId: 'cold-start', functionName: 'cold-start' }) }; }
catch (error) { answer = { ok: false, error: String(error && error.stack || error) }; }
process.stdout.write(JSON.stringify({ initMs: imported - started, firstEventMs: performance.now() - imported, answer }));
`;

function run(fn: SynthesizedFunction, dir: string, env: Record<string, string>): Promise<ColdStart> {
  const event = JSON.stringify(firstEvent(fn.handler));
  return new Promise((done, fail) => {
    execFile(process.execPath, [join(dir, 'runner.mjs'), join(dir, BUNDLE_FILE), event], { env, timeout: 60_000, maxBuffer: 8 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error && !stdout) { fail(new Error(`${fn.handler}: the process failed\n${stderr}`)); return; }
      const result = JSON.parse(stdout) as Omit<ColdStart, 'handler' | 'bytes'>;
      done({ handler: fn.handler, bytes: codeBytes(dir), ...result });
    });
  });
}

async function inBatches<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) results.push(...(await Promise.all(items.slice(i, i + size).map(work))));
  return results;
}

/** Bundle size, init time and first-event time of each manifest function, from its own bundle and environment. */
export async function measureBundles(options: MeasureOptions = {}): Promise<ColdStart[]> {
  const wanted = new Set(options.handlers ?? manifestHandlers());
  const functions = manifestFunctions(synthesize()).filter((fn) => wanted.has(fn.handler));
  const scratch = mkdtempSync(join(tmpdir(), 'esign-cold-start-'));
  const dynamodb = options.dynamodbEndpoint ? undefined : await startDynamoDbLocal();
  const secrets = await fakeSecretsManager();
  try {
    const endpoint = options.dynamodbEndpoint ?? dynamodb?.endpoint ?? '';
    const table = `cold-start-${randomUUID()}`;
    const admin = new DynamoDBClient({ endpoint, region: TEST_PSEUDO.region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    await admin.send(new CreateTableCommand(createTableInput(table)));
    admin.destroy();
    const values = placeholders(table);
    const prepared = functions.map((fn) => {
      const dir = join(scratch, fn.logicalId);
      bundleFunction(fn.handler, dir, bundleOptionsOf(fn.handler));
      writeFileSync(join(dir, 'runner.mjs'), RUNNER);
      const resolve = resolverFor(fn.template, values);
      const env: Record<string, string> = {
        ...Object.fromEntries(Object.entries(fn.env).map(([name, value]) => [name, resolve(value)])),
        // What Lambda's runtime adds, and where the SDK finds the test's services.
        AWS_REGION: TEST_PSEUDO.region, AWS_DEFAULT_REGION: TEST_PSEUDO.region, AWS_LAMBDA_FUNCTION_NAME: fn.logicalId, ...CREDENTIALS,
        AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.endpoint, AWS_ENDPOINT_URL_SSM: secrets.endpoint, AWS_ENDPOINT_URL_DYNAMODB: endpoint,
        // The machine's Node runs the bundle (Lambda runs 22): the SDK's notice about it is noise here.
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      };
      return { fn, dir, env };
    });
    return await inBatches(prepared, options.concurrency ?? 2, ({ fn, dir, env }) => run(fn, dir, env));
  } finally {
    secrets.server.close();
    await dynamodb?.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
