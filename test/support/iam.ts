/**
 * What IAM would say to a recorded AWS call (local/aws-calls.ts): the requests the call makes of IAM (a
 * transaction item, the KMS use S3 and Secrets Manager make on the caller's behalf), each evaluated against the
 * statements of the calling function's role. Enough of IAM's policy evaluation for what the templates use: Allow and
 * Deny, action and resource wildcards, StringEquals, StringLike and ForAllValues:StringLike conditions; any other
 * condition operator fails loudly rather than being guessed.
 */
import type { AwsCall } from '#local/aws-calls.ts';
import type { ServiceResources } from '#infra/stacks/environment.ts';
import type { Statement } from './templates.ts';
import { TEST_PSEUDO } from './templates.ts';

/** One authorization IAM makes: an action on a resource, with the request's condition keys. */
export interface Request {
  action: string;
  resource: string;
  context: Record<string, string | string[]>;
}

const { region, account } = TEST_PSEUDO;
const arn = (service: string, resource: string) => `arn:aws:${service}:${region}:${account}:${resource}`;
/** Stands for the rest of a key the trace does not keep (it keeps prefixes). */
const REST = '…';

/** The IAM requests one call makes. `resources` are the local names (the documents bucket's key, say). */
export function requestsOf(call: AwsCall, resources: ServiceResources): Request[] {
  const viaService = (service: string) => ({ 'kms:ViaService': `${service}.${region}.amazonaws.com` });
  switch (call.service) {
    case 'dynamodb': {
      const table = arn('dynamodb', `table/${call.table ?? ''}${call.index ? `/index/${call.index}` : ''}`);
      return [{ action: `dynamodb:${call.action}`, resource: table, context: call.keyPrefix && !call.index ? { 'dynamodb:LeadingKeys': [`${call.keyPrefix}${REST}`] } : {} }];
    }
    case 's3': {
      const bucket = `arn:aws:s3:::${call.bucket ?? ''}`;
      const resource = call.action === 'ListBucket' ? bucket : `${bucket}/${call.keyPrefix ?? ''}${REST}`;
      const request = { action: `s3:${call.action}`, resource, context: {} };
      // The documents bucket encrypts with SSE-KMS: S3 uses the key with the caller's permissions.
      const encrypted = call.bucket === resources.bucketName;
      if (encrypted && call.action === 'GetObject') return [request, { action: 'kms:Decrypt', resource: resources.encryptionKeyArn, context: viaService('s3') }];
      if (encrypted && call.action === 'PutObject') return [request, { action: 'kms:GenerateDataKey', resource: resources.encryptionKeyArn, context: viaService('s3') }];
      return [request];
    }
    case 'sqs': return [{ action: `sqs:${call.action}`, resource: arn('sqs', (call.queueUrl ?? '').split('/').pop() ?? ''), context: {} }];
    case 'sfn': return [{ action: `states:${call.action}`, resource: call.arn ?? '', context: {} }];
    case 'kms': return [{ action: `kms:${call.action}`, resource: call.arn ?? '', context: {} }];
    case 'secretsManager': return [
      { action: `secretsmanager:${call.action}`, resource: call.arn ?? '', context: {} },
      { action: 'kms:Decrypt', resource: resources.encryptionKeyArn, context: viaService('secretsmanager') },
    ];
    case 'ses': {
      // The sender's identity, and (in the SES sandbox) a recipient's. SES keys ses:FromAddress and the identity on the
      // address alone: a display name ("Acme via …" <addr>) is its own key, ses:FromDisplayName.
      const from = /<([^<>]+)>\s*$/.exec(call.from ?? '')?.[1] ?? call.from ?? '';
      const context = { 'ses:FromAddress': from };
      return [`identity/${from}`, 'identity/recipient@example.org'].map((identity) => ({ action: `ses:${call.action}`, resource: arn('ses', identity), context }));
    }
    case 'sns': return [{ action: `sns:${call.action}`, resource: call.phoneNumber ? '*' : call.arn ?? '', context: {} }];
    case 'ssm': return [{ action: `ssm:${call.action}`, resource: arn('ssm', `parameter/${(call.arn ?? '').replace(/^\//, '')}`), context: {} }];
    case 'cognito': return [{ action: `cognito-idp:${call.action}`, resource: arn('cognito-idp', `userpool/${call.arn ?? ''}`), context: {} }];
  }
}

const glob = (pattern: string, caseless = false) =>
  new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, caseless ? 'i' : '');

type Resolve = (expression: unknown) => string;

function conditionHolds(operator: string, key: string, expected: unknown, request: Request, resolve: Resolve): boolean {
  const wanted = [expected].flat().map(resolve);
  const given = request.context[key];
  const values = given === undefined ? [] : [given].flat();
  switch (operator) {
    case 'StringEquals': return values.length > 0 && values.every((value) => wanted.includes(value));
    case 'StringLike': return values.length > 0 && values.every((value) => wanted.some((pattern) => glob(pattern).test(value)));
    // Vacuously true without the key, as IAM has it.
    case 'ForAllValues:StringLike': return values.every((value) => wanted.some((pattern) => glob(pattern).test(value)));
    default: throw new Error(`test/support/iam.ts does not evaluate ${operator} conditions yet`);
  }
}

function matches(statement: Statement, request: Request, resolve: Resolve): boolean {
  const actions = [statement.Action].flat();
  if (!actions.some((action) => glob(action, true).test(request.action))) return false;
  const resources = [statement.Resource].flat().map(resolve);
  if (!resources.some((resource) => glob(resource).test(request.resource))) return false;
  return Object.entries(statement.Condition ?? {}).every(([operator, keys]) =>
    Object.entries(keys).every(([key, expected]) => conditionHolds(operator, key, expected, request, resolve)));
}

/** IAM's answer: an explicit Deny wins, else some Allow must match. */
export function allowed(statements: readonly Statement[], request: Request, resolve: Resolve): boolean {
  if (statements.some((s) => s.Effect === 'Deny' && matches(s, request, resolve))) return false;
  return statements.some((s) => s.Effect === 'Allow' && matches(s, request, resolve));
}
