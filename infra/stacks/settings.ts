/**
 * Deployment settings: CDK context (`cdk deploy -c senderEmail=...` or cdk.json) with defaults that let a bare
 * `cdk deploy` work. Everything the stacks vary on is here; nothing is looked up from the account at synth.
 */
import type { Node } from 'constructs';
import { RETENTION_DAYS, type RetentionDays } from '#domain/retention.ts';

export interface ServiceSettings {
  /** Prefix of the stack names (`EsignData`, `EsignWeb`, ...) and of the documents bucket name. */
  prefix: string;
  /** The signing host's own domain, served by CloudFront with `certificateArn` (ACM, us-east-1); else the CloudFront domain. */
  signingDomain: string | null;
  certificateArn: string | null;
  /** MAIL_FROM: an SES identity (the address or its domain) verified in the account and region. */
  senderEmail: string;
  /** SNS SMS sender id, where the destination country supports one. */
  smsSenderId: string | null;
  /** Retention classes (days) that get a lifecycle rule; a subset of the shared retention table. */
  retentionClasses: readonly RetentionDays[];
  /** RATE_LIMITS for the API functions (JSON, see shared/config.ts); `{}` keeps the code's defaults. */
  rateLimits: string;
  /** Days CloudWatch keeps function, API access and workflow logs. */
  logRetentionDays: number;
  /** Gateway-wide default throttle of the HTTP API. */
  apiThrottle: { rateLimit: number; burstLimit: number };
  /** An address that gets the alarm notifications (an SNS email subscription to confirm), if any. */
  alarmEmail: string | null;
  /** The built signing pages; deployed when the folder exists at synth time. */
  webDistPath: string;
}

export const DEFAULT_SETTINGS: ServiceSettings = {
  prefix: 'Esign',
  signingDomain: null,
  certificateArn: null,
  senderEmail: 'no-reply@example.com',
  smsSenderId: null,
  retentionClasses: RETENTION_DAYS,
  rateLimits: '{}',
  logRetentionDays: 30,
  apiThrottle: { rateLimit: 100, burstLimit: 200 },
  alarmEmail: null,
  webDistPath: 'web/dist',
};

const text = (node: Node, key: string): string | null => {
  const value: unknown = node.tryGetContext(key);
  if (value === undefined || value === null || value === '') return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
};

/** Context values arrive as strings from `-c key=value` and as JSON values from cdk.json: both are accepted. */
const json = (node: Node, key: string): unknown => {
  const value: unknown = node.tryGetContext(key);
  return typeof value === 'string' ? JSON.parse(value) as unknown : value;
};

function retentionClassesOf(value: unknown): readonly RetentionDays[] {
  if (value === undefined || value === null) return DEFAULT_SETTINGS.retentionClasses;
  const days = Array.isArray(value) ? value.map(Number) : [];
  const unknown = days.filter((d) => !(RETENTION_DAYS as readonly number[]).includes(d));
  if (days.length === 0 || unknown.length > 0) {
    throw new Error(`retentionClasses must be a non-empty list drawn from ${RETENTION_DAYS.join(', ')} (got ${JSON.stringify(value)})`);
  }
  return RETENTION_DAYS.filter((d) => days.includes(d));
}

export function settingsFromContext(node: Node): ServiceSettings {
  const signingDomain = text(node, 'signingDomain');
  const certificateArn = text(node, 'certificateArn');
  if ((signingDomain === null) !== (certificateArn === null)) {
    throw new Error('signingDomain and certificateArn go together: a custom signing host needs its ACM certificate (us-east-1)');
  }
  const rateLimits = json(node, 'rateLimits');
  const throttle = json(node, 'apiThrottle') as Partial<ServiceSettings['apiThrottle']> | undefined;
  return {
    prefix: text(node, 'prefix') ?? DEFAULT_SETTINGS.prefix,
    signingDomain,
    certificateArn,
    senderEmail: text(node, 'senderEmail') ?? DEFAULT_SETTINGS.senderEmail,
    smsSenderId: text(node, 'smsSenderId'),
    retentionClasses: retentionClassesOf(json(node, 'retentionClasses')),
    rateLimits: rateLimits === undefined || rateLimits === null ? DEFAULT_SETTINGS.rateLimits : JSON.stringify(rateLimits),
    logRetentionDays: Number(text(node, 'logRetentionDays') ?? DEFAULT_SETTINGS.logRetentionDays),
    apiThrottle: { ...DEFAULT_SETTINGS.apiThrottle, ...throttle },
    alarmEmail: text(node, 'alarmEmail'),
    webDistPath: text(node, 'webDistPath') ?? DEFAULT_SETTINGS.webDistPath,
  };
}
