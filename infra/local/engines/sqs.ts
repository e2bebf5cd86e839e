import { startFauxqs } from 'fauxqs';
import type { RunningEngine } from './types.ts';

export interface QueueSpec {
  name: string;
  visibilityTimeoutSeconds: number;
  /** Messages received this many times without success move to `<name>-dlq`. */
  maxReceiveCount: number;
}

export interface RunningSqs extends RunningEngine {
  /** Queue URLs by name, and the dead-letter queue URL of each. */
  queues: Record<string, { url: string; dlqUrl: string }>;
  /** Messages waiting or in flight on a queue (0 when it is empty). */
  depth(name: string): number;
}

/** fauxqs in this process (SQS API on 127.0.0.1, in memory), with each queue and its DLQ created up front. */
export async function startSqs(queues: readonly QueueSpec[]): Promise<RunningSqs> {
  const server = await startFauxqs({ port: 0, host: '127.0.0.1', logger: false });
  const created: RunningSqs['queues'] = {};
  for (const spec of queues) {
    const dlq = server.createQueue(`${spec.name}-dlq`);
    const queue = server.createQueue(spec.name, {
      attributes: {
        VisibilityTimeout: String(spec.visibilityTimeoutSeconds),
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.queueArn, maxReceiveCount: spec.maxReceiveCount }),
      },
    });
    created[spec.name] = { url: queue.queueUrl, dlqUrl: dlq.queueUrl };
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
    stop: () => (stopping ??= server.stop()),
  };
}
