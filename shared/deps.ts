import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { SESv2Client, type SESv2ClientConfig } from '@aws-sdk/client-sesv2';
import { KMSClient } from '@aws-sdk/client-kms';
import { SFNClient } from '@aws-sdk/client-sfn';
import { SNSClient } from '@aws-sdk/client-sns';
import { SSMClient } from '@aws-sdk/client-ssm';
import { SQSClient, type SQSClientConfig } from '@aws-sdk/client-sqs';
import type { DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { documentClient } from '#adapters/aws/dynamo.ts';
import { DynamoApplicationRepository } from '#adapters/aws/dynamo-application-repository.ts';
import { DynamoEnvelopeRepository } from '#adapters/aws/dynamo-envelope-repository.ts';
import { DynamoTenantRepository } from '#adapters/aws/dynamo-tenant-repository.ts';
import { S3BlobStore } from '#adapters/aws/s3-blob-store.ts';
import { KmsDocumentSigner } from '#adapters/aws/kms-signer.ts';
import { SsmCertificateStore } from '#adapters/aws/ssm-certificate-store.ts';
import { HttpRevocationSource } from '#adapters/http/revocation-source.ts';
import { HttpTimestampAuthority } from '#adapters/http/timestamp-authority.ts';
import type { SealEvidence } from '#pdf/seal.ts';
import { SesMailer } from '#adapters/aws/ses-mailer.ts';
import { SfnWorkflows } from '#adapters/aws/sfn-workflows.ts';
import { SnsSms } from '#adapters/aws/sns-sms.ts';
import { resolveSecrets } from '#adapters/aws/secrets.ts';
import { SqsJobQueue } from '#adapters/aws/sqs-job-queue.ts';
import { AesSecretBox } from '#adapters/local/aes-secret-box.ts';
import { systemClock, uuidV7Ids } from '#adapters/system.ts';
import type { ApplicationRepository, EnvelopeRepository, TenantRepository, WebhookRepository } from '#ports/repositories.ts';
import { DynamoWebhookRepository } from '#adapters/aws/dynamo-webhook-repository.ts';
import { DynamoContactRepository } from '#adapters/aws/dynamo-contact-repository.ts';
import { DynamoIdempotencyStore } from '#adapters/aws/dynamo-idempotency-store.ts';
import { DynamoRateLimiter } from '#adapters/aws/dynamo-rate-limiter.ts';
import { DynamoUsageRepository } from '#adapters/aws/dynamo-usage-repository.ts';
import type { ContactRepository, UsageRepository } from '#ports/repositories.ts';
import type { IdempotencyStore, RateLimiter } from '#ports/traffic.ts';
import type { BlobStore, Clock, DocumentSigner, Ids, JobQueue, Mailer, SecretBox, SmsSender, Workflows } from '#ports/services.ts';
import { loadConfig, type Config } from './config.ts';

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
  secrets: SecretBox;
  jobs: JobQueue;
  workflows: Workflows;
  webhooks: WebhookRepository;
  documentSigner: DocumentSigner;
  /** The timestamp authority and revocation source of seals above PAdES B-B (from TSA_URL, PADES_LEVEL). */
  sealEvidence: SealEvidence;
  contacts: ContactRepository;
  usage: UsageRepository;
  rateLimiter: RateLimiter;
  idempotency: IdempotencyStore;
}

/** Client settings per AWS service; locally they point the same adapters at the local engines. */
export interface ClientSettings {
  dynamodb?: DynamoDBClientConfig;
  s3?: S3ClientConfig;
  ses?: SESv2ClientConfig;
  sqs?: SQSClientConfig;
}

export function buildDeps(config: Config, clients: ClientSettings = {}, overrides: Partial<Deps> = {}): Deps {
  const db = documentClient(clients.dynamodb);
  const clock = overrides.clock ?? systemClock;
  return {
    config,
    clock,
    ids: uuidV7Ids,
    envelopes: new DynamoEnvelopeRepository(db, config.tableName),
    tenants: new DynamoTenantRepository(db, config.tableName),
    applications: new DynamoApplicationRepository(db, config.tableName),
    blobs: new S3BlobStore(new S3Client(clients.s3 ?? {}), config.bucketName, clock),
    mailer: new SesMailer(new SESv2Client(clients.ses ?? {}), config.mailFrom),
    sms: new SnsSms(new SNSClient({}), process.env.SMS_SENDER_ID),
    secrets: new AesSecretBox(config.dataKey),
    jobs: new SqsJobQueue(new SQSClient(clients.sqs ?? {}), config.jobsQueueUrl),
    workflows: new SfnWorkflows(new SFNClient({}), { seal: config.sealStateMachineArn, webhookRetry: config.webhookRetryStateMachineArn }),
    webhooks: new DynamoWebhookRepository(db, config.tableName),
    documentSigner: lazySigner(async () => new KmsDocumentSigner(new KMSClient({}), config.sealKeyId, await sealChainPem(config))),
    sealEvidence: sealEvidence(config),
    contacts: new DynamoContactRepository(db, config.tableName),
    usage: new DynamoUsageRepository(db, config.tableName),
    rateLimiter: new DynamoRateLimiter(db, config.tableName),
    idempotency: new DynamoIdempotencyStore(db, config.tableName),
    ...overrides,
  };
}

/**
 * Built on first use: only the sealing function needs the key and its certificate configured. The chain is read
 * by certificateChain(), which every signature asks for before it needs the algorithm.
 */
function lazySigner(create: () => Promise<DocumentSigner>): DocumentSigner {
  let signer: Promise<DocumentSigner> | undefined;
  let ready: DocumentSigner | undefined;
  const get = () => (signer ??= create().then((made) => (ready = made)).catch((error: unknown) => { signer = undefined; throw error; }));
  return {
    get algorithm() {
      if (!ready) throw new Error('The seal key is not loaded yet: ask for its certificate chain first');
      return ready.algorithm;
    },
    certificateChain: async () => (await get()).certificateChain(),
    signDigest: async (digest) => (await get()).signDigest(digest),
  };
}

/** The chain `npm run seal-cert -- import` stored in SSM (SEAL_CERTIFICATE_PARAMETER), else SEAL_CERTIFICATE_CHAIN_PEM. */
function sealChainPem(config: Config): Promise<string> {
  if (!config.sealCertificateParameter) return Promise.resolve(config.sealCertificateChainPem);
  return new SsmCertificateStore(new SSMClient({}), config.sealCertificateParameter).read();
}

function sealEvidence(config: Config): SealEvidence {
  const level = config.padesLevel;
  if (level === 'B-B' || !config.tsaUrl) return { level: 'B-B' };
  return {
    level,
    timestamps: new HttpTimestampAuthority(config.tsaUrl, { authHeader: config.tsaAuthHeader }),
    ...(level === 'B-LT' || level === 'B-LTA' ? { revocation: new HttpRevocationSource() } : {}),
  };
}

let production: Promise<Deps> | undefined;

/**
 * The deployed wiring, built once per container on first use, after the secrets are read (resolveSecrets). A failed
 * attempt is not kept: the next invocation tries again rather than the container staying broken.
 */
export function productionDeps(): Promise<Deps> {
  production ??= resolveSecrets(process.env).then((env) => buildDeps(loadConfig(env))).catch((error: unknown) => {
    production = undefined;
    throw error;
  });
  return production;
}
