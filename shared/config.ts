import * as v from 'valibot';

/** 25 MB upload limit (spec 8), in bytes. */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;

const secret = (name: string) =>
  v.pipe(v.string(`${name} is required`), v.minLength(32, `${name} must be at least 32 characters`));

const EnvSchema = v.object({
  TABLE_NAME: v.pipe(v.string('TABLE_NAME is required'), v.nonEmpty()),
  BUCKET_NAME: v.pipe(v.string('BUCKET_NAME is required'), v.nonEmpty()),
  BASE_URL: v.pipe(v.string('BASE_URL is required'), v.url()),
  SIGNING_URL: v.pipe(v.string('SIGNING_URL is required'), v.url()),
  JWT_SECRET: secret('JWT_SECRET'),
  LINK_SECRET: secret('LINK_SECRET'),
  DATA_KEY: secret('DATA_KEY'),
  MAIL_FROM: v.optional(v.pipe(v.string(), v.email()), 'no-reply@esign.local'),
  LOCAL_MODE: v.optional(v.picklist(['0', '1']), '0'),
  JOBS_QUEUE_URL: v.pipe(v.string('JOBS_QUEUE_URL is required'), v.nonEmpty()),
  SEAL_STATE_MACHINE_ARN: v.optional(v.string(), ''),
  WEBHOOK_RETRY_STATE_MACHINE_ARN: v.optional(v.string(), ''),
  WEBHOOK_TIMEOUT_MS: v.optional(v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number)), '10000'),
  SEAL_KEY_ID: v.optional(v.string(), ''),
  SEAL_CERTIFICATE_CHAIN_PEM: v.optional(v.string(), ''),
});

export interface Config {
  tableName: string;
  bucketName: string;
  baseUrl: string;
  signingUrl: string;
  jwtSecret: string;
  linkSecret: string;
  dataKey: string;
  mailFrom: string;
  local: boolean;
  jobsQueueUrl: string;
  sealStateMachineArn: string;
  webhookRetryStateMachineArn: string;
  /** Each webhook attempt's limit (spec 6.3: 10 s). */
  webhookTimeoutMs: number;
  /** The KMS key that seals, and its certificate chain in PEM (signing certificate first). */
  sealKeyId: string;
  sealCertificateChainPem: string;
}

/** Reads and validates the environment once; a missing or bad variable fails the cold start loudly. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = v.safeParse(EnvSchema, env);
  if (!parsed.success) {
    const problems = parsed.issues.map((issue) => issue.message).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.output;
  return {
    tableName: e.TABLE_NAME,
    bucketName: e.BUCKET_NAME,
    baseUrl: e.BASE_URL.replace(/\/+$/, ''),
    signingUrl: e.SIGNING_URL.replace(/\/+$/, ''),
    jwtSecret: e.JWT_SECRET,
    linkSecret: e.LINK_SECRET,
    dataKey: e.DATA_KEY,
    mailFrom: e.MAIL_FROM,
    local: e.LOCAL_MODE === '1',
    jobsQueueUrl: e.JOBS_QUEUE_URL,
    sealStateMachineArn: e.SEAL_STATE_MACHINE_ARN,
    webhookRetryStateMachineArn: e.WEBHOOK_RETRY_STATE_MACHINE_ARN,
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
    sealKeyId: e.SEAL_KEY_ID,
    sealCertificateChainPem: e.SEAL_CERTIFICATE_CHAIN_PEM,
  };
}
