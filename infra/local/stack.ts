import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ResourceNotFoundException, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { createTableInput, TTL_ATTRIBUTE } from '#adapters/aws/table-schema.ts';
import { SmsOutbox } from '#adapters/local/sms-outbox.ts';
import { OffsetClock, uuidV7Ids } from '#adapters/system.ts';
import { ensureApplication } from '#domain/use-cases/applications.ts';
import type { ApiHandler } from '#http/route.ts';
import type { Config } from '#shared/config.ts';
import { buildDeps, type ClientSettings, type Deps } from '#shared/deps.ts';
import { routes } from '../routes.ts';
import { devHandlers, type Job } from './dev-endpoints.ts';
import { startDynamoDbLocal } from './engines/dynamodb.ts';
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
}

export interface LocalStack {
  apiUrl: string;
  signingUrl: string;
  devApp: { appId: string; clientId: string; clientSecret: string };
  deps: Deps;
  clock: OffsetClock;
  endpoints: { dynamodb: string; s3: string; ses: string };
  config: Config;
  stop(): Promise<void>;
}

export const TABLE = 'esign-local';
const BUCKET = 'esign-local-documents';
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

export async function ensureTable(endpoint: string): Promise<void> {
  const db = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });
  try {
    await db.send(new DescribeTableCommand({ TableName: TABLE }));
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

async function loadRoutes(deps: Deps): Promise<BoundRoute[]> {
  return Promise.all(routes.map(async (def) => {
    const module = (await import(pathToFileURL(join(REPO_ROOT, def.handler)).href)) as { createHandler: (deps: Deps) => ApiHandler };
    return bindRoute(def, module.createHandler(deps));
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
  const stop = async () => {
    await Promise.all(servers.map(close));
    await Promise.all(engines.map((e) => e.stop()));
    if (!dataDir) await rm(scratch, { recursive: true, force: true });
  };
  try {
    const [dynamodb, s3, ses] = await Promise.all([
      startDynamoDbLocal(dataDir ? { dataDir: join(dataDir, 'dynamodb') } : {}),
      startS3({ dataDir: join(scratch, 's3') }),
      startSes({}),
    ]);
    engines.push(dynamodb, s3, ses);
    await Promise.all([ensureTable(dynamodb.endpoint), ensureBucket(s3.endpoint)]);

    let bound: BoundRoute[] = [];
    const jobs: Job[] = [];
    const clock = new OffsetClock();
    const sms = new SmsOutbox(() => clock.now(), () => uuidV7Ids.next());
    const holder: { deps?: Deps } = {};
    const api = createServer((req, res) => void apiListener(() => bound, devHandlers({ holder, clock, sms, ses, jobs }))(req, res));
    const signing = createServer((req, res) => void signingHostListener(() => bound, join(REPO_ROOT, 'web', 'dist'))(req, res));
    servers.push(api, signing);
    const apiPort = await listen(api, options.port ?? 3000);
    const signingPort = await listen(signing, options.signingPort ?? 3001);

    const secrets = await localSecrets(dataDir);
    const config: Config = {
      tableName: TABLE, bucketName: BUCKET,
      baseUrl: process.env.BASE_URL ?? `http://127.0.0.1:${String(apiPort)}`,
      signingUrl: process.env.SIGNING_URL ?? `http://127.0.0.1:${String(signingPort)}`,
      ...secrets, mailFrom: process.env.MAIL_FROM ?? 'no-reply@esign.local', local: true,
    };
    const clients: ClientSettings = {
      dynamodb: { endpoint: dynamodb.endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS },
      s3: localS3ClientConfig(s3.endpoint),
      ses: { endpoint: ses.endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS },
    };
    const deps = buildDeps(config, clients, { clock, sms });
    holder.deps = deps;
    bound = await loadRoutes(deps);
    const devApp = await ensureApplication(deps, {
      name: 'Local development', clientId: options.devClient?.clientId ?? 'local-client', clientSecret: options.devClient?.clientSecret ?? 'local-secret',
    });
    return {
      apiUrl: `http://127.0.0.1:${String(apiPort)}`, signingUrl: config.signingUrl, devApp, deps, clock, config,
      endpoints: { dynamodb: dynamodb.endpoint, s3: s3.endpoint, ses: ses.endpoint }, stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
