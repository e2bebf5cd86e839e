/**
 * Grant helpers: what a function's access row (infra/stacks/access.ts) lets its code do, and no more. The variables
 * that name each resource come from infra/stacks/environment.ts, from the same row; a function starts with nothing
 * (service-function.ts). Resources are given by ARN: within a stack, tokens of its own resources; across stacks,
 * values read from the handoff parameters (handoff.ts).
 */
import { ArnFormat, Aws, Stack } from 'aws-cdk-lib';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { TABLE_INDEXES } from '#shared/adapters/aws/table-schema.ts';
import type { DocumentAccess, DocumentPrefix } from '../stacks/access.ts';
import { acknowledge, acknowledgeWildcard } from './nag.ts';
import type { ServiceFunction } from './service-function.ts';

/** Item reads: single items, batches, key-condition queries. No Scan: no request path scans the table. */
const TABLE_READ = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];
const TABLE_WRITE = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

/** `read`: items and the indexes; `write`: also put, update and delete (transactions are made of these), and batches of them. */
export function grantTable(fn: ServiceFunction, tableArn: string, mode: 'read' | 'write'): void {
  fn.addToRolePolicy(new PolicyStatement({ actions: mode === 'read' ? TABLE_READ : [...TABLE_READ, ...TABLE_WRITE], resources: [tableArn] }));
  // Each index by name rather than index/*: GSIs are only ever queried.
  fn.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: TABLE_INDEXES.map((i) => `${tableArn}/index/${i.name}`) }));
}

/** Partition key prefixes of the rate counters and idempotency records (shared/adapters/aws/dynamo-rate-limiter.ts, dynamo-idempotency-store.ts). */
export const TRAFFIC_KEY_PREFIXES = ['RATE#', 'IDEM#'] as const;

/**
 * What every route's traffic control (shared/http/traffic.ts) writes: its rate counters and Idempotency-Key records,
 * and no other item: the writes are limited to those partitions by their key prefix.
 */
export function grantTrafficRecords(fn: ServiceFunction, tableArn: string): void {
  fn.addToRolePolicy(new PolicyStatement({
    actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
    resources: [tableArn],
    conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': TRAFFIC_KEY_PREFIXES.map((p) => `${p}*`) } },
  }));
}

/** Object access limited to the key prefixes the function's code touches; the bucket encrypts with `keyArn` (SSE-KMS). */
export function grantDocuments(fn: ServiceFunction, bucketArn: string, keyArn: string, access: DocumentAccess): void {
  const tag = access.tag ?? [];
  const read = [...new Set([...(access.read ?? []), ...tag])];
  const write = [...new Set([...(access.write ?? []), ...tag])];
  const objects = (prefixes: readonly DocumentPrefix[]) => prefixes.map((p) => `${bucketArn}/${p}*`);
  const allow = (actions: string[], prefixes: readonly DocumentPrefix[]) => {
    if (prefixes.length > 0) fn.addToRolePolicy(new PolicyStatement({ actions, resources: objects(prefixes) }));
  };
  allow(['s3:GetObject'], read);
  allow(['s3:PutObject'], write);
  allow(['s3:DeleteObject'], access.delete ?? []);
  allow(['s3:PutObjectTagging'], tag);
  if (read.length > 0) {
    // With ListBucket a missing object is a 404 (NoSuchKey, which the code answers as 410 Gone) instead of a 403.
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucketArn] }));
    fn.addToRolePolicy(new PolicyStatement({ actions: ['kms:Decrypt'], resources: [keyArn] }));
  }
  if (write.length > 0) fn.addToRolePolicy(new PolicyStatement({ actions: ['kms:GenerateDataKey'], resources: [keyArn] }));
  for (const prefix of new Set([...read, ...write, ...(access.delete ?? [])])) {
    acknowledgeWildcard(fn.role, `${bucketArn}/${prefix}*`, `Objects under ${prefix} only: keys are per envelope (${prefix}<envelopeId>...), so a prefix is the narrowest grant that covers them`);
  }
}

/** SendMessage on the jobs queue. */
export function grantJobQueue(fn: ServiceFunction, queueArn: string): void {
  fn.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queueArn] }));
}

/** StartExecution on one state machine. */
export function grantStateMachine(fn: ServiceFunction, stateMachineArn: string): void {
  fn.addToRolePolicy(new PolicyStatement({ actions: ['states:StartExecution'], resources: [stateMachineArn] }));
}

/**
 * Signing with the seal key and reading its public half (checked against the certificate before a seal), and reading
 * the CA-issued chain `npm run seal-cert -- import` may have stored.
 */
export function grantSigningKey(fn: ServiceFunction, keyArn: string, certificateParameter: string | null): void {
  fn.addToRolePolicy(new PolicyStatement({ actions: ['kms:Sign', 'kms:GetPublicKey'], resources: [keyArn] }));
  grantSealChain(fn, certificateParameter);
}

/** Reading the CA-issued seal chain `npm run seal-cert -- import` may have stored (the chain issued at deploy is in the environment). */
export function grantSealChain(fn: ServiceFunction, certificateParameter: string | null): void {
  if (certificateParameter) {
    const parameterArn = Stack.of(fn).formatArn({ service: 'ssm', resource: 'parameter', resourceName: certificateParameter.replace(/^\//, ''), arnFormat: ArnFormat.SLASH_RESOURCE_NAME });
    fn.addToRolePolicy(new PolicyStatement({ actions: ['ssm:GetParameter'], resources: [parameterArn] }));
  }
}

/**
 * Read access to these secrets only: GetSecretValue, and Decrypt on their key through Secrets Manager. The function
 * reads the values at cold start (shared/adapters/aws/secrets.ts): they never appear in the template or the function's
 * configuration, and a rotated value reaches new containers without a redeploy.
 */
export function grantSecrets(fn: ServiceFunction, secretArns: readonly string[], keyArn: string): void {
  if (secretArns.length === 0) return;
  fn.addToRolePolicy(new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [...secretArns] }));
  fn.addToRolePolicy(new PolicyStatement({
    actions: ['kms:Decrypt'], resources: [keyArn],
    conditions: { StringEquals: { 'kms:ViaService': `secretsmanager.${Aws.REGION}.amazonaws.com` } },
  }));
}

/**
 * Read access to secrets the operator made for a trust service provider (the CSC client secret, PIN, OTP). An ARN may
 * be given without Secrets Manager's six-character suffix, so the suffixed form is granted too. Their encryption key
 * is the operator's: the AWS managed key needs no grant, a customer managed key must allow this role to decrypt.
 */
export function grantProviderSecrets(fn: ServiceFunction, secretArns: readonly string[]): void {
  if (secretArns.length === 0) return;
  fn.addToRolePolicy(new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: secretArns.flatMap((arn) => [arn, `${arn}-??????`]) }));
}

/**
 * SES SendEmail from `senderEmail` to anyone, and the account's quota to pace by. The resource is every identity because SES checks the recipients'
 * identities too while the account is in its sandbox (a grant on the sender's identity alone fails there); the
 * ses:FromAddress condition keeps the function to the one sender, whether the verified identity is the address or
 * its domain.
 */
export function grantMail(fn: ServiceFunction, senderEmail: string): void {
  const identities = Stack.of(fn).formatArn({ service: 'ses', resource: 'identity', resourceName: '*' });
  fn.addToRolePolicy(new PolicyStatement({
    actions: ['ses:SendEmail'], resources: [identities], conditions: { StringEquals: { 'ses:FromAddress': senderEmail } },
  }));
  acknowledgeWildcard(fn.role, identities, 'SES checks the recipients\' identities as well as the sender\'s while the account is in the SES sandbox; the ses:FromAddress condition limits sending to the configured sender');
  // The account's send rate, read once per container to pace sends (shared/adapters/aws/ses-mailer.ts): no resource ARN.
  fn.addToRolePolicy(new PolicyStatement({ actions: ['ses:GetAccount'], resources: ['*'] }));
  acknowledgeWildcard(fn.role, '*', 'ses:GetAccount reads the account\'s sending quota and has no resource ARN');
}

/** SMS through SNS: Publish to a phone number has no resource ARN, so it is granted on `*`. */
export function grantSms(fn: ServiceFunction): void {
  fn.addToRolePolicy(new PolicyStatement({ actions: ['sns:Publish'], resources: ['*'] }));
  // ...and not to topics: every topic ARN is denied, which leaves phone numbers only.
  fn.addToRolePolicy(new PolicyStatement({ effect: Effect.DENY, actions: ['sns:Publish'], resources: [`arn:${Aws.PARTITION}:sns:*:*:*`] }));
  acknowledge(fn.role, 'IAM5[Resource::*]', 'sns:Publish to a phone number (SMS) has no resource ARN to scope it to; the function publishes to no topic');
}

/** Invites and removes console users: the Admin* calls the user routes make, on the console's user pool only. */
export function grantIdentities(fn: ServiceFunction, userPoolId: string): void {
  const pool = Stack.of(fn).formatArn({ service: 'cognito-idp', resource: 'userpool', resourceName: userPoolId });
  fn.addToRolePolicy(new PolicyStatement({ actions: ['cognito-idp:AdminCreateUser', 'cognito-idp:AdminDeleteUser'], resources: [pool] }));
}
