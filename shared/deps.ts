/**
 * A function's dependencies, built from its own environment the way its Lambda builds them: the secrets its
 * `<NAME>_ARN` variables name are read, the configuration is checked, and every port is made lazily. A port's
 * adapter module, and the AWS SDK client under it, is imported and built on the port's first call, so a function
 * loads only the clients it uses (the SDK is bundled into each function: infra/constructs/bundling.ts).
 *
 * - `productionDeps()`: the deployed wiring, once per container, from `process.env` (shared/http/lambda.ts).
 * - `depsFromEnvironment(env, aws, overrides)`: the same for any environment; the local runtime builds each function's
 *   deps with it, from the environment CDK would give that function, its clients pointed at the local engines.
 * - `buildDeps(config, aws, overrides)`: from a checked configuration (tests).
 */
import type { DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import type { KMSClientConfig } from '@aws-sdk/client-kms';
import type { S3ClientConfig } from '@aws-sdk/client-s3';
import type { SecretsManagerClientConfig } from '@aws-sdk/client-secrets-manager';
import type { SESv2ClientConfig } from '@aws-sdk/client-sesv2';
import type { SFNClientConfig } from '@aws-sdk/client-sfn';
import type { SNSClientConfig } from '@aws-sdk/client-sns';
import type { SQSClientConfig } from '@aws-sdk/client-sqs';
import type { SSMClientConfig } from '@aws-sdk/client-ssm';
import type { CognitoIdentityProviderClientConfig } from '@aws-sdk/client-cognito-identity-provider';
import type { MetadataBearer, MiddlewareStack } from '@smithy/types';
import { secretsToRead } from '#shared/adapters/aws/secret-names.ts';
import { algorithmOfCertificate, chainOfPem } from '#shared/adapters/aws/seal-certificate.ts';
import { cachedOnClock } from '#shared/adapters/seal-chain-cache.ts';
import type { TableAdapters } from '#shared/adapters/aws/dynamo-table-adapters.ts';
import type { SealEvidence } from '#shared/sealing/seal.ts';
import { AesSecretBox } from '#shared/adapters/local/aes-secret-box.ts';
import { emfMetrics, MemoryMetrics } from '#shared/adapters/emf-metrics.ts';
import { powertoolsLogger } from '#shared/adapters/powertools-logger.ts';
import { bundledApiDescription, systemClock, uuidV7Ids } from '#shared/adapters/system.ts';
import type { ApplicationRepository, BulkSendRepository, ContactRepository, EnvelopeRepository, TeamRepository, TemplateRepository, TenantRepository, UsageRepository, WebhookRepository } from '#shared/ports/repositories.ts';
import type { ApiDescription, IdentityAdmin, BlobStore, Metrics, RevocationSource, TimestampAuthority, Clock, DocumentSigner, Ids, JobQueue, Logger, Mailer, SealChain, SecretBox, SmsSender, WebhookSender, Workflows } from '#shared/ports/services.ts';
import type { IdempotencyStore, RateLimiter } from '#shared/ports/traffic.ts';
import { loadConfig, type Config, type CscSignerConfig } from './config.ts';

/** Everything a function may need; each function takes the subset it uses. */
export interface Deps {
  config: Config;
  clock: Clock;
  ids: Ids;
  envelopes: EnvelopeRepository;
  tenants: TenantRepository;
  applications: ApplicationRepository;
  blobs: BlobStore;
  mailer: Mailer;
  sms: SmsSender;
  /** The console's identity provider (the Cognito user pool), for inviting and removing users. */
  identities: IdentityAdmin;
  secrets: SecretBox;
  jobs: JobQueue;
  workflows: Workflows;
  webhooks: WebhookRepository;
  documentSigner: DocumentSigner;
  /** The seal's certificate chain, read without the key (empty when a trust service provider holds the key). */
  sealChain: SealChain;
  /** The timestamp authority and revocation source of seals above PAdES B-B (from TSA_URL, PADES_LEVEL). */
  sealEvidence: SealEvidence;
  contacts: ContactRepository;
  usage: UsageRepository;
  templates: TemplateRepository;
  bulkSends: BulkSendRepository;
  /** The console's users and the application's further API clients. */
  team: TeamRepository;
  rateLimiter: RateLimiter;
  idempotency: IdempotencyStore;
  logger: Logger;
  metrics: Metrics;
  webhookSender: WebhookSender;
  apiDescription: ApiDescription;
}

/** Client settings per AWS service (endpoint, region, credentials); unset: the SDK's defaults, as on Lambda. */
export interface ClientSettings {
  dynamodb?: DynamoDBClientConfig;
  s3?: S3ClientConfig;
  ses?: SESv2ClientConfig;
  sqs?: SQSClientConfig;
  sns?: SNSClientConfig;
  sfn?: SFNClientConfig;
  kms?: KMSClientConfig;
  secretsManager?: SecretsManagerClientConfig;
  ssm?: SSMClientConfig;
  cognito?: CognitoIdentityProviderClientConfig;
}

export type AwsService = keyof ClientSettings;

/** Any client's middleware stack, as a hook sees it. */
export type ClientStack = MiddlewareStack<object, MetadataBearer>;

/** Where a function's AWS clients point and what they carry. */
export interface AwsSettings {
  clients?: ClientSettings;
  /** Called with each client's middleware stack as the client is built (the local runtime records calls there). */
  customize?: (service: AwsService, stack: ClientStack) => void;
}

interface Client { middlewareStack: unknown }

/** Builds one client of `service` with its settings, and lets `customize` see it. */
function clientOf<C extends Client>(aws: AwsSettings, service: AwsService, create: (config: object) => C): C {
  const client = create(aws.clients?.[service] ?? {});
  aws.customize?.(service, client.middlewareStack as ClientStack);
  return client;
}

/** Memoizes an async load; a failed load is not kept, so the next call tries again. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => (loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  }));
}

/** Every method of a port, named once so that the lazy stand-in has them as its own (spreading a port keeps them). */
type MethodsOf<T> = { readonly [K in keyof T]-?: T[K] extends (...args: never[]) => Promise<unknown> ? true : never };

/** A port whose adapter is loaded on the first call of any of its methods (each returns a promise, so it can wait). */
export function lazyPort<T>(load: () => Promise<T>, methods: MethodsOf<T>): T {
  const adapter = once(load);
  const port: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const name of Object.keys(methods)) {
    port[name] = async (...args) => {
      const loaded = (await adapter()) as Record<string, (...a: unknown[]) => Promise<unknown>>;
      const method = loaded[name];
      if (!method) throw new Error(`the adapter has no method ${name}`);
      return method.apply(loaded, args);
    };
  }
  return port as T;
}

const ENVELOPE_METHODS: MethodsOf<EnvelopeRepository> = {
  get: true, getWithAudit: true, find: true, findWhole: true, findSealed: true, submissions: true, auditLog: true, commit: true, list: true, events: true,
  dueForExpiry: true, dueForReminder: true, dueForSealCheck: true, retainedUntil: true, retainedAfter: true, pendingOutbox: true, staleOutbox: true, saveOutbox: true, removeOutbox: true,
  stageBlobs: true, abandonedStages: true, removeStage: true,
};
const WEBHOOK_METHODS: MethodsOf<WebhookRepository> = {
  list: true, subscriptions: true, get: true, put: true, replaceSecret: true, delete: true, createDelivery: true, saveDelivery: true, getDelivery: true, deliveries: true,
};

/** The table's ports, over one client loaded with the first of them that is called. */
function tablePorts(config: Config, aws: AwsSettings) {
  const table = once(async (): Promise<TableAdapters> => {
    const { tableAdapters } = await import('#shared/adapters/aws/dynamo-table-adapters.ts');
    return tableAdapters(aws.clients?.dynamodb ?? {}, config.tableName, (client) => aws.customize?.('dynamodb', client.middlewareStack));
  });
  const port = <K extends keyof TableAdapters>(name: K, methods: MethodsOf<TableAdapters[K]>) =>
    lazyPort(async () => (await table())[name], methods);
  return {
    envelopes: port('envelopes', ENVELOPE_METHODS),
    tenants: port('tenants', { get: true, forEnvelope: true, put: true, branding: true, saveBranding: true, logo: true, saveLogo: true }),
    applications: port('applications', { get: true, getByClientId: true, create: true, updateSecret: true, saveSettings: true }),
    webhooks: port('webhooks', WEBHOOK_METHODS),
    contacts: port('contacts', { list: true, upsert: true, delete: true }),
    usage: port('usage', { envelopesSent: true }),
    rateLimiter: port('rateLimiter', { hit: true }),
    idempotency: port('idempotency', { claim: true, complete: true, release: true }),
    templates: port('templates', { get: true, create: true, save: true, delete: true, list: true }),
    bulkSends: port('bulkSends', { create: true, get: true, chunk: true, results: true, recordResult: true, dueForCheck: true, saveCheck: true }),
    team: port('team', { users: true, userBySubject: true, addUser: true, saveUser: true, removeUser: true, clients: true, client: true, addClient: true, removeClient: true }),
  };
}

/** The seal chain's PEM: SSM (SEAL_CERTIFICATE_PARAMETER) read again once a minute old, else the one issued at deploy. */
function sealChainPem(config: Config, aws: AwsSettings, clock: Clock): () => Promise<string> {
  const parameter = config.sealCertificateParameter;
  const store = once(async () => {
    const [{ SsmCertificateStore }, { SSMClient }] = await Promise.all([import('#shared/adapters/aws/ssm-certificate-store.ts'), import('@aws-sdk/client-ssm')]);
    return new SsmCertificateStore(clientOf(aws, 'ssm', (c) => new SSMClient(c)), parameter ?? '');
  });
  return parameter ? cachedOnClock(clock, async () => (await store()).read().catch((error: unknown) => {
    // Nothing imported yet: the certificate issued at deploy.
    if ((error as { name?: string }).name === 'ParameterNotFound' && config.sealCertificateChainPem) return config.sealCertificateChainPem;
    throw error;
  })) : () => Promise.resolve(config.sealCertificateChainPem);
}

/**
 * The seal key: its chain is the one `npm run seal-cert -- import` stored in SSM (SEAL_CERTIFICATE_PARAMETER), read
 * again once a minute old on the service clock so that an import takes effect without a restart; else (nothing
 * imported) SEAL_CERTIFICATE_CHAIN_PEM, the certificate issued at deploy. Its algorithm comes from that certificate;
 * only signing needs KMS. A seal asks for the chain before the algorithm, so a chain read from SSM is in hand by then.
 */
function kmsSigner(config: Config, aws: AwsSettings, chainPem: () => Promise<string>): DocumentSigner {
  const parameter = config.sealCertificateParameter;
  const signer = lazyPort<Required<Pick<DocumentSigner, 'signDigest' | 'signingPublicKey'>>>(async () => {
    const { KmsDocumentSigner, kmsClient } = await import('#shared/adapters/aws/kms-signer.ts');
    return new KmsDocumentSigner(clientOf(aws, 'kms', kmsClient), config.sealKeyId, await chainPem());
  }, { signDigest: true, signingPublicKey: true });
  let current: { pem: string; chain: Uint8Array[]; algorithm: DocumentSigner['algorithm'] } | undefined;
  return {
    get algorithm() {
      if (current) return current.algorithm;
      if (parameter) throw new Error('The seal key is not loaded yet: ask for its certificate chain first');
      return algorithmOfCertificate(config.sealCertificateChainPem);
    },
    certificateChain: async () => {
      const pem = await chainPem();
      if (current?.pem !== pem) {
        const chain = chainOfPem(pem);
        if (!chain[0]) throw new Error('The seal certificate chain holds no certificate');
        current = { pem, chain, algorithm: algorithmOfCertificate(chain[0]) };
      }
      return current.chain;
    },
    signDigest: (digest) => signer.signDigest(digest),
    signingPublicKey: () => signer.signingPublicKey(),
  };
}

/**
 * The seal key at a trust service provider (CSC API v2): the adapter is loaded with the first call. Its algorithm is
 * the credential's, known once the chain is read, which a seal asks for first.
 */
function cscSigner(settings: CscSignerConfig, clock: Clock): DocumentSigner {
  let loaded: DocumentSigner | undefined;
  const load = once(async () => {
    const { CscDocumentSigner } = await import('#shared/adapters/http/csc-signer.ts');
    return (loaded = new CscDocumentSigner(settings, { clock }));
  });
  return {
    get algorithm() {
      if (!loaded) throw new Error('The CSC credential is not loaded yet: ask for its certificate chain first');
      return loaded.algorithm;
    },
    certificateChain: async () => (await load()).certificateChain(),
    signDigest: async (digest) => (await load()).signDigest(digest),
  };
}

/** What seals above PAdES B-B reach out to: the timestamp authority (TSA_URL), and revocation data for B-LT and up. */
function sealEvidence(config: Config): SealEvidence {
  const { padesLevel: level, tsaUrl } = config;
  if (level === 'B-B' || !tsaUrl) return { level: 'B-B' };
  return {
    level,
    timestamps: lazyPort<TimestampAuthority>(async () => {
      const { HttpTimestampAuthority } = await import('#shared/adapters/http/timestamp-authority.ts');
      return new HttpTimestampAuthority(tsaUrl, { authHeader: config.tsaAuthHeader });
    }, { timestamp: true }),
    ...(level === 'B-LT' || level === 'B-LTA'
      ? {
        revocation: lazyPort<RevocationSource>(async () => new (await import('#shared/adapters/http/revocation-source.ts')).HttpRevocationSource(), { revocation: true }),
        revocationGraceSeconds: config.revocationGraceSeconds,
      }
      : {}),
  };
}

/** Every port of a function over AWS, each built on first use. `overrides` replace ports (tests, the local clock). */
export function buildDeps(config: Config, aws: AwsSettings = {}, overrides: Partial<Deps> = {}): Deps {
  const clock = overrides.clock ?? systemClock;
  const logger = overrides.logger ?? powertoolsLogger();
  const chainPem = sealChainPem(config, aws, clock);
  return {
    config,
    clock,
    ids: uuidV7Ids,
    ...tablePorts(config, aws),
    blobs: lazyPort(async () => {
      const { S3BlobStore, s3Client } = await import('#shared/adapters/aws/s3-blob-store.ts');
      return new S3BlobStore(clientOf(aws, 's3', s3Client), config.bucketName, clock);
    }, { put: true, get: true, delete: true, retain: true, read: true, presignPost: true, presignGet: true }),
    mailer: lazyPort(async () => {
      const { SesMailer, sesClient } = await import('#shared/adapters/aws/ses-mailer.ts');
      // Paced to the account's SES rate on AWS; the local emulator has none, unless given one (one process sends for all).
      const pacing = !config.local ? { concurrency: config.jobsMaxConcurrency, clock, logger }
        : config.localSesSendRate ? { concurrency: 1, sendsPerSecond: config.localSesSendRate, clock, logger } : undefined;
      return new SesMailer(clientOf(aws, 'ses', sesClient), config.mailFrom, pacing);
    }, { send: true }),
    sms: lazyPort(async () => {
      const { SnsSms, snsClient } = await import('#shared/adapters/aws/sns-sms.ts');
      return new SnsSms(clientOf(aws, 'sns', snsClient), config.smsSenderId ?? undefined);
    }, { send: true }),
    identities: lazyPort(async () => {
      const { CognitoIdentityAdmin, cognitoClient } = await import('#shared/adapters/aws/cognito-identity-admin.ts');
      return new CognitoIdentityAdmin(clientOf(aws, 'cognito', cognitoClient), config.signIn?.userPoolId ?? '');
    }, { createUser: true, deleteUser: true }),
    secrets: new AesSecretBox(config.dataKey),
    jobs: lazyPort(async () => {
      const { SqsJobQueue, sqsClient } = await import('#shared/adapters/aws/sqs-job-queue.ts');
      return new SqsJobQueue(clientOf(aws, 'sqs', sqsClient), config.jobsQueueUrl);
    }, { send: true }),
    workflows: lazyPort(async () => {
      const { SfnWorkflows, sfnClient } = await import('#shared/adapters/aws/sfn-workflows.ts');
      return new SfnWorkflows(clientOf(aws, 'sfn', sfnClient), { seal: config.sealStateMachineArn, webhookRetry: config.webhookRetryStateMachineArn });
    }, { startSealing: true, startWebhookRetry: true }),
    documentSigner: config.signer.kind === 'csc' ? cscSigner(config.signer, clock) : kmsSigner(config, aws, chainPem),
    // A provider's chain is read with its credential, which only the seal holds: it publishes its roots itself.
    sealChain: { certificateChain: async () => (config.signer.kind === 'csc' ? [] : chainOfPem(await chainPem())) },
    sealEvidence: sealEvidence(config),
    logger,
    // EMF lines on Lambda; kept in memory locally, where no CloudWatch reads them.
    metrics: config.local ? new MemoryMetrics() : emfMetrics(logger),
    // Loaded on the first webhook registered or sent, with the address checks (ipaddr.js) under it.
    webhookSender: lazyPort(async () => new (await import('#shared/adapters/http/webhook-sender.ts')).HttpWebhookSender({ timeoutMs: config.webhookTimeoutMs, allowLoopback: config.local }), { checkTarget: true, send: true }),
    // The build writes it beside the bundle of a function whose access names `apiDescription` (infra/stacks/functions.ts).
    apiDescription: bundledApiDescription(new URL('./openapi.json', import.meta.url)),
    ...overrides,
  };
}

/** Reads the secrets the environment names by ARN (only then is the Secrets Manager client loaded). */
async function withSecrets(env: Record<string, string | undefined>, aws: AwsSettings): Promise<Record<string, string | undefined>> {
  if (secretsToRead(env).length === 0) return env;
  const { resolveSecrets, secretsManagerClient } = await import('#shared/adapters/aws/secrets.ts');
  return resolveSecrets(env, clientOf(aws, 'secretsManager', secretsManagerClient));
}

/** A function's deps from its environment, as its Lambda builds them at cold start. */
export async function depsFromEnvironment(env: Record<string, string | undefined>, aws: AwsSettings = {}, overrides: Partial<Deps> = {}): Promise<Deps> {
  return buildDeps(loadConfig(await withSecrets(env, aws)), aws, overrides);
}

let production: Promise<Deps> | undefined;

/**
 * The deployed wiring, built once per container on first use, after the secrets are read. A failed attempt is not
 * kept: the next invocation tries again rather than the container staying broken.
 */
export function productionDeps(): Promise<Deps> {
  production ??= depsFromEnvironment(process.env).catch((error: unknown) => {
    production = undefined;
    throw error;
  });
  return production;
}
