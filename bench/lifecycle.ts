/**
 * Figure 3: one envelope's life over HTTP on the local stack, one envelope at a time: create (multipart, a 2-page
 * PDF, two signers with authMethod none, a signature field each), send, each signer opens the signing context,
 * consents and signs (a drawn signature), then the envelope is polled every 20 ms until it is `completed` (sealed and
 * finalized by the workflow). Median and p95 over the run's envelopes, with the steps apart.
 *
 * The AWS calls of the same run are counted per envelope (aws-calls.ts; polls excluded). A second, short run of a
 * few envelopes in `detailed` mode adds what the price needs (request units, bytes stored, recipients); it is kept
 * apart because reading items around each write slows it down.
 */
import { makePdf } from '#test/support/pdfs.ts';
import { JOBS_TAG, recorder, type AwsCall, type Execution, type Invocation } from './aws-calls.ts';
import { fmt, median, percentile, sleep, type Row, type RunSize } from './lib.ts';
import { drawnSignature } from './seal-routes.ts';
import type { BenchStack } from './stack.ts';
import { stepRows, sweepRow, targetRows } from './lifecycle-steps.ts';

export interface Recorded {
  envelopes: number;
  calls: AwsCall[];
  invocations: Invocation[];
  executions: Execution[];
  /** The scheduled sweeps' calls during the run, and the run's length (they are not per envelope). */
  sweeps?: { calls: AwsCall[]; minutes: number };
}

export interface LifecycleResult {
  rows: Row[];
  /** The timed run: call counts and Lambda durations. */
  timed: Recorded;
  /** The detailed run: request units, bytes, recipients. */
  detailed: Recorded;
  totalMs: number[];
}

const api = (handler: string) => `functions/api/${handler}.ts`;
const POLL_MS = 20;

interface Steps { create: number; send: number; sign: number; seal: number; total: number }

async function oneEnvelope(stack: BenchStack, pdf: Uint8Array, signature: string, n: number): Promise<Steps> {
  const t0 = performance.now();
  const form = new FormData();
  form.append('data', JSON.stringify({
    tenantId: 'bench', subject: `Lifecycle ${String(n)}`,
    signers: [{ name: 'Ana Silva', email: 'ana@example.com', authMethod: 'none' }, { name: 'Ben Okafor', email: 'ben@example.com', authMethod: 'none' }],
    fields: [0, 1].map((signerIndex) => ({ signerIndex, type: 'signature', page: 1, x: 72, y: 72 + signerIndex * 80, w: 180, h: 50 })),
  }));
  form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'contract.pdf');
  const created = await stack.call<{ id: string }>('POST', '/v1/envelopes', `flow|${api('create-envelope')}`, { body: form, step: 'create' });
  if (created.status !== 201) throw new Error(`create: ${String(created.status)} ${JSON.stringify(created.body)}`);
  const id = created.body.id;
  const t1 = performance.now();
  const sent = await stack.call<{ signers: { signingUrl: string | null }[] }>('POST', `/v1/envelopes/${id}/send`, `flow|${api('send-envelope')}`, { body: {}, step: 'send' });
  if (sent.status !== 200) throw new Error(`send: ${String(sent.status)} ${JSON.stringify(sent.body)}`);
  const t2 = performance.now();
  for (const [i, signer] of sent.body.signers.entries()) {
    const token = signer.signingUrl?.split('/sign/')[1] ?? '';
    const link = { bearer: false };
    const who = `signer ${String(i + 1)}`;
    const context = await stack.call<{ fields: { id: string }[] }>('GET', `/v1/signing/${token}`, `flow|${api('signing-context')}`, { ...link, step: `${who} context` });
    if (context.status !== 200) throw new Error(`signing context: ${String(context.status)}`);
    const consent = await stack.call('POST', `/v1/signing/${token}/consent`, `flow|${api('consent')}`, { ...link, step: `${who} consent` });
    if (consent.status !== 200) throw new Error(`consent: ${String(consent.status)}`);
    const fields = context.body.fields.map((f) => ({ fieldId: f.id, signatureImageBase64: signature }));
    const signed = await stack.call('POST', `/v1/signing/${token}/sign`, `flow|${api('sign')}`, { ...link, body: { fields }, step: `${who} sign` });
    if (signed.status !== 200) throw new Error(`sign: ${String(signed.status)} ${JSON.stringify(signed.body)}`);
  }
  const t3 = performance.now();
  for (;;) {
    const got = await stack.call<{ status: string }>('GET', `/v1/envelopes/${id}`, `poll|${api('get-envelope')}`);
    if (got.body.status === 'completed') break;
    if (performance.now() - t3 > 60_000) throw new Error(`envelope ${id} not completed after 60 s (status ${got.body.status})`);
    await sleep(POLL_MS);
  }
  const t4 = performance.now();
  return { create: t1 - t0, send: t2 - t1, sign: t3 - t2, seal: t4 - t3, total: t4 - t0 };
}

/** Waits until the background (jobs after completion: emails with the sealed copy, retention tags) has gone quiet. */
async function settle(): Promise<void> {
  const busy = () => recorder.calls.filter((c) => !(c.service === 'SQS' && c.operation === 'ReceiveMessage' && !c.count)).length;
  let seen = -1;
  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline) {
    const now = busy();
    if (now === seen) return;
    seen = now;
    await sleep(700);
  }
}

const perEnvelope = (r: Recorded): Recorded => ({
  ...r,
  calls: r.calls.filter((c) => !c.tag.startsWith('poll|') && !c.tag.startsWith('schedule|')),
  invocations: r.invocations.filter((i) => !i.tag.startsWith('poll|')),
});

async function runEnvelopes(stack: BenchStack, count: number): Promise<{ steps: Steps[]; recorded: Recorded }> {
  const pdf = await makePdf({ pages: 2 });
  const signature = Buffer.from(drawnSignature()).toString('base64');
  recorder.reset();
  const started = performance.now();
  const steps: Steps[] = [];
  for (let i = 0; i < count; i++) steps.push(await oneEnvelope(stack, pdf, signature, i));
  await settle();
  const sweeps = { calls: recorder.calls.filter((c) => c.tag.startsWith('schedule|')), minutes: (performance.now() - started) / 60_000 };
  const recorded = perEnvelope({ envelopes: count, calls: recorder.calls, invocations: recorder.invocations, executions: recorder.executions, sweeps });
  recorder.reset();
  return { steps, recorded };
}

/** `S3 4, DynamoDB 31, ...` per envelope. */
export function callsPerEnvelope(r: Recorded): string {
  const by = new Map<string, number>();
  for (const c of r.calls) {
    if (c.service === 'SQS' && c.operation === 'ReceiveMessage' && !c.count) continue; // idle long polls
    by.set(c.service, (by.get(c.service) ?? 0) + 1);
  }
  return [...by].sort((a, b) => b[1] - a[1]).map(([s, n]) => `${s} ${fmt.int(n / r.envelopes)}`).join(', ');
}

export async function lifecycleFigure(stack: BenchStack, size: RunSize): Promise<LifecycleResult> {
  await runEnvelopes(stack, 1); // warm-up: every route, the workflow and the jobs worker once
  const timed = await runEnvelopes(stack, size.envelopes);
  recorder.detailed = true;
  let detailed: Awaited<ReturnType<typeof runEnvelopes>>;
  try {
    detailed = await runEnvelopes(stack, size.quick ? 2 : 5);
  } finally {
    recorder.detailed = false;
  }
  const total = timed.steps.map((s) => s.total);
  const step = (k: keyof Steps) => fmt.ms(median(timed.steps.map((s) => s[k])));
  const invocations = timed.recorded.invocations.length / size.envelopes;
  const jobs = timed.recorded.invocations.filter((i) => i.tag === JOBS_TAG).length / size.envelopes;
  const rows: Row[] = [{
    figure: '3 Lifecycle',
    what: `create -> send -> 2 signatures (authMethod none) -> completed, one at a time, ${String(size.envelopes)} envelopes`,
    ours: `median ${fmt.ms(median(total))}, p95 ${fmt.ms(percentile(total, 95))}`,
    note: `median steps: create ${step('create')}, send ${step('send')}, 2 signers ${step('sign')}, last signature to completed (seen by a 20 ms poll) ${step('seal')}`,
  }, {
    figure: '3 Lifecycle',
    what: 'AWS calls per envelope (same run; polls excluded)',
    ours: callsPerEnvelope(timed.recorded),
    note: `${fmt.int(invocations)} Lambda invocations per envelope (${fmt.int(jobs)} of them jobs batches); ${String(timed.recorded.executions.filter((e) => !e.ok).length)} failed workflow executions`,
  }, ...targetRows(timed.recorded.calls, timed.recorded.invocations, size.envelopes),
  ...stepRows(timed.recorded.calls, timed.recorded.invocations, size.envelopes),
  ...(timed.recorded.sweeps ? [sweepRow(timed.recorded.sweeps.calls, timed.recorded.sweeps.minutes)] : [])];
  return { rows, timed: timed.recorded, detailed: detailed.recorded, totalMs: total };
}
