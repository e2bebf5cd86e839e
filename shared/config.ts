import * as v from 'valibot';
import { MAX_INLINE_BODY_BYTES } from '#shared/http/aws-limits.ts';

export { MAX_UPLOAD_BYTES } from '#shared/kernel/model.ts';

/** The longest a seal waits for revocation data newer than its signature: well inside the seal function's 300 s run. */
export const MAX_REVOCATION_GRACE_SECONDS = 120;

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
  /** Optional (no signing host in front: the viewer address is the source IP); when set, a secret like the others. */
  ORIGIN_VERIFY_SECRET: v.optional(v.union([v.literal(''), secret('ORIGIN_VERIFY_SECRET')], 'ORIGIN_VERIFY_SECRET must be at least 32 characters'), ''),
  SENDER_COPY_EMAIL: v.optional(v.union([v.literal(''), v.pipe(v.string(), v.email('SENDER_COPY_EMAIL must be an email address'))]), ''),
  SEAL_CERTIFICATE_CHAIN_PEM: v.optional(v.string(), ''),
  /** SNS SMS sender id, where the destination country supports one. */
  SMS_SENDER_ID: v.optional(v.string(), ''),
  /** JSON overriding parts of DEFAULT_RATE_LIMITS, e.g. `{"plans":{"test":{"limit":5,"windowSeconds":60}}}`. */
  RATE_LIMITS: v.optional(v.string(), '{}'),
  /** An RFC 3161 timestamp authority: seals above PAdES B-B need one. */
  TSA_URL: v.optional(v.union([v.literal(''), v.pipe(v.string(), v.url('TSA_URL must be a URL'))]), ''),
  /** Sent with every timestamp request: "Name: value", or a bare Authorization value ("Basic ..."). */
  TSA_AUTH_HEADER: v.optional(v.string(), ''),
  /** Caps the seal's level; default: the highest the configuration allows (B-LTA with TSA_URL, else B-B). */
  PADES_LEVEL: v.optional(v.union([v.literal(''), v.picklist(['B-B', 'B-T', 'B-LT', 'B-LTA'], 'PADES_LEVEL must be B-B, B-T, B-LT or B-LTA')]), ''),
  /** Seconds after the signature timestamp the DSS's revocation data must be issued at (the seal waits that long); 0 to 120. */
  REVOCATION_GRACE_SECONDS: v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'REVOCATION_GRACE_SECONDS must be a whole number of seconds'), v.transform(Number), v.maxValue(MAX_REVOCATION_GRACE_SECONDS, `REVOCATION_GRACE_SECONDS must be at most ${String(MAX_REVOCATION_GRACE_SECONDS)}`)), '0'),
  /** An SSM parameter holding the seal certificate chain (PEM), written by `npm run seal-cert -- import`. */
  SEAL_CERTIFICATE_PARAMETER: v.optional(v.string(), ''),
  /** Where presigned document URLs point, for the embedded page's CSP (connect-src); the S3 regional endpoints by default. */
  DOCUMENTS_ORIGIN: v.optional(v.pipe(v.string(), v.regex(/^https?:\/\/[^\s;,']+$/, 'DOCUMENTS_ORIGIN must be an origin such as https://bucket.s3.eu-west-1.amazonaws.com')), 'https://*.amazonaws.com'),
  /**
   * PDFs larger than this are answered with a 302 to a presigned S3 URL; at most (and by default) the largest body a
   * Lambda response carries, since a larger one would fail on AWS instead.
   */
  DIRECT_DOWNLOAD_MAX_BYTES: v.optional(v.pipe(
    v.string(), v.regex(/^\d+$/, 'DIRECT_DOWNLOAD_MAX_BYTES must be a number of bytes'), v.transform(Number),
    v.maxValue(MAX_INLINE_BODY_BYTES, `DIRECT_DOWNLOAD_MAX_BYTES may be at most ${String(MAX_INLINE_BODY_BYTES)} bytes: a Lambda response carries no larger body once base64-encoded`),
  ), String(MAX_INLINE_BODY_BYTES)),
  /** Who holds the seal key: `kms` (default), or `csc`, a trust service provider through the CSC API v2 (CSC_*). */
  SIGNER: v.optional(v.picklist(['kms', 'csc'], 'SIGNER must be kms or csc'), 'kms'),
  CSC_BASE_URL: v.optional(v.union([v.literal(''), v.pipe(v.string(), v.url('CSC_BASE_URL must be a URL'))]), ''),
  CSC_CLIENT_ID: v.optional(v.string(), ''),
  CSC_CLIENT_SECRET: v.optional(v.string(), ''),
  CSC_CREDENTIAL_ID: v.optional(v.string(), ''),
  CSC_PIN: v.optional(v.string(), ''),
  CSC_OTP: v.optional(v.string(), ''),
  /** The jobs queue consumer's maximum concurrency: each container paces its emails to its share of the SES rate. */
  /** The console's OpenID provider (the Cognito user pool on AWS, the local provider locally); unset: no sign-in. */
  OIDC_ISSUER: v.optional(v.union([v.literal(''), v.pipe(v.string(), v.url('OIDC_ISSUER must be a URL'))]), ''),
  OIDC_CLIENT_ID: v.optional(v.string(), ''),
  /** Where the provider's signing keys are; default `<issuer>/.well-known/jwks.json` (Cognito's). */
  OIDC_JWKS_URL: v.optional(v.union([v.literal(''), v.pipe(v.string(), v.url('OIDC_JWKS_URL must be a URL'))]), ''),
  /** The `aud` access tokens must carry, when the provider sets one (Cognito's access tokens have none). */
  OIDC_AUDIENCE: v.optional(v.string(), ''),
  /** Cognito's hosted logout (`https://<domain>/logout`); unset: the provider's end_session_endpoint. */
  OIDC_LOGOUT_URL: v.optional(v.union([v.literal(''), v.pipe(v.string(), v.url('OIDC_LOGOUT_URL must be a URL'))]), ''),
  /** The Cognito user pool users are invited into (AdminCreateUser). */
  USER_POOL_ID: v.optional(v.string(), ''),
  LOCAL_SES_SEND_RATE: v.optional(v.pipe(v.string(), v.regex(/^(\d+)?$/, 'LOCAL_SES_SEND_RATE must be a whole number of emails per second'), v.transform((x) => (x ? Number(x) : null))), ''),
  JOBS_MAX_CONCURRENCY: v.optional(v.pipe(v.string(), v.regex(/^[1-9]\d*$/, 'JOBS_MAX_CONCURRENCY must be a positive integer'), v.transform(Number)), '10'),
});

/** A fixed window: at most `limit` requests per `windowSeconds`, counted from the window's first request. */
export interface RateWindow { limit: number; windowSeconds: number }

export interface RateLimits {
  /** Per application, by its plan; `standard` also covers plans without an entry of their own. */
  plans: Record<string, RateWindow>;
  /** Signer and download-portal endpoints, per link token and per client IP; unauthenticated calls per IP. */
  perToken: RateWindow;
  perIp: RateWindow;
}

/** 600 requests per 60 s per application; per link token 120, per address 1,200 (decision 31). */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  plans: { standard: { limit: 600, windowSeconds: 60 } },
  perToken: { limit: 120, windowSeconds: 60 },
  perIp: { limit: 1200, windowSeconds: 60 },
};

const RateWindowSchema = v.object({
  limit: v.pipe(v.number(), v.integer(), v.minValue(1, 'RATE_LIMITS: a limit must be at least 1')),
  windowSeconds: v.pipe(v.number(), v.integer(), v.minValue(1, 'RATE_LIMITS: a window must be at least 1 second')),
});
const RateLimitsSchema = v.pipe(
  v.string(),
  v.parseJson(undefined, 'RATE_LIMITS must be JSON'),
  v.object({
    plans: v.optional(v.record(v.string(), RateWindowSchema), {}),
    perToken: v.optional(RateWindowSchema),
    perIp: v.optional(RateWindowSchema),
  }, 'RATE_LIMITS must be a JSON object'),
);

function rateLimitsOf(json: string): RateLimits {
  const parsed = v.safeParse(RateLimitsSchema, json);
  if (!parsed.success) throw new Error(`Invalid configuration: ${parsed.issues.map((issue) => issue.message).join('; ')}`);
  const { plans, perToken, perIp } = parsed.output;
  return {
    plans: { ...DEFAULT_RATE_LIMITS.plans, ...plans },
    perToken: perToken ?? DEFAULT_RATE_LIMITS.perToken,
    perIp: perIp ?? DEFAULT_RATE_LIMITS.perIp,
  };
}

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
  /** Each webhook attempt's limit: 10 s (decision 25). */
  webhookTimeoutMs: number;
  /** The KMS key that seals, and its certificate chain in PEM (signing certificate first). */
  sealKeyId: string;
  sealCertificateChainPem: string;
  /** The SMS sender id (SNS `AWS.SNS.SMS.SenderID`), if any. */
  smsSenderId: string | null;
  /** Proves a request came through the signing host's CloudFront (whose viewer address is then trusted). */
  originVerifySecret: string | null;
  /** Also sends the completed, sealed copy here (the sender's address), when set. */
  senderCopyEmail: string | null;
  /** Request budgets (decision 31). */
  rateLimits: RateLimits;
  /** The RFC 3161 timestamp authority and its optional header; null: none. */
  tsaUrl: string | null;
  tsaAuthHeader: string | null;
  /** The PAdES level seals are made at (decision 21). */
  padesLevel: 'B-B' | 'B-T' | 'B-LT' | 'B-LTA';
  /** The DSS's revocation data is issued at least this long after the signature timestamp. */
  revocationGraceSeconds: number;
  /** The SSM parameter with the seal certificate chain; null: SEAL_CERTIFICATE_CHAIN_PEM. */
  sealCertificateParameter: string | null;
  /** PDF downloads above this size answer 302 to a presigned S3 URL instead of carrying the bytes (at most MAX_INLINE_BODY_BYTES). */
  directDownloadMaxBytes: number;
  documentsOrigin: string;
  /** How many jobs containers may send email at once (the SQS event source's maximum concurrency). */
  jobsMaxConcurrency: number;
  /** Local only: pace mail to this SES rate as on AWS (the emulator has none); null: mail goes out at once. */
  localSesSendRate: number | null;
  /** The console's OpenID provider, whose access tokens the API accepts beside its own; null: none configured. */
  signIn: SignInConfig | null;
  /** Who holds the seal key: the KMS key (SEAL_KEY_ID), or a credential at a trust service provider (CSC API v2). */
  signer: { kind: 'kms' } | CscSignerConfig;
}

/** The OpenID provider users sign in at, and what its access tokens must say. */
export interface SignInConfig {
  issuer: string;
  clientId: string;
  jwksUrl: string;
  audience: string | null;
  logoutUrl: string | null;
  userPoolId: string | null;
}

/** A CSC v2 credential: where, the OAuth2 client, and the PIN / OTP its authorization asks for (secrets, never logged). */
export interface CscSignerConfig {
  kind: 'csc';
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  credentialId: string;
  pin: string | null;
  otp: string | null;
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
    smsSenderId: e.SMS_SENDER_ID || null,
    senderCopyEmail: e.SENDER_COPY_EMAIL || null,
    originVerifySecret: e.ORIGIN_VERIFY_SECRET || null,
    rateLimits: rateLimitsOf(e.RATE_LIMITS),
    tsaUrl: e.TSA_URL || null,
    tsaAuthHeader: e.TSA_AUTH_HEADER || null,
    padesLevel: padesLevelOf(e.PADES_LEVEL, e.TSA_URL),
    revocationGraceSeconds: e.REVOCATION_GRACE_SECONDS,
    sealCertificateParameter: e.SEAL_CERTIFICATE_PARAMETER || null,
    directDownloadMaxBytes: e.DIRECT_DOWNLOAD_MAX_BYTES,
    documentsOrigin: e.DOCUMENTS_ORIGIN,
    jobsMaxConcurrency: e.JOBS_MAX_CONCURRENCY,
    localSesSendRate: e.LOCAL_MODE === '1' ? e.LOCAL_SES_SEND_RATE : null,
    signer: signerOf(e),
    signIn: e.OIDC_ISSUER && e.OIDC_CLIENT_ID ? {
      issuer: e.OIDC_ISSUER.replace(/\/+$/, ''), clientId: e.OIDC_CLIENT_ID,
      jwksUrl: e.OIDC_JWKS_URL || `${e.OIDC_ISSUER.replace(/\/+$/, '')}/.well-known/jwks.json`,
      audience: e.OIDC_AUDIENCE || null, logoutUrl: e.OIDC_LOGOUT_URL || null, userPoolId: e.USER_POOL_ID || null,
    } : null,
  };
}

/** SIGNER=csc needs its provider, client and credential; over plain HTTP only locally (the mock provider). */
function signerOf(e: v.InferOutput<typeof EnvSchema>): Config['signer'] {
  if (e.SIGNER === 'kms') return { kind: 'kms' };
  const missing = (['CSC_BASE_URL', 'CSC_CLIENT_ID', 'CSC_CLIENT_SECRET', 'CSC_CREDENTIAL_ID'] as const).filter((name) => !e[name]);
  if (missing.length > 0) throw new Error(`Invalid configuration: SIGNER=csc needs ${missing.join(', ')}`);
  if (!e.CSC_BASE_URL.startsWith('https://') && e.LOCAL_MODE !== '1') throw new Error('Invalid configuration: CSC_BASE_URL must be an https:// URL');
  return {
    kind: 'csc', baseUrl: e.CSC_BASE_URL.replace(/\/+$/, ''), clientId: e.CSC_CLIENT_ID, clientSecret: e.CSC_CLIENT_SECRET,
    credentialId: e.CSC_CREDENTIAL_ID, pin: e.CSC_PIN || null, otp: e.CSC_OTP || null,
  };
}

/** A level above B-B needs a timestamp authority; asking for one without it fails the cold start, not the seal. */
function padesLevelOf(level: '' | Config['padesLevel'], tsaUrl: string): Config['padesLevel'] {
  if (!level) return tsaUrl ? 'B-LTA' : 'B-B';
  if (level !== 'B-B' && !tsaUrl) throw new Error(`Invalid configuration: PADES_LEVEL ${level} needs TSA_URL`);
  return level;
}
