/**
 * The environment of each manifest function, from its access row (access.ts) and the resources it may be bound to:
 * one function for both runtimes. CDK passes the deployed resources (tokens read from the handoff parameters,
 * infra/constructs/handoff.ts); the local runtime passes its engines' names. So a function locally starts from the
 * very configuration it gets on AWS, and what it reaches for is what its role grants (the IAM trace relies on it).
 *
 * No CDK import here: the local runtime loads this module.
 */
import { SECRET_NAMES, secretArnVariable, type SecretName } from '#shared/adapters/aws/secret-names.ts';
import { fallbackRoute, routes, workers, workflows } from '../routes.ts';
import { portsFor, type PortName } from '#shared/http/access.ts';
import { accessOf } from './access.ts';

/** What the deployed stacks share: each is an SSM parameter its producer writes and its consumers read at deploy. */
export const RESOURCE_KEYS = [
  'apiUrl', 'signingUrl',
  'tableName', 'tableArn',
  'bucketName', 'bucketArn', 'encryptionKeyArn',
  'jobsQueueUrl', 'jobsQueueArn',
  'sealStateMachineArn', 'webhookRetryStateMachineArn',
  'sealKeyArn', 'sealCertificatePem',
  'jwtSecretArn', 'linkSecretArn', 'dataKeySecretArn', 'originVerifySecretArn',
] as const;

export type ResourceKey = (typeof RESOURCE_KEYS)[number];

/**
 * The service's resources by what the functions need of them. `encryptionKeyArn` is the KMS key of the documents
 * bucket and of the secrets.
 */
export type ServiceResources = Record<ResourceKey, string>;

/** The secret ARN of each deployment secret. */
export const SECRET_RESOURCES: Record<SecretName, ResourceKey> = {
  JWT_SECRET: 'jwtSecretArn', LINK_SECRET: 'linkSecretArn', DATA_KEY: 'dataKeySecretArn', ORIGIN_VERIFY_SECRET: 'originVerifySecretArn',
};

/** Deployment settings that reach the functions' environment. */
export interface FunctionSettings {
  senderEmail: string;
  smsSenderId: string | null;
  /** RATE_LIMITS for the routes (JSON, shared/config.ts). */
  rateLimits: string;
  /** The seal's timestamp authority, its credentials and the PAdES level cap (decision 21). */
  tsaUrl?: string | null;
  tsaAuthHeader?: string | null;
  padesLevel?: string | null;
  /** REVOCATION_GRACE_SECONDS of the seal; null: the code's default. */
  revocationGraceSeconds?: number | null;
  /** Where `npm run seal-cert -- import` stores a CA-issued chain (SSM); the seal reads it when it is there. */
  sealCertificateParameter?: string | null;
  /** POWERTOOLS_LOG_LEVEL of every function (default INFO). */
  logLevel?: string;
  /** The jobs consumer's maximum concurrency: a sender paces its emails to its share of the account's SES rate. */
  jobsMaxConcurrency?: number;
  /** The seal key at a trust service provider (SIGNER=csc) instead of the KMS key; null or absent: KMS. */
  csc?: CscFunctionSettings | null;
  /** The console's OpenID provider (the user pool, or the local provider); null or absent: no console sign-in. */
  signIn?: SignInSettings | null;
}

/** What the routes are told of the OpenID provider whose access tokens they accept (shared/config.ts, OIDC_*). */
export interface SignInSettings {
  issuer: string;
  clientId: string;
  jwksUrl: string;
  audience: string | null;
  logoutUrl: string | null;
  /** The user pool the user routes administer (AdminCreateUser, AdminDeleteUser). */
  userPoolId: string;
}

/** A CSC v2 credential as the seal function is given it: its secrets by ARN, read at cold start. */
export interface CscFunctionSettings {
  baseUrl: string;
  clientId: string;
  credentialId: string;
  clientSecretArn: string;
  pinArn: string | null;
  otpArn: string | null;
}

/** The value of a variable whose resource the function is not bound to: shared/config.ts requires every one. */
export const UNBOUND = 'unbound-in-this-function';
/** A secret the function may not read: long enough to pass the configuration check, and visibly no key. */
export const unboundSecret = (name: string) => `${UNBOUND}:${name}:no-access-granted`;
/** A secret the function reads from Secrets Manager at cold start, by `<NAME>_ARN` (shared/adapters/aws/secrets.ts). */
export const IN_SECRETS_MANAGER = 'in-secrets-manager';

const routeHandlers = new Set([...routes.map((route) => route.handler), fallbackRoute.handler]);

/** Routes also run the traffic control (rate counters, Idempotency-Key records), which writes the table. */
export const isRoute = (handler: string) => routeHandlers.has(handler);

function secretVariables(bound: readonly SecretName[], resources: ServiceResources): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of SECRET_NAMES) {
    if (bound.includes(name)) {
      env[name] = IN_SECRETS_MANAGER;
      env[secretArnVariable(name)] = resources[SECRET_RESOURCES[name]];
    } else if (name !== 'ORIGIN_VERIFY_SECRET') {
      // Optional in the configuration (no signing host in front): left unset rather than given a placeholder.
      env[name] = unboundSecret(name);
    }
  }
  return env;
}

/** The environment of `handler`: its resources where its row binds them, placeholders elsewhere. */
export function functionEnvironment(handler: string, resources: ServiceResources, settings: FunctionSettings): Record<string, string> {
  const access = accessOf(handler);
  const route = isRoute(handler);
  const env: Record<string, string> = {
    BASE_URL: resources.apiUrl,
    SIGNING_URL: resources.signingUrl,
    TABLE_NAME: access.table || route ? resources.tableName : UNBOUND,
    BUCKET_NAME: access.documents ? resources.bucketName : UNBOUND,
    JOBS_QUEUE_URL: access.jobs ? resources.jobsQueueUrl : UNBOUND,
    ...secretVariables(access.secrets ?? [], resources),
    POWERTOOLS_SERVICE_NAME: 'esign',
    POWERTOOLS_LOG_LEVEL: settings.logLevel ?? 'INFO',
  };
  if (route) env.RATE_LIMITS = settings.rateLimits;
  if (route && settings.signIn) Object.assign(env, signInVariables(settings.signIn));
  if (access.identities && settings.signIn) env.USER_POOL_ID = settings.signIn.userPoolId;
  if (access.mail) {
    env.MAIL_FROM = settings.senderEmail;
    if (settings.jobsMaxConcurrency !== undefined) env.JOBS_MAX_CONCURRENCY = String(settings.jobsMaxConcurrency);
  }
  if (access.sms && settings.smsSenderId) env.SMS_SENDER_ID = settings.smsSenderId;
  for (const workflow of access.starts ?? []) {
    if (workflow === 'seal') env.SEAL_STATE_MACHINE_ARN = resources.sealStateMachineArn;
    else env.WEBHOOK_RETRY_STATE_MACHINE_ARN = resources.webhookRetryStateMachineArn;
  }
  if (access.sign || access.sealChain) {
    env.SEAL_CERTIFICATE_CHAIN_PEM = resources.sealCertificatePem;
    if (settings.sealCertificateParameter) env.SEAL_CERTIFICATE_PARAMETER = settings.sealCertificateParameter;
  }
  if (access.sign) {
    env.SEAL_KEY_ID = resources.sealKeyArn;
    if (settings.revocationGraceSeconds !== undefined && settings.revocationGraceSeconds !== null) env.REVOCATION_GRACE_SECONDS = String(settings.revocationGraceSeconds);
    // Only what signs with the seal key talks to the provider that holds it.
    if (settings.csc) Object.assign(env, cscVariables(settings.csc));
  }
  if (access.sign || access.timestamps) {
    if (settings.tsaUrl) env.TSA_URL = settings.tsaUrl;
    if (settings.tsaAuthHeader) env.TSA_AUTH_HEADER = settings.tsaAuthHeader;
    if (settings.padesLevel) env.PADES_LEVEL = settings.padesLevel;
  }
  return env;
}

function signInVariables(signIn: SignInSettings): Record<string, string> {
  return {
    OIDC_ISSUER: signIn.issuer, OIDC_CLIENT_ID: signIn.clientId, OIDC_JWKS_URL: signIn.jwksUrl,
    ...(signIn.audience ? { OIDC_AUDIENCE: signIn.audience } : {}), ...(signIn.logoutUrl ? { OIDC_LOGOUT_URL: signIn.logoutUrl } : {}),
  };
}

/** SIGNER=csc and where the credential is; the secrets by ARN only (never their values in the configuration). */
function cscVariables(csc: CscFunctionSettings): Record<string, string> {
  return {
    SIGNER: 'csc', CSC_BASE_URL: csc.baseUrl, CSC_CLIENT_ID: csc.clientId, CSC_CREDENTIAL_ID: csc.credentialId,
    [secretArnVariable('CSC_CLIENT_SECRET')]: csc.clientSecretArn,
    ...(csc.pinArn ? { [secretArnVariable('CSC_PIN')]: csc.pinArn } : {}),
    ...(csc.otpArn ? { [secretArnVariable('CSC_OTP')]: csc.otpArn } : {}),
  };
}

/** The secret ARNs a CSC seal reads. */
export const cscSecretArns = (csc: CscFunctionSettings): string[] => [csc.clientSecretArn, csc.pinArn, csc.otpArn].filter((arn): arn is string => Boolean(arn));

/** Every function of the manifest: routes (and the no-route answer), workers and workflow tasks, each once. */
export function manifestHandlers(): string[] {
  return [...new Set([
    ...routes.map((route) => route.handler),
    fallbackRoute.handler,
    ...workers.map((worker) => worker.handler),
    ...workflows.flatMap((workflow) => Object.values(workflow.tasks).map((task) => task.handler)),
  ])];
}

/**
 * The adapters shared/deps.ts loads on demand (by these specifiers), each with the port it serves: it is bound when the
 * function's access row binds that port (portsFor, the mapping DepsFor types a function's deps with). The bundle of a
 * function leaves out those its row does not bind (infra/constructs/bundling.ts).
 */
export const ADAPTER_PORTS: Record<string, PortName> = {
  '#shared/adapters/aws/dynamo-table-adapters.ts': 'envelopes',
  '#shared/adapters/aws/s3-blob-store.ts': 'blobs',
  '#shared/adapters/aws/ses-mailer.ts': 'mailer',
  '#shared/adapters/aws/sns-sms.ts': 'sms',
  '#shared/adapters/aws/cognito-identity-admin.ts': 'identities',
  '#shared/adapters/aws/sqs-job-queue.ts': 'jobs',
  '#shared/adapters/aws/sfn-workflows.ts': 'workflows',
  '#shared/adapters/aws/kms-signer.ts': 'documentSigner',
  '#shared/adapters/http/csc-signer.ts': 'documentSigner',
  '#shared/adapters/aws/ssm-certificate-store.ts': 'sealChain',
  '@aws-sdk/client-ssm': 'sealChain',
  '#shared/adapters/http/timestamp-authority.ts': 'sealEvidence',
  '#shared/adapters/http/revocation-source.ts': 'sealEvidence',
};

/** Whether `handler`'s function loads the adapter `specifier`. */
function binds(handler: string, specifier: string): boolean {
  const access = accessOf(handler);
  // Routes also run the traffic control, over the table; any secret is read from Secrets Manager at cold start.
  if (specifier === '#shared/adapters/aws/dynamo-table-adapters.ts' && isRoute(handler)) return true;
  if (specifier === '#shared/adapters/aws/secrets.ts') return Boolean(access.secrets?.length);
  const port = ADAPTER_PORTS[specifier];
  return port !== undefined && portsFor(access).has(port);
}

/** The adapter modules `handler` has no use for, as shared/deps.ts names them. */
export function unboundAdapters(handler: string): string[] {
  return [...Object.keys(ADAPTER_PORTS), '#shared/adapters/aws/secrets.ts'].filter((specifier) => !binds(handler, specifier));
}
