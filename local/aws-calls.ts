/**
 * Records every AWS call each function makes locally, through its SDK clients' middleware: the service, the
 * operation, the IAM action it needs (a transaction needs one per item) and what it touches (table, index, bucket,
 * queue, ARN, key prefix). The IAM trace test (test/infra/iam-trace.test.ts) checks each against the synthesized
 * policy of that function. Calls are kept once per distinct shape, one JSON line each, in a file the tests read.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import type { InitializeMiddleware, MetadataBearer } from '@smithy/types';
import { TABLE_INDEXES } from '#shared/adapters/aws/table-schema.ts';
import type { AwsService } from '#shared/deps.ts';

export interface AwsCall {
  /** The handler module whose deps made the call. */
  function: string;
  service: AwsService;
  /** The SDK operation (`TransactWriteItems`). */
  operation: string;
  /** The IAM action it needs, without the service prefix (`PutItem` for a Put in a transaction). */
  action: string;
  table?: string;
  index?: string;
  bucket?: string;
  /** The first segment of the DynamoDB partition key (`ENV#`) or of the S3 key (`original/`). */
  keyPrefix?: string;
  queueUrl?: string;
  /** A state machine, KMS key or secret ARN. */
  arn?: string;
  /** SES: the From address. */
  from?: string;
  /** SNS: a phone number (SMS) rather than a topic. */
  phoneNumber?: boolean;
}

type Input = Record<string, unknown>;

/** A string field of an SDK input, or '' (the inputs are typed loosely here: every service's commands pass through). */
const field = (input: Input, name: string) => (typeof input[name] === 'string' ? input[name] : '');
type Target = Omit<AwsCall, 'function' | 'service' | 'operation'>;

/** `ENV#0190...` -> `ENV#`; `original/0190....pdf` -> `original/`. */
const prefixOf = (value: unknown, separator: string) => {
  const text = typeof value === 'string' ? value : typeof (value as { S?: unknown } | undefined)?.S === 'string' ? (value as { S: string }).S : undefined;
  if (text === undefined) return undefined;
  const at = text.indexOf(separator);
  return at < 0 ? text : text.slice(0, at + 1);
};

const hashKeyOf = (index: unknown) => TABLE_INDEXES.find((i) => i.name === index)?.pk ?? 'PK';

/** The partition key value a Query's key condition names. */
function queriedPartition(input: Input): unknown {
  const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (input.ExpressionAttributeValues ?? {}) as Record<string, unknown>;
  const hashKey = hashKeyOf(input.IndexName);
  for (const [, name = '', value = ''] of field(input, 'KeyConditionExpression').matchAll(/([#\w]+)\s*=\s*(:\w+)/g)) {
    if ((names[name] ?? name) === hashKey) return values[value];
  }
  return undefined;
}

function itemTarget(action: string, body: Input | undefined): Target {
  const key = (body?.Key ?? body?.Item) as Input | undefined;
  const keyPrefix = prefixOf(key?.PK, '#');
  return { action, table: String(body?.TableName), ...(keyPrefix ? { keyPrefix } : {}) };
}

const TRANSACT_ACTIONS: Record<string, string> = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem', Get: 'GetItem' };

function dynamodbTargets(operation: string, input: Input): Target[] {
  switch (operation) {
    case 'TransactWriteItems':
    case 'TransactGetItems':
      return ((input.TransactItems ?? []) as Record<string, Input>[]).flatMap((item) =>
        Object.entries(item).map(([kind, body]) => itemTarget(TRANSACT_ACTIONS[kind] ?? kind, body)));
    case 'BatchGetItem':
    case 'BatchWriteItem':
      return Object.entries((input.RequestItems ?? {}) as Record<string, unknown>).flatMap(([table, request]) => {
        const keys = operation === 'BatchGetItem'
          ? ((request as { Keys?: Input[] }).Keys ?? [])
          : ((request ?? []) as Record<string, { Key?: Input; Item?: Input }>[]).flatMap((r) => Object.values(r).map((w) => w.Key ?? w.Item ?? {}));
        const prefixes = [...new Set(keys.map((key) => prefixOf(key.PK, '#')))];
        return prefixes.map((keyPrefix) => ({ action: operation, table, ...(keyPrefix ? { keyPrefix } : {}) }));
      });
    case 'Query':
    case 'Scan': {
      const keyPrefix = operation === 'Query' ? prefixOf(queriedPartition(input), '#') : undefined;
      return [{ action: operation, table: String(input.TableName), ...(input.IndexName ? { index: field(input, 'IndexName') } : {}), ...(keyPrefix ? { keyPrefix } : {}) }];
    }
    default:
      return [itemTarget(operation, input)];
  }
}

function s3Targets(operation: string, input: Input): Target[] {
  const object = (action: string, bucket: unknown, key: unknown): Target => ({ action, bucket: String(bucket), ...(key === undefined ? {} : { keyPrefix: prefixOf(key, '/') ?? '' }) });
  const tagging = input.Tagging !== undefined ? [object('PutObjectTagging', input.Bucket, input.Key)] : [];
  switch (operation) {
    case 'HeadObject': return [object('GetObject', input.Bucket, input.Key)];
    case 'ListObjectsV2': return [object('ListBucket', input.Bucket, undefined)];
    case 'CopyObject': {
      const source = decodeURIComponent(String(input.CopySource));
      const slash = source.indexOf('/');
      return [object('GetObject', source.slice(0, slash), source.slice(slash + 1)), object('PutObject', input.Bucket, input.Key), ...tagging];
    }
    case 'PutObject': return [object('PutObject', input.Bucket, input.Key), ...tagging];
    default: return [object(operation, input.Bucket, input.Key)];
  }
}

/** What one call touches, as IAM sees it. */
export function targetsOf(service: AwsService, operation: string, input: Input): Target[] {
  switch (service) {
    case 'dynamodb': return dynamodbTargets(operation, input);
    case 's3': return s3Targets(operation, input);
    case 'sqs': return [{ action: operation, queueUrl: String(input.QueueUrl) }];
    case 'sfn': return [{ action: operation, arn: String(input.stateMachineArn) }];
    case 'kms': return [{ action: operation, arn: String(input.KeyId) }];
    case 'secretsManager': return [{ action: operation, arn: String(input.SecretId) }];
    case 'ses': return [{ action: operation, from: String(input.FromEmailAddress) }];
    case 'sns': return [{ action: operation, ...(input.TopicArn ? { arn: field(input, 'TopicArn') } : { phoneNumber: true }) }];
    case 'ssm': return [{ action: operation, arn: String(input.Name) }];
    case 'cognito': return [{ action: operation, arn: String(input.UserPoolId) }];
  }
}

/** The SDK's command name without its suffix; lib-dynamodb's short names as the DynamoDB operation they send. */
const DOCUMENT_OPERATIONS: Record<string, string> = { Get: 'GetItem', Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', BatchGet: 'BatchGetItem', BatchWrite: 'BatchWriteItem', TransactWrite: 'TransactWriteItems', TransactGet: 'TransactGetItems' };
const operationOf = (command: string) => {
  const name = command.replace(/Command$/, '');
  return DOCUMENT_OPERATIONS[name] ?? name;
};

/** The calls of every local function, appended to `file` once per distinct call. */
export class AwsCallLog {
  private readonly seen = new Set<string>();

  constructor(readonly file: string) {
    writeFileSync(file, '');
  }

  /** The middleware that records the calls of `handler`'s clients of `service`. */
  recorder(handler: string, service: AwsService): InitializeMiddleware<object, MetadataBearer> {
    return (next, context) => (args) => {
      const operation = operationOf(context.commandName ?? 'Unknown');
      for (const target of targetsOf(service, operation, args.input as Input)) this.record({ function: handler, service, operation, ...target });
      return next(args);
    };
  }

  record(call: AwsCall): void {
    const line = JSON.stringify(call);
    if (this.seen.has(line)) return;
    this.seen.add(line);
    appendFileSync(this.file, `${line}\n`);
  }
}
