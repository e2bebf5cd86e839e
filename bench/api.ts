/**
 * Figure 2: requests per second and p50/p99 of `GET /v1/envelopes/{id}` and `POST /v1/envelopes` (JSON) on the local
 * stack (in this process), driven by autocannon in a child process at concurrency 1 and 10; beside the floor,
 * DynamoDB Local's own GetItem rate (a loop of the SDK's GetItem on the envelope's item, same concurrency), and the
 * GET's and the POST's own DynamoDB calls replayed directly in sequence (targets: 0.6x and 0.5x of those). The variants alternate in rounds (the order reversed every
 * other round); each figure is the median over rounds, each ratio the median of the rounds' ratios. DynamoDB calls
 * per request are counted by the hooks of aws-calls.ts.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { GetItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { TABLE } from '#local/provision.ts';
import { context, recorder, uncounted } from './aws-calls.ts';
import { fmt, median, percentile, type Row, type RunSize } from './lib.ts';
import type { BenchStack } from './stack.ts';

export interface Throughput { rate: number; p50: number; p99: number; errors: number; dynamoPerRequest?: number }

export interface ApiResult {
  rows: Row[];
  /** Medians at concurrency 1 and 10, for the capacity figure. */
  get: Record<1 | 10, Throughput>;
  post: Record<1 | 10, Throughput>;
}

const GET_TAG = 'api|functions/api/get-envelope.ts';
const POST_TAG = 'api|functions/api/create-envelope.ts';
const CREATE_BODY = {
  tenantId: 'bench', subject: 'Bench envelope',
  signers: [{ name: 'Ana Silva', email: 'ana@example.com', authMethod: 'none' }, { name: 'Ben Okafor', email: 'ben@example.com', authMethod: 'none' }],
};

interface AutocannonJson {
  requests: { total: number };
  latency: { p50: number; p99: number };
  duration: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

/** One autocannon run in its own process (so the load generator does not share the service's event loop). */
function autocannon(url: string, connections: number, seconds: number, headers: Record<string, string>, post?: string): Promise<Throughput> {
  const args = [AUTOCANNON, '-c', String(connections), '-d', String(seconds), '-j', ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`])];
  if (post !== undefined) args.push('-m', 'POST', '-H', 'content-type=application/json', '-b', post);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => { out += chunk.toString('utf8'); });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) { reject(new Error(`autocannon exited ${String(code)}`)); return; }
      const result = JSON.parse(out) as AutocannonJson;
      resolve({ rate: result.requests.total / result.duration, p50: result.latency.p50, p99: result.latency.p99, errors: result.non2xx + result.errors + result.timeouts });
    });
  });
}

/** `concurrency` loops of `op` for `seconds`: the rate and latency percentiles of the calls. */
async function loop(op: () => Promise<unknown>, concurrency: number, seconds: number): Promise<Throughput> {
  const latencies: number[] = [];
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < end) {
      const t = performance.now();
      await op();
      latencies.push(performance.now() - t);
    }
  }));
  return { rate: latencies.length / ((performance.now() - started) / 1000), p50: median(latencies), p99: percentile(latencies, 99), errors: 0 };
}

/** Measured while autocannon runs: the DynamoDB calls made under `tag` per request served under it. */
async function counted(tag: string, run: () => Promise<Throughput>): Promise<Throughput> {
  recorder.reset();
  const result = await run();
  const requests = recorder.invocations.filter((i) => i.tag === tag).length;
  const calls = recorder.calls.filter((c) => c.tag === tag && c.service === 'DynamoDB').length;
  return { ...result, dynamoPerRequest: requests ? calls / requests : NaN };
}

/**
 * The DynamoDB calls one request makes, captured as (client, command) so they can be replayed without the service
 * around them. A replayed create's conditional writes are refused (the items exist): DynamoDB still evaluates them,
 * so the refusal is caught and the call counted like the rest.
 */
async function captureCalls(stack: BenchStack, method: 'GET' | 'POST', path: string, handler: string, body?: unknown): Promise<(() => Promise<unknown>)[]> {
  const captured: (() => Promise<unknown>)[] = [];
  const tag = `capture|${handler}`;
  const original = recorder.capture;
  recorder.capture = (client, command) => {
    if (context.getStore()?.tag !== tag) return;
    const Command = command.constructor as new (input: unknown) => never;
    const input = structuredClone(command.input);
    captured.push(() => context.run({ tag: `replay|${handler}` }, () => client.send(new Command(input)).catch((error: unknown) => error)));
  };
  try {
    const res = await stack.call(method, path, tag, body === undefined ? {} : { body });
    if (res.status >= 300) throw new Error(`${method} ${path} failed: ${String(res.status)}`);
  } finally {
    recorder.capture = original;
  }
  return captured;
}

export async function apiFigure(stack: BenchStack, size: RunSize): Promise<ApiResult> {
  const created = await stack.call<{ id: string }>('POST', '/v1/envelopes', 'setup|functions/api/create-envelope.ts', { body: CREATE_BODY });
  if (created.status !== 201) throw new Error(`create failed: ${String(created.status)} ${JSON.stringify(created.body)}`);
  const id = created.body.id;
  const getUrl = `${stack.local.apiUrl}/v1/envelopes/${id}`;
  const postUrl = `${stack.local.apiUrl}/v1/envelopes`;
  const auth = { authorization: `Bearer ${stack.token}` };
  const floor: DynamoDBClient = stack.floor;
  uncounted.add(floor);
  const getItem = () => floor.send(new GetItemCommand({ TableName: TABLE, Key: { PK: { S: `ENV#${id}` }, SK: { S: 'ENV' } } }));

  type Variant = 'get1' | 'item1' | 'replay1' | 'get10' | 'item10' | 'post1' | 'postReplay1' | 'post10';
  const variants: Record<Variant, () => Promise<Throughput>> = {
    get1: () => counted(GET_TAG, () => autocannon(getUrl, 1, size.apiSeconds, { ...auth, 'x-bench-tag': GET_TAG })),
    item1: () => loop(getItem, 1, size.apiSeconds),
    replay1: () => loop(() => replayGet(), 1, size.apiSeconds),
    get10: () => counted(GET_TAG, () => autocannon(getUrl, 10, size.apiSeconds, { ...auth, 'x-bench-tag': GET_TAG })),
    item10: () => loop(getItem, 10, size.apiSeconds),
    post1: () => counted(POST_TAG, () => autocannon(postUrl, 1, size.apiSeconds, { ...auth, 'x-bench-tag': POST_TAG }, JSON.stringify(CREATE_BODY))),
    postReplay1: () => loop(() => replayPost(), 1, size.apiSeconds),
    post10: () => counted(POST_TAG, () => autocannon(postUrl, 10, size.apiSeconds, { ...auth, 'x-bench-tag': POST_TAG }, JSON.stringify(CREATE_BODY))),
  };
  // Warm-up: the route, the SDK's connections and DynamoDB Local's JIT.
  await autocannon(getUrl, 2, 1, { ...auth, 'x-bench-tag': 'warm|functions/api/get-envelope.ts' });
  await loop(getItem, 2, 1);
  await autocannon(postUrl, 2, 1, { ...auth, 'x-bench-tag': 'warm|functions/api/create-envelope.ts' }, JSON.stringify(CREATE_BODY));
  // Captured once warm (the application and the token are cached by then), as every measured GET runs.
  const replay = await captureCalls(stack, 'GET', `/v1/envelopes/${id}`, 'functions/api/get-envelope.ts');
  const replayGet = async () => { for (const op of replay) await op(); };
  const postCalls = await captureCalls(stack, 'POST', '/v1/envelopes', 'functions/api/create-envelope.ts', CREATE_BODY);
  const replayPost = async () => { for (const op of postCalls) await op(); };

  const results = Object.fromEntries(Object.keys(variants).map((k) => [k, [] as Throughput[]])) as Record<Variant, Throughput[]>;
  const names = Object.keys(variants) as Variant[];
  for (let round = 0; round < size.apiRounds; round++) {
    for (const name of round % 2 ? [...names].reverse() : names) results[name].push(await variants[name]());
    console.error(`  api round ${String(round + 1)}: GET c1 ${fmt.rate(results.get1.at(-1)?.rate ?? NaN)}, GetItem c1 ${fmt.rate(results.item1.at(-1)?.rate ?? NaN)}`);
  }
  const summary = (list: Throughput[]): Throughput => ({
    rate: median(list.map((t) => t.rate)), p50: median(list.map((t) => t.p50)), p99: median(list.map((t) => t.p99)),
    errors: list.reduce((n, t) => n + t.errors, 0), dynamoPerRequest: median(list.map((t) => t.dynamoPerRequest ?? NaN)),
  });
  const s = Object.fromEntries(names.map((n) => [n, summary(results[n])])) as Record<Variant, Throughput>;
  const ratio = (a: Variant, b: Variant) => median(results[a].map((t, i) => t.rate / (results[b][i]?.rate ?? NaN)));
  const lat = (t: Throughput) => `p50 ${fmt.ms(t.p50)}, p99 ${fmt.ms(t.p99)}`;
  const calls = (t: Throughput) => `${t.dynamoPerRequest?.toFixed(1) ?? 'n/a'} DynamoDB calls per request${t.errors ? `; ${String(t.errors)} non-2xx or errors` : ''}`;
  const n = `${String(size.apiRounds)} x ${String(size.apiSeconds)} s`;
  const rows: Row[] = [
    { figure: '2 API', what: `GET /v1/envelopes/{id}, concurrency 1 (${n})`, ours: `${fmt.rate(s.get1.rate)}, ${lat(s.get1)}`, other: `DynamoDB Local GetItem ${fmt.rate(s.item1.rate)}, ${lat(s.item1)}`, ratio: fmt.ratio(ratio('get1', 'item1')), note: calls(s.get1) },
    { figure: '2 API', what: 'same, against its own DynamoDB calls replayed directly', ours: fmt.rate(s.get1.rate), other: `${String(replay.length)} calls in sequence: ${fmt.rate(s.replay1.rate)}, ${lat(s.replay1)}`, ratio: fmt.ratio(ratio('get1', 'replay1')), note: `target >= ${fmt.ratio(0.6)}: ${ratio('get1', 'replay1') >= 0.6 ? 'met' : 'missed'}` },
    { figure: '2 API', what: `GET /v1/envelopes/{id}, concurrency 10 (${n})`, ours: `${fmt.rate(s.get10.rate)}, ${lat(s.get10)}`, other: `DynamoDB Local GetItem ${fmt.rate(s.item10.rate)}, ${lat(s.item10)}`, ratio: fmt.ratio(ratio('get10', 'item10')), note: calls(s.get10) },
    { figure: '2 API', what: `POST /v1/envelopes (JSON, 2 signers), concurrency 1 (${n})`, ours: `${fmt.rate(s.post1.rate)}, ${lat(s.post1)}`, note: calls(s.post1) },
    { figure: '2 API', what: 'same, against its own DynamoDB calls replayed directly', ours: fmt.rate(s.post1.rate), other: `${String(postCalls.length)} calls in sequence: ${fmt.rate(s.postReplay1.rate)}, ${lat(s.postReplay1)}`, ratio: fmt.ratio(ratio('post1', 'postReplay1')), note: `target >= ${fmt.ratio(0.5)}: ${ratio('post1', 'postReplay1') >= 0.5 ? 'met' : 'missed'}` },
    { figure: '2 API', what: `POST /v1/envelopes (JSON, 2 signers), concurrency 10 (${n})`, ours: `${fmt.rate(s.post10.rate)}, ${lat(s.post10)}`, note: calls(s.post10) },
  ];
  return { rows, get: { 1: s.get1, 10: s.get10 }, post: { 1: s.post1, 10: s.post10 } };
}
