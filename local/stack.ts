/**
 * The whole service on one machine (decision 44), started in the order a deploy would give it: pick the ports, start the
 * engines and provision what the data stack holds, name the resources, wire every function from its own environment
 * exactly as Lambda does (functions.ts), start the background work, and only then serve.
 */
import { createServer, type Server } from 'node:http';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { S3Event } from 'aws-lambda';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { CERTIFICATE_FILE, KeyFileSigner } from '#shared/adapters/local/key-file-signer.ts';
import type { SealKeySpec } from '#shared/adapters/seal-key-spec.ts';
import { LocalWorkflows } from '#shared/adapters/local/local-workflows.ts';
import { SmsOutbox } from '#shared/adapters/local/sms-outbox.ts';
import { uuidV7Ids, type OffsetClock } from '#shared/adapters/system.ts';
import { ensureApplication } from '#shared/console/application-actions.ts';
import { JOBS_MAX_RECEIVES } from '#shared/notices/outbox.ts';
import type { ApiHandler } from '#shared/http/pipeline.ts';
import { toPem } from '#shared/pki/certificates.ts';
import { loadConfig, type Config } from '#shared/config.ts';
import { buildDeps, type ClientSettings, type Deps } from '#shared/deps.ts';
import { functionTimeoutSeconds } from '../infra/stacks/access.ts';
import type { CscFunctionSettings, FunctionSettings, ServiceResources } from '../infra/stacks/environment.ts';
import { DEFAULT_SETTINGS, sealChainParameter } from '../infra/stacks/settings.ts';
import { buildOpenApi, inMemoryApiDescription } from '../infra/openapi.ts';
import { docsFiles } from '../infra/docs-site.ts';
import { fallbackRoute, routes, workers, workflows } from '../infra/routes.ts';
import { AwsCallLog } from './aws-calls.ts';
import { invokeWithin } from './aws-limits.ts';
import { devHandlers } from './dev-endpoints.ts';
import { startCscMock, type RunningCsc } from './engines/csc.ts';
import { startDynamoDbLocal } from './engines/dynamodb.ts';
import { freePort } from './engines/free-port.ts';
import { inProcessAnswers } from './engines/in-process.ts';
import { startLocalPki } from './engines/local-ca.ts';
import { localS3ClientConfig, startS3 } from './engines/s3.ts';
import { startSes } from './engines/ses.ts';
import { startSqs } from './engines/sqs.ts';
import { refuseIfEnginesBarred, type RunningEngine } from './engines/types.ts';
import { functionDeps, handlerFactory, type LocalWiring } from './functions.ts';
import { lifecycleJob } from './lifecycle.ts';
import { pageHandlers } from './dev-pages.ts';
import { studioHandlers } from './studio.ts';
import { BUCKET, ensureBucket, ensureTable, JOBS_QUEUE, LOCAL_CREDENTIALS, LOCAL_REGION, localArn, localSecrets, TABLE, type LocalSecrets } from './provision.ts';
import { startPoller, type Poller, type SqsHandler } from './queue-poller.ts';
import { savedClock } from './saved-state.ts';
import { bindRoute, type BoundRoute } from './router.ts';
import { runScheduled, type Job } from './scheduler.ts';
import { apiListener } from './server.ts';
import { signingHostListener } from './signing-host.ts';
import { loadStateMachine } from './workflow-runner.ts';
import { ensureDevAdmin, signInDir, startSignIn, type LocalSignIn } from './sign-in.ts';

export interface LocalStackOptions {
  /** Persist everything under this directory (`npm start`): data, keys, the service clock, queued jobs; omitted: in memory, gone at stop (tests). */
  dataDir?: string;
  /** API port; 0 picks a free one. */
  port?: number;
  signingPort?: number;
  devClient?: { clientId: string; clientSecret: string };
  /** How long a received job stays invisible before redelivery (SQS visibility timeout). */
  queueVisibilitySeconds?: number;
  /** Each webhook attempt's limit; tests shorten the 10 s (decision 25). */
  webhookTimeoutMs?: number;
  /** Public addresses used in links, when not the local ports (a tunnel, a proxy). */
  baseUrl?: string;
  signingUrl?: string;
  mailFrom?: string;
  /** Where a copy of every sealed document goes (the sender), if anywhere. */
  senderCopyEmail?: string;
  /** Overrides of the request budgets (`RATE_LIMITS`, see shared/config.ts); tests add a plan with a small limit. */
  rateLimits?: Record<string, unknown>;
  /** Emails per second to pace mail to, as on AWS to SES's rate (default: none). */ sesSendRate?: number;
  /** Who holds the seal key: the local key file behind the in-process KMS (default), or a CSC v2 provider (SIGNER=csc). */
  signer?: 'kms' | 'csc';
  /** With `signer: 'csc'`: a real provider (its secrets from the environment); absent: the local CSC provider, credential `rsa` or `ec`. */
  csc?: { baseUrl: string; clientId: string; clientSecret: string; credentialId: string; pin?: string; otp?: string } | { credential: 'rsa' | 'ec' };
  /** The type of the seal key and the local CA's keys when they are made (SEAL_KEY_SPEC); keys that exist keep theirs. */
  sealKeySpec?: SealKeySpec;
  /** The lifetime of the local timestamp authority's certificates (default 825 days); clock tests shorten it. */
  tsaValidDays?: number;
  /** The local OpenID provider's port (OIDC_PORT; absent or 0: a free one) and the console's development admin. */
  oidcPort?: number; devAdmin?: { email: string; password: string };
}

export interface LocalStack {
  apiUrl: string;
  signingUrl: string;
  devApp: { appId: string; clientId: string; clientSecret: string };
  /** An operator's deps: every resource bound, calls not recorded. */
  deps: Deps;
  clock: OffsetClock;
  endpoints: { dynamodb: string; s3: string; ses: string; sqs: string };
  queueUrls: { jobs: string; jobsDlq: string };
  config: Config;
  /** What the functions are bound to, as their environment names it, and the settings they are given. */
  resources: ServiceResources;
  settings: FunctionSettings;
  /** Every AWS call each function made, one JSON line per distinct call (aws-calls.ts). */
  awsCallLog: string;
  /** The local CSC provider, when the seal goes through it. */
  csc: RunningCsc | undefined;
  /** The console's OpenID provider and its accounts; `devAdmin` signs in there. */
  signIn: LocalSignIn; devAdmin: { email: string; password: string };
  stop(): Promise<void>;
}

const REPO_ROOT = resolve(import.meta.dirname, '..');
/** The seal certificate chain parameter as a deploy names it for the local seal key (answered from the chain file). */
const LOCAL_SEAL_KEY_ID = 'local-seal-key';
const LOCAL_SEAL_CHAIN_PARAMETER = sealChainParameter(DEFAULT_SETTINGS.prefix, LOCAL_SEAL_KEY_ID);

/** Stop hooks, run last-added first. */
class Teardown {
  private readonly hooks: (() => Promise<unknown>)[] = [];
  add(hook: () => Promise<unknown>): void { this.hooks.unshift(hook); }
  async run(): Promise<void> { for (const hook of this.hooks.splice(0)) await hook(); }
}

/** Waits for engines started side by side; if one fails, the others are stopped with the rest. */
async function started<T extends readonly Promise<RunningEngine>[]>(teardown: Teardown, starting: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(starting);
  for (const result of settled) if (result.status === 'fulfilled') teardown.add(() => result.value.stop());
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return Promise.all(starting);
}

/** The local engines, each on a free port, and the table and bucket on them. Add an engine here. */
async function startEngines(options: LocalStackOptions, dataDir: string | undefined, scratch: string, clock: OffsetClock, teardown: Teardown) {
  const [dynamodb, s3, ses, sqs, pki] = await started(teardown, [
    startDynamoDbLocal(dataDir ? { dataDir: join(dataDir, 'dynamodb') } : {}),
    startS3({ dataDir: join(scratch, 's3') }),
    startSes({}),
    startSqs([{ name: JOBS_QUEUE, visibilityTimeoutSeconds: options.queueVisibilitySeconds ?? 30, maxReceiveCount: JOBS_MAX_RECEIVES }], dataDir ? { stateFile: join(dataDir, 'queues.json') } : {}),
    // The local certificate authority and RFC 3161 timestamp server: local seals are B-LTA. It stamps, and renews its
    // certificate, on the service clock.
    startLocalPki({
      dir: join(scratch, 'pki'), now: () => clock.now(),
      ...(options.sealKeySpec ? { keySpec: options.sealKeySpec } : {}), ...(options.tsaValidDays ? { tsaValidDays: options.tsaValidDays } : {}),
    }),
  ] as const);
  await Promise.all([ensureTable(dynamodb.endpoint), ensureBucket(s3.endpoint)]);
  return { dynamodb, s3, ses, sqs, pki };
}

type Engines = Awaited<ReturnType<typeof startEngines>>;

/** What each AWS client of a function points at: the engines, or (in-process services) nowhere it will reach. */
function clientSettings(engines: Engines): ClientSettings {
  const local = { region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS };
  return {
    dynamodb: { ...local, endpoint: engines.dynamodb.endpoint },
    s3: localS3ClientConfig(engines.s3.endpoint),
    ses: { ...local, endpoint: engines.ses.endpoint },
    sqs: { ...local, endpoint: engines.sqs.endpoint },
    sns: local, sfn: local, kms: local, secretsManager: local, cognito: local,
  };
}

/** The resources as the functions' environment names them: the engines' names, ARNs as AWS would write them. */
function localResources(engines: Engines, urls: { apiUrl: string; signingUrl: string }, certificatePem: string): ServiceResources {
  const jobs = engines.sqs.queues[JOBS_QUEUE];
  if (!jobs) throw new Error(`the ${JOBS_QUEUE} queue was not created`);
  const secret = (name: string) => localArn('secretsmanager', `secret:esign-local/${name}`);
  return {
    ...urls,
    tableName: TABLE, tableArn: localArn('dynamodb', `table/${TABLE}`),
    bucketName: BUCKET, bucketArn: `arn:aws:s3:::${BUCKET}`, encryptionKeyArn: localArn('kms', 'key/local-data-key'),
    jobsQueueUrl: jobs.url, jobsQueueArn: localArn('sqs', JOBS_QUEUE),
    sealStateMachineArn: localArn('states', 'stateMachine:seal-envelope'), webhookRetryStateMachineArn: localArn('states', 'stateMachine:webhook-retry'),
    sealKeyArn: localArn('kms', `key/${LOCAL_SEAL_KEY_ID}`), sealCertificatePem: certificatePem,
    jwtSecretArn: secret('JWT_SECRET'), linkSecretArn: secret('LINK_SECRET'), dataKeySecretArn: secret('DATA_KEY'), originVerifySecretArn: secret('ORIGIN_VERIFY_SECRET'),
  };
}

const secretValues = (resources: ServiceResources, secrets: LocalSecrets, provider: Map<string, string>) => new Map([
  [resources.jwtSecretArn, secrets.jwtSecret], [resources.linkSecretArn, secrets.linkSecret],
  [resources.dataKeySecretArn, secrets.dataKey], [resources.originVerifySecretArn, secrets.originVerifySecret], ...provider,
]);

/**
 * SIGNER=csc: the provider (a real one, or the local one started here) as the seal function is given it on AWS, its
 * secrets read by ARN from the in-process Secrets Manager.
 */
async function cscProvider(options: LocalStackOptions, dir: string, clock: OffsetClock, teardown: Teardown): Promise<{ settings: CscFunctionSettings | null; secrets: Map<string, string>; running: RunningCsc | undefined }> {
  if (options.signer !== 'csc') return { settings: null, secrets: new Map(), running: undefined };
  const arn = (name: string) => localArn('secretsmanager', `secret:esign-local/${name}`);
  const given = options.csc && 'baseUrl' in options.csc ? options.csc : undefined;
  // On the service clock, as the local timestamp authority is: its CRLs must not predate the seal's timestamp.
  const running = given ? undefined : await startCscMock({ dir, now: () => clock.now() });
  if (running) teardown.add(() => running.stop());
  const kind = options.csc && 'credential' in options.csc ? options.csc.credential : 'rsa';
  const provider = given ?? { baseUrl: running?.baseUrl ?? '', clientId: running?.clientId ?? '', clientSecret: running?.clientSecret ?? '', credentialId: running?.credentials[kind] ?? '', pin: running?.pin };
  const secrets = new Map([[arn('CSC_CLIENT_SECRET'), provider.clientSecret]]);
  if (provider.pin) secrets.set(arn('CSC_PIN'), provider.pin);
  if (given?.otp) secrets.set(arn('CSC_OTP'), given.otp);
  const settings: CscFunctionSettings = {
    baseUrl: provider.baseUrl, clientId: provider.clientId, credentialId: provider.credentialId, clientSecretArn: arn('CSC_CLIENT_SECRET'),
    pinArn: provider.pin ? arn('CSC_PIN') : null, otpArn: given?.otp ? arn('CSC_OTP') : null,
  };
  return { settings, secrets, running };
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((done, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => { done(); });
  });
}

const close = (server: Server) => new Promise<void>((done) => { server.close(() => { done(); }); server.closeAllConnections(); });

/** Resolves once `idle()` holds on two checks in a row (executions move between states in between), or after 15 s. */
async function quiet(idle: () => boolean): Promise<void> {
  const deadline = Date.now() + 15_000;
  let calm = 0;
  while (calm < 2 && Date.now() < deadline) {
    calm = idle() ? calm + 1 : 0;
    await new Promise((done) => setTimeout(done, 20));
  }
}

/** Starts the whole service on local engines: DynamoDB Local, s3rver, SES v2 local, fauxqs; the API and the signing host. */
export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  refuseIfEnginesBarred('the local stack');
  // Locally we run on the machine's Node (20 here); Lambda runs nodejs22.x, so the SDK's upgrade notice is noise.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const dataDir = options.dataDir ? resolve(options.dataDir) : undefined;
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const scratch = dataDir ?? (await mkdtemp(join(tmpdir(), 'esign-local-')));
  const teardown = new Teardown();
  if (!dataDir) teardown.add(() => rm(scratch, { recursive: true, force: true }));
  try {
    // 1. Ports and addresses.
    const ports = { api: options.port ?? 3000, signing: options.signingPort ?? 3001 };
    if (ports.api === 0) ports.api = await freePort();
    if (ports.signing === 0) ports.signing = await freePort();
    const apiUrl = `http://127.0.0.1:${String(ports.api)}`;
    const urls = { apiUrl: options.baseUrl ?? apiUrl, signingUrl: options.signingUrl ?? `http://127.0.0.1:${String(ports.signing)}` };

    // 2. The service clock, engines, and what the data stack holds.
    const clock = savedClock(dataDir);
    const engines = await startEngines(options, dataDir, scratch, clock, teardown);
    const secrets = await localSecrets(dataDir);
    const sealKeyDir = join(dataDir ?? scratch, 'signing');
    const sealKey = await KeyFileSigner.open(sealKeyDir, { certify: (key, chain) => engines.pki.sealChain(key, chain), ...(options.sealKeySpec ? { keySpec: options.sealKeySpec } : {}) });
    const resources = localResources(engines, urls, (await sealKey.certificateChain()).map((der) => toPem(der)).join(''));
    const csc = await cscProvider(options, join(dataDir ?? scratch, 'csc'), clock, teardown);
    const signIn = await startSignIn({ dir: signInDir(dataDir ?? scratch), port: options.oidcPort ?? 0, signingUrl: urls.signingUrl });
    teardown.add(() => signIn.oidc.stop());

    // 3. Every function wired from its own environment.
    const outbox = new SmsOutbox(() => clock.now(), () => uuidV7Ids.next());
    const localWorkflows = new LocalWorkflows();
    teardown.add(() => { localWorkflows.stop(); clock.stop(); return Promise.resolve(); });
    const clients = clientSettings(engines);
    const wiring: LocalWiring = {
      resources, clients, clock,
      apiDescription: inMemoryApiDescription(urls.apiUrl),
      settings: { senderEmail: options.mailFrom ?? 'no-reply@esign.local', smsSenderId: null, rateLimits: JSON.stringify(options.rateLimits ?? {}), sealCertificateParameter: LOCAL_SEAL_CHAIN_PARAMETER, csc: csc.settings, signIn: signIn.settings },
      environment: {
        LOCAL_MODE: '1', TSA_URL: engines.pki.tsaUrl, DOCUMENTS_ORIGIN: new URL(engines.s3.endpoint).origin,
        ...(options.webhookTimeoutMs ? { WEBHOOK_TIMEOUT_MS: String(options.webhookTimeoutMs) } : {}),
        ...(options.senderCopyEmail ? { SENDER_COPY_EMAIL: options.senderCopyEmail } : {}), ...(options.sesSendRate ? { LOCAL_SES_SEND_RATE: String(options.sesSendRate) } : {}),
      },
      answers: inProcessAnswers({
        secretsManager: { values: secretValues(resources, secrets, csc.secrets) },
        sns: { outbox },
        kms: { keyArn: resources.sealKeyArn, signer: sealKey },
        // `seal-cert import` writes the chain file; the seal reads it here as it reads SSM on AWS, so an import takes effect.
        ssm: { parameter: LOCAL_SEAL_CHAIN_PARAMETER, chainPem: () => readFile(join(sealKeyDir, CERTIFICATE_FILE), 'utf8') },
        sfn: { workflows: localWorkflows, names: new Map([[resources.sealStateMachineArn, 'seal-envelope'], [resources.webhookRetryStateMachineArn, 'webhook-retry']]) },
        cognito: { userPoolId: signIn.settings.userPoolId, accounts: signIn.accounts },
      }),
      calls: new AwsCallLog(join(scratch, 'aws-calls.jsonl')),
    };
    const deps = await functionDeps(wiring);
    const depsOf = (handler: string) => deps.get(handler) ?? (() => { throw new Error(`${handler} is not in the manifest`); })();
    const bound: BoundRoute[] = routes.map((def) => bindRoute(def, (handlerFactory(def.handler) as (deps: Deps) => ApiHandler)(depsOf(def.handler)), functionTimeoutSeconds(def.handler)));
    const noRoute = { handler: (handlerFactory(fallbackRoute.handler) as (deps: Deps) => ApiHandler)(depsOf(fallbackRoute.handler)), timeoutSeconds: functionTimeoutSeconds(fallbackRoute.handler) };

    // An operator's view: every resource bound, calls not recorded (what AWS itself does, as the lifecycle rules).
    const config = loadConfig({
      TABLE_NAME: resources.tableName, BUCKET_NAME: resources.bucketName, JOBS_QUEUE_URL: resources.jobsQueueUrl, BASE_URL: urls.apiUrl, SIGNING_URL: urls.signingUrl,
      JWT_SECRET: secrets.jwtSecret, LINK_SECRET: secrets.linkSecret, DATA_KEY: secrets.dataKey, LOCAL_MODE: '1',
    });
    const operator = buildDeps(config, { clients }, { clock });

    // 4. Background work: workflows, queue consumers, schedules.
    const busy = { tasks: 0 };
    const hooks = {
      now: () => clock.now(), until: (iso: string) => clock.until(iso), busy: (delta: 1 | -1) => { busy.tasks += delta; },
      invoke: <T>(handler: string, work: () => Promise<T>) => invokeWithin(handler, functionTimeoutSeconds(handler), work),
    };
    for (const def of workflows) localWorkflows.useRunner(def.name, await loadStateMachine(REPO_ROOT, def, depsOf, hooks));
    const pollers: Poller[] = [];
    const scheduled: Job[] = [];
    const lifecycleS3 = new S3Client(clients.s3 ?? {});
    for (const def of workers) {
      const invoke = handlerFactory(def.handler)(depsOf(def.handler)) as (event: never) => Promise<unknown>;
      // Held to the function's Lambda timeout: past it the batch, the run or the task fails as on AWS.
      const handler = (event: never) => invokeWithin(def.handler, functionTimeoutSeconds(def.handler), () => invoke(event));
      if (def.trigger.kind === 'queue') pollers.push(startPoller(new SQSClient(clients.sqs ?? {}), resources.jobsQueueUrl, handler as SqsHandler));
      else if (def.trigger.kind === 'objectRemoved') scheduled.push(lifecycleJob(lifecycleS3, resources.bucketName, operator.envelopes, handler as (e: S3Event) => Promise<unknown>));
      else scheduled.push(async () => { await (handler as () => Promise<unknown>)(); });
    }
    teardown.add(() => Promise.all(pollers.map((p) => p.stop())));
    let tick: Promise<void> = Promise.resolve();
    const timer = setInterval(() => { tick = runScheduled(scheduled, clock.now()); }, 60_000);
    timer.unref();
    // A run already under way finishes before the engines it uses stop.
    teardown.add(() => { clearInterval(timer); return tick; });
    const drain = async () => {
      // Background work settles in rounds: a job may start a workflow that queues another job.
      for (let round = 0; round < 3; round++) {
        await Promise.all(pollers.map((p) => p.drain(() => engines.sqs.depth(JOBS_QUEUE))));
        await quiet(() => busy.tasks === 0);
      }
    };

    // 5. The dev application.
    const devApp = await ensureApplication(operator, { name: 'Local development', clientId: options.devClient?.clientId ?? 'local-client', clientSecret: options.devClient?.clientSecret ?? 'local-secret' });
    const devAdmin = await ensureDevAdmin(operator, signIn, devApp.appId, options.devAdmin);

    // 6. Serve.
    const dev = {
      ...devHandlers({ deps: operator, clock, sms: outbox, ses: engines.ses, jobs: scheduled, drain, pki: engines.pki, csc: csc.running }),
      ...pageHandlers({ routes: bound.length, signingUrl: urls.signingUrl }), ...studioHandlers({ apiUrl, client: devApp }),
    };
    const api = createServer((req, res) => void apiListener(() => bound, dev, () => noRoute)(req, res));
    const docs = { ...docsFiles('openapi.json'), 'openapi.json': { type: 'application/json', body: Buffer.from(JSON.stringify(buildOpenApi({ serverUrl: urls.apiUrl }))) } };
    const signing = createServer((req, res) => void signingHostListener(() => bound, join(REPO_ROOT, 'web', 'dist'), () => noRoute, engines.s3.endpoint, docs, [new URL(signIn.settings.issuer).origin])(req, res));
    for (const server of [api, signing]) teardown.add(() => close(server));
    // The API port last: a script that waits for it finds every route bound and the signing host listening.
    await listen(signing, ports.signing);
    await listen(api, ports.api);
    return {
      apiUrl, signingUrl: urls.signingUrl, devApp, deps: operator, clock, config, resources, settings: wiring.settings, awsCallLog: wiring.calls.file, csc: csc.running, signIn, devAdmin,
      endpoints: { dynamodb: engines.dynamodb.endpoint, s3: engines.s3.endpoint, ses: engines.ses.endpoint, sqs: engines.sqs.endpoint },
      queueUrls: { jobs: resources.jobsQueueUrl, jobsDlq: engines.sqs.queues[JOBS_QUEUE]?.dlqUrl ?? '' },
      stop: () => teardown.run(),
    };
  } catch (error) {
    await teardown.run();
    throw error;
  }
}
