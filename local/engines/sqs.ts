import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { startFauxqs, type FauxqsServer } from 'fauxqs';
import { readSaved, writeSaved } from '../saved-state.ts';
import { refuseIfEnginesBarred, type RunningEngine } from './types.ts';

export interface QueueSpec {
  name: string;
  visibilityTimeoutSeconds: number;
  /** Messages received this many times without success move to `<name>-dlq`. */
  maxReceiveCount: number;
}

export interface SqsOptions {
  /** Keep every queue's messages in this file across restarts; omitted: in memory only. */
  stateFile?: string;
}

export interface RunningSqs extends RunningEngine {
  /** Queue URLs by name, and the dead-letter queue URL of each. */
  queues: Record<string, { url: string; dlqUrl: string }>;
  /** Messages waiting or in flight on a queue (0 when it is empty). */
  depth(name: string): number;
}

/** A message attribute as fauxqs holds it (a binary value in base64). */
interface SavedAttribute { DataType: string; StringValue?: string; BinaryValue?: string }

/** A message as kept between runs: what SQS would still hold for it, and when it may next be received. */
interface SavedMessage {
  body: string;
  attributes: Record<string, SavedAttribute>;
  sentTimestamp: number;
  receiveCount: number;
  firstReceiveTimestamp?: number;
  /** Epoch ms: a delayed message's due time, an in-flight one's end of visibility; 0 when it is waiting now. */
  visibleAt: number;
}
type SavedQueues = Record<string, SavedMessage[]>;

/** How often the messages are written while running (besides at stop): what a crash can lose. */
const SAVE_EVERY_MS = 1_000;
/** SQS's longest delay. */
const MAX_DELAY_SECONDS = 900;

/**
 * fauxqs in this process (SQS API on 127.0.0.1), with each queue and its DLQ created up front. fauxqs 1 keeps messages
 * in memory only (its SQLite persistence needs Node 22.5), so with a state file the messages are written there every
 * second and at stop, and sent back at start: waiting ones wait, delayed ones keep their due time, and ones in
 * flight when the stack stopped come back once their visibility timeout ends, with their receive counts.
 */
export async function startSqs(queues: readonly QueueSpec[], options: SqsOptions = {}): Promise<RunningSqs> {
  refuseIfEnginesBarred('the SQS emulator');
  const server = await startFauxqs({ port: 0, host: '127.0.0.1', logger: false });
  const created: RunningSqs['queues'] = {};
  const urls = new Map<string, string>();
  for (const spec of queues) {
    const dlq = server.createQueue(`${spec.name}-dlq`);
    const queue = server.createQueue(spec.name, {
      attributes: {
        VisibilityTimeout: String(spec.visibilityTimeoutSeconds),
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.queueArn, maxReceiveCount: spec.maxReceiveCount }),
      },
    });
    created[spec.name] = { url: queue.queueUrl, dlqUrl: dlq.queueUrl };
    urls.set(spec.name, queue.queueUrl).set(`${spec.name}-dlq`, dlq.queueUrl);
  }
  const { stateFile } = options;
  let save = () => { /* in memory only */ };
  let timer: NodeJS.Timeout | undefined;
  if (stateFile) {
    await restore(server, urls, (readSaved(stateFile) as SavedQueues | undefined) ?? {});
    let written = '';
    save = () => {
      const state = JSON.stringify(snapshot(server, [...urls.keys()]));
      if (state !== written) writeSaved(stateFile, state);
      written = state;
    };
    save();
    timer = setInterval(save, SAVE_EVERY_MS);
    timer.unref();
  }
  let stopping: Promise<void> | undefined;
  return {
    endpoint: server.address,
    queues: created,
    depth: (name) => {
      const state = server.inspectQueue(name);
      if (!state) return 0;
      return state.messages.ready.length + state.messages.delayed.length + state.messages.inflight.length;
    },
    stop: () => (stopping ??= (async () => {
      clearInterval(timer);
      save();
      await server.stop();
    })()),
  };
}

function snapshot(server: FauxqsServer, names: readonly string[]): SavedQueues {
  const saved: SavedQueues = {};
  for (const name of names) {
    const state = server.inspectQueue(name);
    if (!state) continue;
    const { ready, delayed, inflight } = state.messages;
    saved[name] = [
      ...ready.map((message) => ({ message, visibleAt: 0 })),
      ...delayed.map((message) => ({ message, visibleAt: message.delayUntil ?? 0 })),
      ...inflight.map(({ message, visibilityDeadline }) => ({ message, visibleAt: visibilityDeadline })),
    ].map(({ message, visibleAt }) => ({
      body: message.body, attributes: message.messageAttributes, sentTimestamp: message.sentTimestamp,
      receiveCount: message.approximateReceiveCount, firstReceiveTimestamp: message.approximateFirstReceiveTimestamp, visibleAt,
    }));
  }
  return saved;
}

/**
 * Sends each kept message again through the SQS API, delayed until it may be received, then gives it back what
 * SendMessage cannot set (its receive count, first receipt, sent time, a due time beyond 15 minutes) on the message
 * fauxqs holds.
 */
async function restore(server: FauxqsServer, urls: ReadonlyMap<string, string>, saved: SavedQueues): Promise<void> {
  const sqs = new SQSClient({ endpoint: server.address, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    for (const [name, messages] of Object.entries(saved)) {
      const url = urls.get(name);
      if (!url) continue;
      for (const kept of messages) {
        const wait = Math.ceil((kept.visibleAt - Date.now()) / 1000);
        const { MessageId } = await sqs.send(new SendMessageCommand({
          QueueUrl: url, MessageBody: kept.body, MessageAttributes: sendable(kept.attributes), DelaySeconds: Math.max(0, Math.min(wait, MAX_DELAY_SECONDS)),
        }));
        const held = server.inspectQueue(name)?.messages;
        const message = [...(held?.ready ?? []), ...(held?.delayed ?? [])].find((m) => m.messageId === MessageId);
        if (!message) continue;
        Object.assign(message, { approximateReceiveCount: kept.receiveCount, approximateFirstReceiveTimestamp: kept.firstReceiveTimestamp, sentTimestamp: kept.sentTimestamp });
        if (wait > 0) message.delayUntil = kept.visibleAt;
      }
    }
  } finally {
    sqs.destroy();
  }
}

const sendable = (attributes: Record<string, SavedAttribute>) => Object.fromEntries(Object.entries(attributes).map(([name, a]) => [name, {
  DataType: a.DataType, StringValue: a.StringValue, BinaryValue: a.BinaryValue === undefined ? undefined : Buffer.from(a.BinaryValue, 'base64'),
}]));
