/**
 * Figure 6, capacity on paper: for each part of an envelope's life, what it asks of each rate-limited AWS resource
 * per envelope (from the lifecycle runs), and so the envelopes per second at which the first default quota
 * (prices.ts, QUOTAS) is met. Lambda concurrency by Little's law: concurrent executions = envelopes/s x seconds of
 * Lambda per envelope. DynamoDB: the busiest partition key that more than one envelope writes (a tenant's list
 * index entries, an application's counters), at 1,000 WCU/s per key. SES at the rate and daily quota a production
 * account starts with. KMS: the seal key's signatures only (on AWS the timestamps come from an outside authority).
 * Transaction conflicts: a tenant's count shards are written by every status change of its envelopes; two
 * transactions on one item at once cancel one (it is retried). With N shards and w seconds per transaction, a share
 * p of commits meets another at about r = -ln(1-p) N / (2 k w) envelopes/s per tenant, k such commits per envelope.
 */
import { COUNTER_SHARDS } from '#shared/adapters/aws/dynamo-counters.ts';
import { handlerOf, sealSignatures, type AwsCall, type Invocation } from './aws-calls.ts';
import type { ApiResult } from './api.ts';
import { fmt, type Row } from './lib.ts';
import type { LifecycleResult } from './lifecycle.ts';
import { QUOTAS } from './prices.ts';

interface Flow { name: string; handlers: (handler: string) => boolean }

const isApi = (...names: string[]) => (h: string) => names.some((n) => h === `functions/api/${n}.ts`);
const FLOWS: Flow[] = [
  { name: 'create + send (API client)', handlers: isApi('create-envelope', 'send-envelope') },
  { name: '2 signers: context, consent, sign', handlers: isApi('signing-context', 'consent', 'sign') },
  { name: 'seal workflow, then notify (workers)', handlers: (h) => h.startsWith('functions/workers/') },
  { name: 'whole lifecycle', handlers: () => true },
];

interface Quota { value: number; name: string; source: string }
interface Demand { quota: Quota; perEnvelope: number; unit: string }

/** How long DynamoDB holds an item in a transaction, about its latency (an assumption: not measurable locally). */
const TRANSACTION_SECONDS = 0.03;
const RETRIED_SHARE = 0.1;
const TENANT_CONFLICTS: Quota = {
  value: (-Math.log(1 - RETRIED_SHARE) * COUNTER_SHARDS) / (2 * TRANSACTION_SECONDS),
  name: `DynamoDB transaction conflicts on a tenant's ${String(COUNTER_SHARDS)} count shards: 1 commit in ${String(1 / RETRIED_SHARE)} retried (per tenant, ${String(TRANSACTION_SECONDS * 1000)} ms per transaction)`,
  source: 'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html',
};

/** Ids in partition keys, so keys of one kind group together: UUIDs and long hex or base64url runs. */
const shapeOf = (pk: string) => pk.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<id>').replace(/[A-Za-z0-9_-]{20,}/g, '<id>');

/** The partition key written most per envelope among those shared by envelopes (fewer distinct keys of its kind than envelopes). */
function busiestSharedPartition(calls: readonly AwsCall[], envelopes: number): { key: string; wru: number } | undefined {
  const byKey = new Map<string, number>();
  for (const c of calls) for (const p of c.partitions ?? []) byKey.set(`${p.space} ${p.pk}`, (byKey.get(`${p.space} ${p.pk}`) ?? 0) + p.wru);
  const keysPerShape = new Map<string, number>();
  for (const key of byKey.keys()) keysPerShape.set(shapeOf(key), (keysPerShape.get(shapeOf(key)) ?? 0) + 1);
  let best: { key: string; wru: number } | undefined;
  for (const [key, wru] of byKey) {
    if ((keysPerShape.get(shapeOf(key)) ?? 0) >= envelopes) continue; // one per envelope: not shared
    if (!best || wru > best.wru) best = { key: shapeOf(key), wru };
  }
  return best && { key: best.key, wru: best.wru / envelopes };
}

function demands(life: LifecycleResult, flow: Flow): Demand[] {
  const t = life.timed;
  const d = life.detailed;
  const inFlow = (x: Invocation | AwsCall) => flow.handlers(handlerOf(x.tag));
  const invocations = t.invocations.filter(inFlow);
  const lambdaSeconds = invocations.reduce((n, i) => n + i.ms / 1000, 0) / t.envelopes;
  const apiRequests = invocations.filter((i) => i.tag.startsWith('flow|')).length / t.envelopes;
  const signs = sealSignatures(t.calls.filter(inFlow)).length / t.envelopes;
  const counted = d.calls.filter((c) => inFlow(c) && c.operation.startsWith('TransactWrite') && (c.partitions ?? []).some((p) => p.pk.startsWith('COUNTS#'))).length / d.envelopes;
  const workflowFlow = flow.handlers('functions/workers/seal.ts');
  const executions = workflowFlow ? t.executions.length / t.envelopes : 0;
  const transitions = workflowFlow ? t.executions.reduce((n, e) => n + e.transitions, 0) / t.envelopes : 0;
  const emails = d.calls.filter((c) => inFlow(c) && c.service === 'SES').reduce((n, c) => n + (c.count ?? 0), 0) / d.envelopes;
  const partition = busiestSharedPartition(d.calls.filter(inFlow), d.envelopes);
  return [
    { quota: QUOTAS.lambdaConcurrency, perEnvelope: lambdaSeconds, unit: 'Lambda-seconds' },
    { quota: QUOTAS.apiStageRate, perEnvelope: apiRequests, unit: 'API requests' },
    { quota: QUOTAS.apiAccountRate, perEnvelope: apiRequests, unit: 'API requests' },
    { quota: QUOTAS.kmsRsaPerSecond, perEnvelope: signs, unit: 'KMS Sign' },
    { quota: QUOTAS.sfnStartPerSecond, perEnvelope: executions, unit: 'executions' },
    { quota: QUOTAS.sfnTransitionsPerSecond, perEnvelope: transitions, unit: 'transitions' },
    { quota: QUOTAS.sesProductionPerSecond, perEnvelope: emails, unit: 'emails' },
    { quota: QUOTAS.sesProductionPerDay, perEnvelope: emails, unit: 'emails' },
    { quota: TENANT_CONFLICTS, perEnvelope: counted, unit: 'status-change commits' },
    { quota: QUOTAS.dynamoPartitionWcu, perEnvelope: partition?.wru ?? 0, unit: `WRU on ${partition?.key ?? '-'}` },
  ].filter((x) => x.perEnvelope > 0);
}

export function capacityFigure(life: LifecycleResult, _api?: ApiResult): Row[] {
  return FLOWS.map((flow): Row => {
    const ranked = demands(life, flow).map((x) => ({ ...x, rate: x.quota.value / x.perEnvelope })).sort((a, b) => a.rate - b.rate);
    const [first, second, third] = ranked;
    if (!first) return { figure: '6 Capacity', what: flow.name, ours: 'n/a' };
    const uses = (x: typeof first) => `${x.perEnvelope.toFixed(x.perEnvelope < 10 ? 2 : 0)} ${x.unit} per envelope`;
    const next = [second, third].filter((x) => x !== undefined).map((x) => `${x.quota.name.split(' (')[0] ?? ''} at ${fmt.int(x.rate)}/s`).join(', ');
    const partition = ranked.find((x) => x.quota === QUOTAS.dynamoPartitionWcu);
    return {
      figure: '6 Capacity',
      what: flow.name,
      ours: `${fmt.int(first.rate)} envelopes/s`,
      other: `${first.quota.name}: ${first.quota === QUOTAS.sesProductionPerDay ? '50,000/day' : `${fmt.int(first.quota.value)}${first.quota === QUOTAS.lambdaConcurrency ? ' at once' : '/s'}`} (${uses(first)})`,
      note: `${first.quota.source}; next: ${next || 'none'}${partition ? `; busiest shared DynamoDB key: ${uses(partition)}` : ''}`,
    };
  });
}
