/**
 * AWS list prices (us-east-1, on-demand, beyond any free tier) and default quotas the cost and capacity figures use:
 * the one place to update them. Each cites the page it was read from; check it before quoting a figure.
 */

/** When the prices below were last checked against their pages (list prices; no savings plans, no free tier). */
export const PRICES_CHECKED = '2026-11-26';
import { DEFAULT_SETTINGS } from '#infra/stacks/settings.ts';

export const PRICES = {
  lambda: {
    /** Arm (Graviton), the architecture ServiceFunction deploys: first 7.5 billion GB-seconds a month. */
    gbSecondArm: 0.000_013_333_4,
    perRequest: 0.20 / 1e6,
    source: 'https://aws.amazon.com/lambda/pricing/',
  },
  dynamodb: {
    /** On-demand (the table is PAY_PER_REQUEST): a write request unit is 1 KB (2 in a transaction), a read unit 4 KB strongly consistent (half eventually). */
    perWriteUnit: 0.625 / 1e6,
    perReadUnit: 0.125 / 1e6,
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
  },
  s3: {
    /** S3 Standard: PUT, COPY, POST, LIST per 1,000; GET, SELECT and all other requests per 1,000; DELETE is free. */
    putPer1000: 0.005,
    getPer1000: 0.0004,
    storageGbMonth: 0.023,
    source: 'https://aws.amazon.com/s3/pricing/',
  },
  stepFunctions: {
    /** Standard workflows: each step executed, retries included, is a transition. */
    perTransition: 0.025 / 1000,
    source: 'https://aws.amazon.com/step-functions/pricing/',
  },
  kms: {
    /** Requests involving RSA 2048 keys (the seal key's KeySpec in infra/stacks/data-stack.ts); the key itself is $1 a month. */
    rsa2048PerRequest: 0.03 / 10_000,
    source: 'https://aws.amazon.com/kms/pricing/',
  },
  ses: {
    /** Outbound email: per recipient; attachments per GB. */
    perEmail: 0.10 / 1000,
    attachmentPerGb: 0.12,
    source: 'https://aws.amazon.com/ses/pricing/',
  },
  sqs: {
    /** Standard queue requests; each 64 KB chunk of a payload is one request. */
    perRequest: 0.40 / 1e6,
    source: 'https://aws.amazon.com/sqs/pricing/',
  },
  cloudFront: {
    /** The signing host: HTTPS requests and data transfer out to the internet, United States, first 10 TB. */
    httpsPerRequest: 0.0100 / 10_000,
    perGbOut: 0.085,
    source: 'https://aws.amazon.com/cloudfront/pricing/',
  },
  xray: {
    /** Every function traces actively (infra/constructs/service-function.ts); the default rule records at least one request a second. */
    perTrace: 5.00 / 1e6,
    source: 'https://aws.amazon.com/xray/pricing/',
  },
  cloudWatch: {
    /** Log ingestion (standard class); a dashboard beyond the 3 free; a standard-resolution alarm beyond the 10 free. */
    logsPerGb: 0.50,
    dashboardMonth: 3.00,
    alarmMonth: 0.10,
    source: 'https://aws.amazon.com/cloudwatch/pricing/',
  },
  secretsManager: {
    secretMonth: 0.40,
    source: 'https://aws.amazon.com/secrets-manager/pricing/',
  },
  kmsKeys: {
    /** Each customer managed key, symmetric or asymmetric. */
    keyMonth: 1.00,
    source: 'https://aws.amazon.com/kms/pricing/',
  },
  apiGateway: {
    /** HTTP APIs, first 300 million requests a month (each 512 KB of a request counts as one). */
    httpPerRequest: 1.00 / 1e6,
    source: 'https://aws.amazon.com/api-gateway/pricing/',
  },
} as const;

/** What the hosted e-signature products charge per envelope, roughly, on their per-envelope plans. */
export const HOSTED_PER_ENVELOPE_USD = 1;

/** Default quotas (us-east-1) the capacity figure meets first; every one is adjustable unless said. */
export const QUOTAS = {
  kmsRsaPerSecond: {
    value: 500, name: 'KMS cryptographic operations (RSA) request rate, shared by all RSA keys', source: 'https://docs.aws.amazon.com/kms/latest/developerguide/requests-per-second.html',
  },
  lambdaConcurrency: {
    value: 1000, name: 'Lambda concurrent executions per Region', source: 'https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html',
  },
  sfnStartPerSecond: {
    value: 300, name: 'Step Functions StartExecution refill rate (bucket 1,300), standard workflows', source: 'https://docs.aws.amazon.com/step-functions/latest/dg/service-quotas.html',
  },
  sfnTransitionsPerSecond: {
    value: 5000, name: 'Step Functions StateTransition refill rate (bucket 5,000), standard workflows', source: 'https://docs.aws.amazon.com/step-functions/latest/dg/service-quotas.html',
  },
  sesProductionPerSecond: {
    value: 14, name: 'SES sending rate a new production account starts with (14 emails per second; raised on request)', source: 'https://docs.aws.amazon.com/ses/latest/dg/quotas.html',
  },
  sesProductionPerDay: {
    value: 50_000 / 86_400, name: 'SES sending quota a new production account starts with (50,000 emails a day, so 0.58/s sustained)', source: 'https://docs.aws.amazon.com/ses/latest/dg/quotas.html',
  },
  sesSandboxPerSecond: {
    value: 1, name: 'SES sending rate in the sandbox (1 email per second, 200 per day)', source: 'https://docs.aws.amazon.com/ses/latest/dg/quotas.html',
  },
  dynamoPartitionWcu: {
    value: 1000, name: 'DynamoDB writes per partition key (1,000 WCU/s; 3,000 RCU/s), table and index alike', source: 'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html',
  },
  apiStageRate: {
    value: DEFAULT_SETTINGS.apiThrottle.rateLimit,
    name: `HTTP API stage throttle this stack sets by default (apiThrottle, burst ${String(DEFAULT_SETTINGS.apiThrottle.burstLimit)}; a deploy setting)`,
    source: 'infra/stacks/settings.ts',
  },
  apiAccountRate: {
    value: 10_000, name: 'API Gateway throttle per account and Region (burst 5,000)', source: 'https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-quotas.html',
  },
} as const;
