/**
 * Counts what the local stack asks of AWS, from inside the bench process, with the lightest hooks there are (none in
 * the service's code): every SDK client class's `send`, the HTTP server's `request` event, the local Step Functions
 * engine's `run`, and the local signing key. Each call is attributed to a tag carried by AsyncLocalStorage:
 *
 * - `<phase>|<handler>` for an HTTP request whose `x-bench-tag` header says so (phase `api`, `flow` or `poll`);
 * - `task|<handler>` for a workflow Task state (the handler of the manifest's task);
 * - `jobs|functions/workers/jobs.ts` for the queue poller (everything the local stack starts in the background);
 * - `schedule|sweeps` for the scheduled sweeps.
 *
 * An HTTP request or a Task state is one Lambda invocation; so is a received batch of the jobs queue (timed from
 * the receive to the delete of the batch). In `detailed` mode DynamoDB calls also carry their request units: reads
 * DynamoDB Local's ConsumedCapacity; writes (whose ConsumedCapacity DynamoDB Local gets wrong for transactions) are
 * computed from the item read just before and after with an uncounted client (see writeUnits).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Server, type IncomingMessage, type ServerResponse } from 'node:http';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import { X509Certificate } from 'node:crypto';
import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SFNClient } from '@aws-sdk/client-sfn';
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { StateMachine } from 'aws-local-stepfunctions';
import { TABLE_INDEXES } from '#shared/adapters/aws/table-schema.ts';
import { KeyFileSigner } from '#shared/adapters/local/key-file-signer.ts';
import { workflows } from '#infra/routes.ts';
import { itemKinds, itemSize, jobTypes } from './call-kinds.ts';
export { itemSize } from './call-kinds.ts';

/** The extended key usage of a timestamp authority's certificate. */
const TIME_STAMPING = '1.3.6.1.5.5.7.3.8';

/**
 * The seal key's signatures (a KMS Sign each on AWS): the KMS Sign calls, or where the seal key is a key file used
 * directly, its signatures; never the local timestamp authority's. (The local stack's KMS signs with the key file,
 * so its calls show up under both names.)
 */
export function sealSignatures(calls: readonly AwsCall[]): AwsCall[] {
  const kms = calls.filter((c) => c.service === 'KMS' && c.operation === 'Sign');
  return kms.length > 0 ? kms : calls.filter((c) => c.service === 'LocalKey' && c.operation === 'Sign');
}

export type Service = 'DynamoDB' | 'S3' | 'SES' | 'SQS' | 'SFN' | 'KMS' | 'SNS' | 'SecretsManager' | 'LocalKey';

export interface AwsCall {
  tag: string;
  /** The lifecycle step the call belongs to (stepOf): a request's `x-bench-step`, a task state, a jobs batch's job types. */
  step?: string;
  service: Service;
  operation: string;
  /** DynamoDB request units (detailed mode): read, write to the table, write to the indexes. */
  rru?: number;
  wru?: number;
  indexWru?: number;
  /** Where the write units went (detailed mode): the table or an index, and the partition key. */
  partitions?: Partition[];
  /** S3 PutObject body bytes; SES attachment bytes; SQS message bytes. */
  bytes?: number;
  /** SES recipients; SQS messages received or deleted. */
  count?: number;
  /** DynamoDB: the kinds of item touched (`ENV#/ENV`, `RATE#tok/RATE`), ids left out. */
  items?: string;
  /** SQS sends: the job types the message (or batch of messages) carries. */
  jobs?: string;
}

export interface Partition { space: string; pk: string; wru: number }

/** One Lambda invocation as the local stack serves it: an HTTP request, a Task state, a jobs batch. */
export interface Invocation { tag: string; handler: string; ms: number; status?: number; step?: string }

export interface Execution { stateMachine: string; ms: number; transitions: number; ok: boolean; startedBy: string }

export const recorder = {
  calls: [] as AwsCall[],
  invocations: [] as Invocation[],
  executions: [] as Execution[],
  detailed: false,
  /** Sees every counted call before it is sent (the API figure captures one request's calls to replay them). */
  capture: undefined as ((client: { send: (command: never) => Promise<unknown> }, command: { input: Record<string, unknown>; constructor: unknown }) => void) | undefined,
  /** An uncounted document client on the same table, for the transaction accounting's item reads. */
  snapshot: undefined as { client: DynamoDBDocumentClient; table: string } | undefined,
  reset(): void {
    this.calls = [];
    this.invocations = [];
    this.executions = [];
  },
};

/** Clients the bench itself uses (the floors): never counted. */
export const uncounted = new WeakSet<object>();

export const context = new AsyncLocalStorage<{ tag: string; step?: string }>();
export const JOBS_TAG = 'jobs|functions/workers/jobs.ts';
export const SCHEDULE_TAG = 'schedule|sweeps';
const tagNow = () => context.getStore()?.tag ?? 'untagged';
/** The job types of the jobs batch being handled (the local poller handles one batch at a time). */
let jobsBatch: string | undefined;
const stepNow = (tag: string) => context.getStore()?.step ?? (tag === JOBS_TAG && jobsBatch ? jobsBatch : undefined);
export const handlerOf = (tag: string) => tag.slice(tag.indexOf('|') + 1);

let installed = false;

export function installHooks(): void {
  if (installed) return;
  installed = true;
  const classes: [Service, { prototype: object }][] = [
    ['DynamoDB', DynamoDBClient], ['DynamoDB', DynamoDBDocumentClient], ['S3', S3Client], ['SES', SESv2Client], ['SQS', SQSClient],
    ['SFN', SFNClient], ['KMS', KMSClient], ['SNS', SNSClient], ['SecretsManager', SecretsManagerClient],
  ];
  for (const [service, cls] of classes) wrapSend(service, cls.prototype as SendTarget);
  wrapHttpServer();
  wrapStateMachine();
  const signer = KeyFileSigner.prototype as { signDigest: (this: KeyFileSigner, digest: Uint8Array) => Promise<Uint8Array> };
  const signDigest = signer.signDigest;
  // The local timestamp authority signs with a key file too; on AWS a TSA outside does that, so only the seal key's
  // signatures stand for KMS Sign calls.
  signer.signDigest = async function (this: KeyFileSigner, digest: Uint8Array) {
    const tag = tagNow();
    const [certificate] = await this.certificateChain();
    const timestamps = certificate !== undefined && (new X509Certificate(certificate).keyUsage as string[] | undefined)?.includes(TIME_STAMPING) === true;
    recorder.calls.push({ tag, service: 'LocalKey', operation: timestamps ? 'TimestampSign' : 'Sign' });
    return signDigest.call(this, digest);
  };
}

interface Command { input: Record<string, unknown>; constructor: { name: string } }
type Send = (this: object, command: Command, ...rest: unknown[]) => Promise<Record<string, unknown>>;
interface SendTarget { send: Send }

/** Document client commands by their low-level operation. */
const DOCUMENT_OPERATIONS: Record<string, string> = {
  Get: 'GetItem', Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', BatchGet: 'BatchGetItem', BatchWrite: 'BatchWriteItem',
  TransactGet: 'TransactGetItems', TransactWrite: 'TransactWriteItems',
};
const READ_OPERATIONS = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem']);
const WRITE_OPERATIONS = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

const receivedAt = new WeakMap<object, number>();

function wrapSend(service: Service, proto: SendTarget): void {
  const inherited = proto.send;
  proto.send = async function (this: object, command: Command, ...rest: unknown[]) {
    if (uncounted.has(this)) return inherited.call(this, command, ...rest);
    const name = command.constructor.name.replace(/Command$/, '');
    const operation = service === 'DynamoDB' ? (DOCUMENT_OPERATIONS[name] ?? name) : name;
    const tag = tagNow();
    const call: AwsCall = { tag, service, operation, step: stepNow(tag), ...(service === 'DynamoDB' ? { items: itemKinds(command.input) } : {}) };
    recorder.calls.push(call);
    recorder.capture?.(this as { send: (command: never) => Promise<unknown> }, command);
    const accounted = service === 'DynamoDB' && recorder.detailed;
    if (accounted && READ_OPERATIONS.has(operation)) command.input.ReturnConsumedCapacity = 'TOTAL';
    const targets = accounted && WRITE_OPERATIONS.has(operation) ? await snapshotTargets(operation, command.input) : undefined;
    let output: Record<string, unknown>;
    try {
      output = await inherited.call(this, command, ...rest);
    } catch (error) {
      // A refused conditional write is still charged: its minimum, per item.
      if (targets) call.wru = targets.length * (operation === 'TransactWriteItems' ? 2 : 1);
      throw error;
    }
    if (targets) Object.assign(call, await writeUnits(operation, targets));
    else if (accounted && READ_OPERATIONS.has(operation)) call.rru = readUnits(output);
    else if (accounted && operation === 'TransactGetItems') {
      call.rru = ((output.Responses ?? []) as { Item?: Item }[]).reduce((n, r) => n + 2 * Math.max(1, Math.ceil(itemSize(r.Item) / 4096)), 0);
    }
    if (service === 'S3' && operation === 'PutObject') call.bytes = byteLength(command.input.Body);
    if (service === 'SES') Object.assign(call, sesUsage(command.input));
    if (service === 'SQS') sqsUsage(this, operation, command.input, output, call);
    return output;
  };
}

function byteLength(body: unknown): number {
  if (typeof body === 'string') return Buffer.byteLength(body);
  if (body instanceof Uint8Array) return body.byteLength;
  return 0;
}

function sesUsage(input: Record<string, unknown>): Pick<AwsCall, 'count' | 'bytes'> {
  const destination = (input.Destination ?? {}) as Record<string, unknown[] | undefined>;
  const count = ['ToAddresses', 'CcAddresses', 'BccAddresses'].reduce((n, k) => n + (destination[k]?.length ?? 0), 0);
  const simple = ((input.Content as { Simple?: { Attachments?: { RawContent?: Uint8Array }[] } } | undefined)?.Simple?.Attachments) ?? [];
  return { count, bytes: simple.reduce((n, a) => n + (a.RawContent?.byteLength ?? 0), 0) };
}

function sqsUsage(client: object, operation: string, input: Record<string, unknown>, output: Record<string, unknown>, call: AwsCall): void {
  if (operation === 'SendMessage') {
    call.bytes = byteLength(input.MessageBody);
    call.jobs = jobTypes([input.MessageBody as string | undefined]);
  }
  if (operation === 'SendMessageBatch') {
    const entries = (input.Entries ?? []) as { MessageBody?: string }[];
    call.bytes = entries.reduce((n, e) => n + byteLength(e.MessageBody), 0);
    call.jobs = jobTypes(entries.map((e) => e.MessageBody));
  }
  if (operation === 'ReceiveMessage') {
    const messages = (output.Messages ?? []) as { Body?: string }[];
    call.count = messages.length;
    if (call.count > 0) receivedAt.set(client, performance.now());
    if (call.count > 0 && call.tag === JOBS_TAG) call.step = jobsBatch = `jobs batch: ${jobTypes(messages.map((m) => m.Body))}`;
  }
  if (operation === 'DeleteMessageBatch' || operation === 'DeleteMessage') {
    call.count = operation === 'DeleteMessage' ? 1 : ((input.Entries ?? []) as unknown[]).length;
    const start = receivedAt.get(client);
    if (start !== undefined && call.tag === JOBS_TAG) recorder.invocations.push({ tag: JOBS_TAG, handler: handlerOf(JOBS_TAG), ms: performance.now() - start, step: jobsBatch });
    receivedAt.delete(client);
    if (call.tag === JOBS_TAG) jobsBatch = undefined;
  }
}

/** DynamoDB Local's ConsumedCapacity of a read (its single-item and query figures match DynamoDB's rules). */
function readUnits(output: Record<string, unknown>): number {
  const raw = output.ConsumedCapacity as { CapacityUnits?: number } | { CapacityUnits?: number }[] | undefined;
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return list.reduce((n, c) => n + (c.CapacityUnits ?? 0), 0);
}

type Item = Record<string, unknown>;
interface Target { table: string; key: Item; before: Item | undefined }

async function readItem(table: string, key: Item): Promise<Item | undefined> {
  const snapshot = recorder.snapshot;
  if (!snapshot) return undefined;
  return (await snapshot.client.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item;
}

/** The items a write touches, each read just before it. */
async function snapshotTargets(operation: string, input: Record<string, unknown>): Promise<Target[]> {
  const keyOf = (body: { Key?: Item; Item?: Item }) => body.Key ?? { PK: body.Item?.PK, SK: body.Item?.SK };
  let bodies: { table: string; key: Item }[];
  if (operation === 'TransactWriteItems') {
    bodies = ((input.TransactItems ?? []) as Record<string, { TableName?: string; Key?: Item; Item?: Item }>[])
      .flatMap((entry) => Object.values(entry).map((body) => ({ table: body.TableName ?? '', key: keyOf(body) })));
  } else if (operation === 'BatchWriteItem') {
    bodies = Object.entries((input.RequestItems ?? {}) as Record<string, Record<string, { Key?: Item; Item?: Item }>[]>)
      .flatMap(([table, requests]) => requests.flatMap((r) => Object.values(r).map((body) => ({ table, key: keyOf(body) }))));
  } else {
    bodies = [{ table: String(input.TableName), key: keyOf(input) }];
  }
  return Promise.all(bodies.map(async (b) => ({ ...b, before: await readItem(b.table, b.key) })));
}

/**
 * A write's units from the item before and after: 1 WRU per KB of the larger (2 in a transaction), on the item's
 * partition; 1 WRU per index entry put or removed (the indexes project keys only), on the index's partition.
 */
async function writeUnits(operation: string, targets: Target[]): Promise<Pick<AwsCall, 'wru' | 'indexWru' | 'partitions'>> {
  const factor = operation === 'TransactWriteItems' ? 2 : 1;
  const partitions: Partition[] = [];
  let wru = 0;
  let indexWru = 0;
  for (const target of targets) {
    const after = await readItem(target.table, target.key);
    const units = factor * Math.max(1, Math.ceil(Math.max(itemSize(target.before), itemSize(after)) / 1024));
    wru += units;
    partitions.push({ space: 'table', pk: String(target.key.PK), wru: units });
    for (const index of TABLE_INDEXES) {
      const was = indexKey(target.before, index);
      const is = indexKey(after, index);
      if (was?.key === is?.key) continue;
      for (const entry of [was, is]) {
        if (!entry) continue;
        indexWru += 1;
        partitions.push({ space: index.name, pk: entry.pk, wru: 1 });
      }
    }
  }
  return { wru, indexWru, partitions };
}

function indexKey(item: Item | undefined, index: { pk: string; sk: string }): { pk: string; key: string } | undefined {
  const pk = item?.[index.pk];
  const sk = item?.[index.sk];
  return pk === undefined || sk === undefined ? undefined : { pk: typeof pk === 'string' ? pk : JSON.stringify(pk), key: JSON.stringify([pk, sk]) };
}

type Emit = (this: Server, event: string | symbol, ...args: unknown[]) => boolean;

function wrapHttpServer(): void {
  const proto = Server.prototype as unknown as { emit: Emit };
  const emit = proto.emit;
  proto.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
    if (event !== 'request') return emit.call(this, event, ...args);
    const [req, res] = args as [IncomingMessage, ServerResponse];
    const tag = req.headers['x-bench-tag'];
    if (typeof tag !== 'string') return emit.call(this, event, ...args);
    const header = req.headers['x-bench-step'];
    const step = typeof header === 'string' ? header : undefined;
    const start = performance.now();
    res.once('finish', () => { recorder.invocations.push({ tag, handler: handlerOf(tag), ms: performance.now() - start, status: res.statusCode, step }); });
    return context.run({ tag, step }, () => emit.call(this, event, ...args));
  };
}

type TaskHandler = (input: unknown) => Promise<unknown>;
interface RunOptions { overrides?: { taskResourceLocalHandlers?: Record<string, TaskHandler> } & Record<string, unknown> }
type Run = (this: StateMachine, input: unknown, options?: RunOptions) => { result: Promise<unknown> };

/** Task state name -> its handler module, from the manifest. */
const TASK_HANDLERS = new Map(workflows.flatMap((w) => Object.entries(w.tasks).map(([state, task]) => [state, { handler: task.handler, machine: w.name }] as const)));

function wrapStateMachine(): void {
  const proto = StateMachine.prototype as unknown as { run: Run };
  const run = proto.run;
  proto.run = function (this: StateMachine, input: unknown, options?: RunOptions) {
    const handlers = options?.overrides?.taskResourceLocalHandlers ?? {};
    const execution: Execution = { stateMachine: 'unknown', ms: 0, transitions: 0, ok: false, startedBy: tagNow() };
    const wrapped: Record<string, TaskHandler> = {};
    for (const [state, handler] of Object.entries(handlers)) {
      const task = TASK_HANDLERS.get(state);
      if (task) execution.stateMachine = task.machine;
      wrapped[state] = async (taskInput) => {
        execution.transitions++;
        if (!task) return handler(taskInput); // a Wait state the local runner turned into a task: a transition, no Lambda
        const tag = `task|${task.handler}`;
        const step = `${task.machine} task ${state}`;
        const start = performance.now();
        try {
          return await context.run({ tag, step }, () => handler(taskInput));
        } finally {
          recorder.invocations.push({ tag, handler: task.handler, ms: performance.now() - start, step });
        }
      };
    }
    const start = performance.now();
    const running = run.call(this, input, { ...options, overrides: { ...options?.overrides, taskResourceLocalHandlers: wrapped } });
    const done = (ok: boolean) => () => { recorder.executions.push({ ...execution, ms: performance.now() - start, ok }); };
    running.result.then(done(true), done(false));
    return running;
  };
}

/** Starts `fn` with every interval timer it creates running its callback under the schedule tag (the sweeps). */
export async function withScheduleTag<T>(fn: () => Promise<T>): Promise<T> {
  const original = globalThis.setInterval;
  const tagged = ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) =>
    original(() => { context.run({ tag: SCHEDULE_TAG }, () => { callback(...args); }); }, ms)) as typeof setInterval;
  globalThis.setInterval = tagged;
  try {
    return await context.run({ tag: JOBS_TAG }, fn);
  } finally {
    globalThis.setInterval = original;
  }
}
