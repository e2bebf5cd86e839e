import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ResourceNotFoundException, UpdateTableCommand, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { createTableInput, TTL_ATTRIBUTE } from '#adapters/aws/table-schema.ts';
import { SmsOutbox } from '#adapters/local/sms-outbox.ts';
import { OffsetClock, uuidV7Ids } from '#adapters/system.ts';
import { ensureApplication } from '#domain/use-cases/applications.ts';
import { serveRoute } from '#http/lambda.ts';
import type { ApiHandler } from '#http/route.ts';
import { loadConfig, type Config } from '#shared/config.ts';
import { buildDeps, type ClientSettings, type Deps } from '#shared/deps.ts';
import { routes, workers, workflows } from '../routes.ts';
import { KeyFileSigner } from '#adapters/local/key-file-signer.ts';
import { loadStateMachine } from './workflow-runner.ts';
import { LocalWorkflows } from '#adapters/local/local-workflows.ts';
import { SQSClient } from '@aws-sdk/client-sqs';
import { startSqs } from './engines/sqs.ts';
import type { S3Event } from 'aws-lambda';
import { lifecycleJob } from './lifecycle.ts';
import { startPoller, type Poller, type SqsHandler } from './queue-poller.ts';
import { devHandlers } from './dev-endpoints.ts';
import { runScheduled, type Job } from './scheduler.ts';
import { startDynamoDbLocal } from './engines/dynamodb.ts';
import { startLocalPki } from './engines/pki.ts';
import { localS3ClientConfig, startS3 } from './engines/s3.ts';
import { startSes } from './engines/ses.ts';
import type { RunningEngine } from './engines/types.ts';
import { bindRoute, type BoundRoute } from './router.ts';
import { apiListener } from './server.ts';
import { signingHostListener } from './signing-host.ts';

export interface LocalStackOptions {
  /** Persist everything under this directory (`npm start`); omitted: in memory, gone at stop (tests). */
  dataDir?: string;
  /** API port; 0 picks a free one. */
  port?: number;
  signingPort?: number;
  devClient?: { clientId: string; clientSecret: string };
  /** How long a received job stays invisible before redelivery (SQS visibility timeout). */
  queueVisibilitySeconds?: number;
  /** Each webhook attempt's limit; tests shorten the spec's 10 s. */
  webhookTimeoutMs?: number;
  /** Public addresses used in links, when not the local ports (a tunnel, a proxy). */
  baseUrl?: string;
  signingUrl?: string;
  mailFrom?: string;
  /** Where a copy of every sealed document goes (the sender), if anywhere. */
  senderCopyEmail?: string;
  /** Overrides of the request budgets (`RATE_LIMITS`, see shared/config.ts); tests add a plan with a small limit. */
  rateLimits?: Record<string, unknown>;
}

export interface LocalStack {
  apiUrl: string;
  signingUrl: string;
  devApp: { appId: string; clientId: string; clientSecret: string };
  deps: Deps;
  clock: OffsetClock;
  endpoints: { dynamodb: string; s3: string; ses: string; sqs: string };
  queueUrls: { jobs: string; jobsDlq: string };
  config: Config;
  stop(): Promise<void>;
}

export const TABLE = 'esign-local';
const BUCKET = 'esign-local-documents';
const JOBS_QUEUE = 'esign-jobs';
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
const REPO_ROOT = resolve(import.meta.dirname, '../..');

export interface LocalSecrets { jwtSecret: string; linkSecret: string; dataKey: string }

const newSecret = () => randomBytes(32).toString('base64url');

/** Secrets are generated once per data directory and reused, so tokens and sealed secrets survive restarts. */
export async function localSecrets(dataDir: string | undefined): Promise<LocalSecrets> {
  const fresh = { jwtSecret: newSecret(), linkSecret: newSecret(), dataKey: newSecret() };
  if (!dataDir) return fresh;
  const file = join(dataDir, 'secrets.json');
  try {
    return JSON.parse(await readFile(file, 'utf8')) as LocalSecrets;
  } catch {
    await writeFile(file, JSON.stringify(fresh, null, 2), { mode: 0o600 });
    return fresh;
  }
}

/** A table persisted by an older version gains the indexes added since. */
async function addMissingIndexes(db: DynamoDBClient, existing: Set<string | undefined>): Promise<void> {
  const wanted = createTableInput(TABLE);
  for (const index of wanted.GlobalSecondaryIndexes ?? []) {
    if (existing.has(index.IndexName)) continue;
    await db.send(new UpdateTableCommand({
      TableName: TABLE, AttributeDefinitions: wanted.AttributeDefinitions,
      GlobalSecondaryIndexUpdates: [{ Create: { IndexName: index.IndexName, KeySchema: index.KeySchema, Projection: index.Projection } }],
    }));
  }
}

export async function ensureTable(endpoint: string): Promise<void> {
  const db = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  try {
    const { Table } = await db.send(new DescribeTableCommand({ TableName: TABLE }));
    await addMissingIndexes(db, new Set((Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName)));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
    await db.send(new CreateTableCommand(createTableInput(TABLE)));
    await db.send(new UpdateTimeToLiveCommand({ TableName: TABLE, TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true } }));
  } finally {
    db.destroy();
  }
}

async function ensureBucket(endpoint: string): Promise<void> {
  const s3 = new S3Client(localS3ClientConfig(endpoint));
  try {
    await s3.send(new HeadBucketCommand({ Bucket: BUCKET }));
  } catch {
    await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  } finally {
    s3.destroy();
  }
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      resolveListen(typeof address === 'object' && address ? address.port : port);
    });
  });
}

const close = (server: Server) => new Promise<void>((done) => { server.close(() => { done(); }); server.closeAllConnections(); });

/** Resolves once `idle()` holds on two checks in a row (executions move between states in between), or after 15 s. */
async function quiet(idle: () => boolean): Promise<void> {
  const deadline = Date.now() + 15_000;
  let calm = 0;
  while (calm < 2 && Date.now() < deadline) {
    calm = idle() ? calm + 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Background work settles in rounds: a job may start a workflow that queues another job. */
async function drainAll(checks: readonly (() => Promise<unknown>)[]): Promise<void> {
  for (let round = 0; round < 3; round++) for (const check of checks) await check();
}

interface WorkerModule { createHandler: (deps: Deps) => (event: never) => Promise<unknown> }

/** Wires every worker of the manifest: queue consumers get a poller, schedules join the scheduler. */
async function startWorkers(deps: Deps, clients: { sqs: SQSClient; s3: S3Client }, jobsQueueUrl: string): Promise<{ pollers: Poller[]; scheduled: Job[] }> {
  const pollers: Poller[] = [];
  const scheduled: Job[] = [];
  for (const def of workers) {
    const module = (await import(pathToFileURL(join(REPO_ROOT, def.handler)).href)) as WorkerModule;
    const handler = module.createHandler(deps);
    if (def.trigger.kind === 'queue') pollers.push(startPoller(clients.sqs, jobsQueueUrl, handler as SqsHandler));
    else if (def.trigger.kind === 'objectRemoved') scheduled.push(lifecycleJob(clients.s3, deps.config.bucketName, handler as (e: S3Event) => Promise<unknown>));
    else scheduled.push(async () => { await (handler as () => Promise<unknown>)(); });
  }
  return { pollers, scheduled };
}

async function loadRoutes(deps: Deps): Promise<BoundRoute[]> {
  return Promise.all(routes.map(async (def) => {
    const module = (await import(pathToFileURL(join(REPO_ROOT, def.handler)).href)) as { createHandler: (deps: Deps) => ApiHandler };
    return bindRoute(def, serveRoute(module.createHandler, deps));
  }));
}

/** Starts the whole service on local engines: DynamoDB Local, s3rver, SES v2 local; the API and the signing host. */
export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  // Locally we run on the machine's Node (20 here); Lambda runs nodejs22.x, so the SDK's upgrade notice is noise.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const dataDir = options.dataDir ? resolve(options.dataDir) : undefined;
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const scratch = dataDir ?? (await mkdtemp(join(tmpdir(), 'esign-local-')));
  const engines: RunningEngine[] = [];
  const servers: Server[] = [];
  const stopHooks: (() => Promise<void>)[] = [];
  const stop = async () => {
    await Promise.all(servers.map(close));
    for (const hook of stopHooks) await hook();
    await Promise.all(engines.map((e) => e.stop()));
    if (!dataDir) await rm(scratch, { recursive: true, force: true });
  };
  try {
    const [dynamodb, s3, ses, sqs, pki] = await Promise.all([
      startDynamoDbLocal(dataDir ? { dataDir: join(dataDir, 'dynamodb') } : {}),
      startS3({ dataDir: join(scratch, 's3') }),
      startSes({}),
      startSqs([{ name: JOBS_QUEUE, visibilityTimeoutSeconds: options.queueVisibilitySeconds ?? 30, maxReceiveCount: 5 }]),
      startLocalPki({ dir: join(scratch, 'pki') }),
    ]);
    engines.push(dynamodb, s3, ses, sqs, pki);
    const jobsQueue = sqs.queues[JOBS_QUEUE] ?? { url: '', dlqUrl: '' };
    await Promise.all([ensureTable(dynamodb.endpoint), ensureBucket(s3.endpoint)]);

    let bound: BoundRoute[] = [];
    const scheduled: Job[] = [];
    const pollers: Poller[] = [];
    const idleChecks: (() => Promise<unknown>)[] = [() => Promise.all(pollers.map((p) => p.drain(() => sqs.depth(JOBS_QUEUE))))];
    const clock = new OffsetClock();
    const sms = new SmsOutbox(() => clock.now(), () => uuidV7Ids.next());
    const holder: { deps?: Deps } = {};
    const api = createServer((req, res) => void apiListener(() => bound, devHandlers({ holder, clock, sms, ses, jobs: scheduled, drain: () => drainAll(idleChecks), pki }))(req, res));
    const signing = createServer((req, res) => void signingHostListener(() => bound, join(REPO_ROOT, 'web', 'dist'))(req, res));
    servers.push(api, signing);
    const apiPort = await listen(api, options.port ?? 3000);
    const signingPort = await listen(signing, options.signingPort ?? 3001);

    const secrets = await localSecrets(dataDir);
    const config = loadConfig({
      TABLE_NAME: TABLE, BUCKET_NAME: BUCKET, LOCAL_MODE: '1', JOBS_QUEUE_URL: jobsQueue.url,
      BASE_URL: options.baseUrl ?? `http://127.0.0.1:${String(apiPort)}`,
      SIGNING_URL: options.signingUrl ?? `http://127.0.0.1:${String(signingPort)}`,
      JWT_SECRET: secrets.jwtSecret, LINK_SECRET: secrets.linkSecret, DATA_KEY: secrets.dataKey,
      MAIL_FROM: options.mailFrom ?? 'no-reply@esign.local', TSA_URL: pki.tsaUrl,
      ...(options.webhookTimeoutMs ? { WEBHOOK_TIMEOUT_MS: String(options.webhookTimeoutMs) } : {}),
      ...(options.senderCopyEmail ? { SENDER_COPY_EMAIL: options.senderCopyEmail } : {}),
      ...(options.rateLimits ? { RATE_LIMITS: JSON.stringify(options.rateLimits) } : {}),
    });
    const clients: ClientSettings = {
      dynamodb: { endpoint: dynamodb.endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS },
      s3: localS3ClientConfig(s3.endpoint),
      ses: { endpoint: ses.endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS },
      sqs: { endpoint: sqs.endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS },
    };
    const localWorkflows = new LocalWorkflows();
    const documentSigner = await KeyFileSigner.open(join(dataDir ?? scratch, 'signing'), { certify: (key, chain) => pki.sealChain(key, chain) });
    const deps = buildDeps(config, clients, { clock, sms, workflows: localWorkflows, documentSigner });
    holder.deps = deps;
    bound = await loadRoutes(deps);
    const tasks = { count: 0 };
    const hooks = { until: (iso: string) => clock.until(iso), busy: (delta: 1 | -1) => { tasks.count += delta; } };
    for (const def of workflows) localWorkflows.useRunner(def.name, await loadStateMachine(REPO_ROOT, def, deps, hooks));
    idleChecks.push(() => quiet(() => tasks.count === 0));
    const background = await startWorkers(deps, { sqs: new SQSClient(clients.sqs ?? {}), s3: new S3Client(clients.s3 ?? {}) }, jobsQueue.url);
    pollers.push(...background.pollers);
    scheduled.push(...background.scheduled);
    const timer = setInterval(() => void runScheduled(scheduled, clock.now()), 60_000);
    timer.unref();
    stopHooks.push(async () => {
      clearInterval(timer);
      localWorkflows.stop();
      clock.stop();
      await Promise.all(pollers.map((p) => p.stop()));
    });
    const devApp = await ensureApplication(deps, {
      name: 'Local development', clientId: options.devClient?.clientId ?? 'local-client', clientSecret: options.devClient?.clientSecret ?? 'local-secret',
    });
    return {
      apiUrl: `http://127.0.0.1:${String(apiPort)}`, signingUrl: config.signingUrl, devApp, deps, clock, config,
      endpoints: { dynamodb: dynamodb.endpoint, s3: s3.endpoint, ses: ses.endpoint, sqs: sqs.endpoint },
      queueUrls: { jobs: jobsQueue.url, jobsDlq: jobsQueue.dlqUrl }, stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
