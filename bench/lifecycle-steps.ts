/**
 * Figure 3's AWS calls per envelope, step by step (create, send, each signer's requests, the seal workflow's tasks,
 * each kind of jobs batch), so the next cut is visible, and the totals against their targets. The scheduled sweeps
 * run whether or not envelopes are made: their calls are listed apart, per minute of the run, not per envelope.
 */
import { JOBS_TAG, SCHEDULE_TAG, type AwsCall, type Invocation } from './aws-calls.ts';
import { fmt, type Row } from './lib.ts';

/** What the work asks for, per envelope: DynamoDB calls, SQS calls (sends, receives, deletes), Lambda invocations. */
export const CALL_TARGETS = { dynamo: 36, sqs: 10, lambda: 10 } as const;

const counted = (c: AwsCall) => !(c.service === 'SQS' && c.operation === 'ReceiveMessage' && !c.count);

export function stepOf(x: { tag: string; step?: string }): string {
  if (x.step) return x.step;
  if (x.tag === SCHEDULE_TAG) return 'sweeps';
  if (x.tag === JOBS_TAG) return 'jobs (between batches)';
  return x.tag;
}

/** `DynamoDB 4 (GetItem 2, TransactWriteItems 1, Query 1), SQS 1` per envelope. */
function describe(calls: readonly AwsCall[], per: number): string {
  const services = new Map<string, Map<string, number>>();
  for (const c of calls) {
    const ops = services.get(c.service) ?? new Map<string, number>();
    ops.set(c.operation, (ops.get(c.operation) ?? 0) + 1);
    services.set(c.service, ops);
  }
  const total = (ops: Map<string, number>) => [...ops.values()].reduce((a, b) => a + b, 0);
  return [...services].sort((a, b) => total(b[1]) - total(a[1])).map(([service, ops]) => {
    const detail = [...ops].sort((a, b) => b[1] - a[1]).map(([op, n]) => `${op} ${fmt.int(n / per)}`).join(', ');
    return `${service} ${fmt.int(total(ops) / per)} (${detail})`;
  }).join('; ') || 'none';
}

/** `webhook.event 2, retention.tag 1` per envelope: the jobs a step's SQS sends carried. */
function jobsPer(calls: readonly AwsCall[], per: number): string {
  const count = new Map<string, number>();
  for (const c of calls) {
    for (const part of c.jobs?.split(', ') ?? []) {
      const [type = '', times] = part.split(' x');
      count.set(type, (count.get(type) ?? 0) + Number(times ?? 1));
    }
  }
  return [...count].map(([type, n]) => `${type} ${fmt.int(n / per)}`).join(', ');
}

/** One row per step, in the order the steps first ran. */
export function stepRows(calls: readonly AwsCall[], invocations: readonly Invocation[], envelopes: number): Row[] {
  const order: string[] = [];
  const byStep = new Map<string, AwsCall[]>();
  for (const c of calls.filter(counted)) {
    const step = stepOf(c);
    if (!byStep.has(step)) { order.push(step); byStep.set(step, []); }
    byStep.get(step)?.push(c);
  }
  for (const i of invocations) {
    const step = stepOf(i);
    if (!byStep.has(step)) { order.push(step); byStep.set(step, []); }
  }
  return order.map((step) => {
    const stepCalls = byStep.get(step) ?? [];
    const lambdas = invocations.filter((i) => stepOf(i) === step).length;
    const queued = jobsPer(stepCalls, envelopes);
    return {
      figure: '3 Lifecycle',
      what: `per step: ${step}`,
      ours: describe(stepCalls, envelopes),
      note: [`${fmt.int(lambdas / envelopes)} Lambda invocations`, queued ? `queued: ${queued}` : ''].filter(Boolean).join('; '),
    };
  });
}

/** The sweeps' calls over the run (per minute): not the envelopes' cost, the service's idle one. */
export function sweepRow(calls: readonly AwsCall[], minutes: number): Row {
  const sweeps = calls.filter((c) => c.tag === SCHEDULE_TAG && counted(c));
  return { figure: '3 Lifecycle', what: 'sweeps, per minute of the run (not per envelope)', ours: describe(sweeps, minutes) };
}

/** The totals per envelope against the targets. */
export function targetRows(calls: readonly AwsCall[], invocations: readonly Invocation[], envelopes: number): Row[] {
  const per = (n: number) => n / envelopes;
  const dynamo = per(calls.filter((c) => c.service === 'DynamoDB').length);
  const sqs = per(calls.filter((c) => c.service === 'SQS' && counted(c)).length);
  const lambda = per(invocations.length);
  const row = (what: string, ours: number, target: number): Row => ({
    figure: '3 Lifecycle', what: `${what} per envelope`, ours: fmt.int(ours), other: `target <= ${String(target)}`,
    ratio: fmt.ratio(ours / target), note: ours <= target ? 'met' : 'missed',
  });
  return [
    row('DynamoDB calls', dynamo, CALL_TARGETS.dynamo),
    row('SQS calls (sends, non-empty receives, deletes)', sqs, CALL_TARGETS.sqs),
    row('Lambda invocations', lambda, CALL_TARGETS.lambda),
  ];
}
