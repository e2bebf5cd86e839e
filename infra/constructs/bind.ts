/**
 * Bind helpers: each sets the configuration a function reads (shared/config.ts) and grants exactly what that
 * configuration lets the code do, in one call. A function starts with nothing (service-function.ts).
 */
import { Aws, Stack } from 'aws-cdk-lib';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { secretArnVariable, type SecretName } from '#adapters/aws/secrets.ts';
import { TABLE_INDEXES } from '#adapters/aws/table-schema.ts';
import { acknowledge, acknowledgeWildcard } from './nag.ts';
import type { ServiceFunction } from './service-function.ts';

/** Item reads: single items, batches, key-condition queries. No Scan: no request path scans the table. */
const TABLE_READ = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];
const TABLE_WRITE = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'];

/** TABLE_NAME; `read`: items and the indexes; `write`: also put, update and delete (transactions are made of these). */
export function bindTable(fn: ServiceFunction, table: ITable, mode: 'read' | 'write'): void {
  fn.addEnvironment('TABLE_NAME', table.tableName);
  fn.addToRolePolicy(new PolicyStatement({ actions: mode === 'read' ? TABLE_READ : [...TABLE_READ, ...TABLE_WRITE], resources: [table.tableArn] }));
  // Each index by name rather than index/*: GSIs are only ever queried.
  fn.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: TABLE_INDEXES.map((i) => `${table.tableArn}/index/${i.name}`) }));
}

/** Partition key prefixes of the rate counters and idempotency records (shared/adapters/aws/dynamo-rate-limiter.ts, dynamo-idempotency-store.ts). */
export const TRAFFIC_KEY_PREFIXES = ['RATE#', 'IDEM#'] as const;

/**
 * What every route's traffic control (shared/http/traffic.ts) writes: its rate counters and Idempotency-Key records,
 * and no other item: the writes are limited to those partitions by their key prefix.
 */
export function bindTrafficRecords(fn: ServiceFunction, table: ITable): void {
  fn.addEnvironment('TABLE_NAME', table.tableName);
  fn.addToRolePolicy(new PolicyStatement({
    actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
    resources: [table.tableArn],
    conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': TRAFFIC_KEY_PREFIXES.map((p) => `${p}*`) } },
  }));
}

export type DocumentPrefix = 'original/' | 'sealed/' | 'signatures/';

/** The documents bucket as the other stacks see it: its name is derived, not exported, so grants stay in the consumer's stack. */
export interface DocumentsBucket {
  name: string;
  arn: string;
  /** The data key the bucket encrypts with (SSE-KMS). */
  key: IKey;
}

/**
 * Derived from the account and region rather than exported by the data stack, so each consumer builds the same
 * ARN from pseudo parameters: no cross-stack export to pin, and its prefix grants can be acknowledged by name.
 */
export function documentsBucketName(prefix: string): string {
  return `${prefix.toLowerCase()}-documents-${Aws.ACCOUNT_ID}-${Aws.REGION}`;
}

export interface DocumentAccess {
  read?: readonly DocumentPrefix[];
  write?: readonly DocumentPrefix[];
  delete?: readonly DocumentPrefix[];
  /** Retention tagging: the object is copied onto itself with its class tag (BlobStore.retain). */
  tag?: readonly DocumentPrefix[];
}

/** BUCKET_NAME; object access limited to the key prefixes the function's code touches. */
export function bindDocuments(fn: ServiceFunction, bucket: DocumentsBucket, access: DocumentAccess): void {
  fn.addEnvironment('BUCKET_NAME', bucket.name);
  const tag = access.tag ?? [];
  const read = [...new Set([...(access.read ?? []), ...tag])];
  const write = [...new Set([...(access.write ?? []), ...tag])];
  const objects = (prefixes: readonly DocumentPrefix[]) => prefixes.map((p) => `${bucket.arn}/${p}*`);
  const allow = (actions: string[], prefixes: readonly DocumentPrefix[]) => {
    if (prefixes.length > 0) fn.addToRolePolicy(new PolicyStatement({ actions, resources: objects(prefixes) }));
  };
  allow(['s3:GetObject'], read);
  allow(['s3:PutObject'], write);
  allow(['s3:DeleteObject'], access.delete ?? []);
  allow(['s3:PutObjectTagging'], tag);
  if (read.length > 0) {
    // With ListBucket a missing object is a 404 (NoSuchKey, which the code answers as 410 Gone) instead of a 403.
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.arn] }));
    fn.addToRolePolicy(new PolicyStatement({ actions: ['kms:Decrypt'], resources: [bucket.key.keyArn] }));
  }
  if (write.length > 0) fn.addToRolePolicy(new PolicyStatement({ actions: ['kms:GenerateDataKey'], resources: [bucket.key.keyArn] }));
  for (const prefix of new Set([...read, ...write, ...(access.delete ?? [])])) {
    acknowledgeWildcard(fn.role, `${bucket.arn}/${prefix}*`, `Objects under ${prefix} only: keys are per envelope (${prefix}<envelopeId>...), so a prefix is the narrowest grant that covers them`);
  }
}

/** JOBS_QUEUE_URL and SendMessage on the jobs queue. */
export function bindJobQueue(fn: ServiceFunction, queue: IQueue): void {
  fn.addEnvironment('JOBS_QUEUE_URL', queue.queueUrl);
  fn.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queue.queueArn] }));
}

/** The workflow ARN variable (SEAL_STATE_MACHINE_ARN, WEBHOOK_RETRY_STATE_MACHINE_ARN) and StartExecution on it. */
export function bindStateMachine(fn: ServiceFunction, variable: 'SEAL_STATE_MACHINE_ARN' | 'WEBHOOK_RETRY_STATE_MACHINE_ARN', stateMachineArn: string): void {
  fn.addEnvironment(variable, stateMachineArn);
  fn.addToRolePolicy(new PolicyStatement({ actions: ['states:StartExecution'], resources: [stateMachineArn] }));
}

/** SEAL_KEY_ID, the certificate chain, and Sign on the seal key only (never GetPublicKey: the certificate carries it). */
export function bindSigningKey(fn: ServiceFunction, key: IKey, certificateChainPem: string): void {
  fn.addEnvironment('SEAL_KEY_ID', key.keyArn);
  fn.addEnvironment('SEAL_CERTIFICATE_CHAIN_PEM', certificateChainPem);
  fn.addToRolePolicy(new PolicyStatement({ actions: ['kms:Sign'], resources: [key.keyArn] }));
}

export type { SecretName };

/**
 * The secret's ARN in `<NAME>_ARN` and read access to that secret only (GetSecretValue, and Decrypt on its key
 * through Secrets Manager). The function reads the value at cold start (shared/adapters/aws/secrets.ts): it never
 * appears in the template or the function's configuration, and a rotated value reaches new containers without a
 * redeploy. `<NAME>` itself holds a marker too short to pass as a secret, so a function that skipped the read would
 * fail its configuration check instead of running with a wrong key.
 */
export function bindSecrets(fn: ServiceFunction, secrets: Partial<Record<SecretName, ISecret>>): void {
  for (const [name, secret] of Object.entries(secrets) as [SecretName, ISecret][]) {
    fn.addEnvironment(secretArnVariable(name), secret.secretArn);
    fn.addEnvironment(name, 'in-secrets-manager');
    fn.addToRolePolicy(new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secret.secretArn] }));
    if (secret.encryptionKey) {
      fn.addToRolePolicy(new PolicyStatement({
        actions: ['kms:Decrypt'], resources: [secret.encryptionKey.keyArn],
        conditions: { StringEquals: { 'kms:ViaService': `secretsmanager.${Aws.REGION}.amazonaws.com` } },
      }));
    }
  }
}

/** MAIL_FROM and SES SendEmail from that identity (the address, or its domain when the domain is the verified identity). */
export function bindMail(fn: ServiceFunction, senderEmail: string): void {
  fn.addEnvironment('MAIL_FROM', senderEmail);
  const stack = Stack.of(fn);
  const domain = senderEmail.split('@')[1] ?? senderEmail;
  fn.addToRolePolicy(new PolicyStatement({
    actions: ['ses:SendEmail'],
    resources: [senderEmail, domain].map((identity) => stack.formatArn({ service: 'ses', resource: 'identity', resourceName: identity })),
  }));
}

/** SMS through SNS: Publish to a phone number has no resource ARN, so it is granted on `*`. */
export function bindSms(fn: ServiceFunction, senderId: string | null): void {
  if (senderId) fn.addEnvironment('SMS_SENDER_ID', senderId);
  fn.addToRolePolicy(new PolicyStatement({ actions: ['sns:Publish'], resources: ['*'] }));
  // ...and not to topics: every topic ARN is denied, which leaves phone numbers only.
  fn.addToRolePolicy(new PolicyStatement({ effect: Effect.DENY, actions: ['sns:Publish'], resources: [`arn:${Aws.PARTITION}:sns:*:*:*`] }));
  acknowledge(fn.role, 'IAM5[Resource::*]', 'sns:Publish to a phone number (SMS) has no resource ARN to scope it to; the function publishes to no topic');
}
