/**
 * Figure 5: what one two-signer envelope of the lifecycle figure costs on AWS at list prices (prices.ts), itemised.
 * Quantities per envelope come from the lifecycle runs (aws-calls.ts): Lambda invocations and their measured
 * durations (the timed run) at each function's configured memory; API Gateway requests (the client's calls, polls
 * excluded); DynamoDB request units, S3 requests and bytes stored, SES recipients and attachment bytes, SQS requests
 * (the detailed run); Step Functions transitions and KMS signatures; the signing host's CloudFront requests and bytes
 * (the signer-facing calls, and the web bundle's files per signer visit from web/dist/build-report.json); X-Ray
 * traces, cold-start init billing and log ingestion, under the assumptions named beside them. What a deployment costs
 * at zero traffic (keys, secrets, dashboard, alarms, sweeps) is fixed-cost.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { handlerOf, JOBS_TAG, sealSignatures, type AwsCall } from './aws-calls.ts';
import { memoryOf } from './bundles.ts';
import { fmt, type Row } from './lib.ts';
import type { LifecycleResult, Recorded } from './lifecycle.ts';
import { HOSTED_PER_ENVELOPE_USD, PRICES, PRICES_CHECKED } from './prices.ts';

/** S3 requests billed at the PUT rate (DELETE is free; the rest bills as GET). */
const S3_PUT_CLASS = new Set(['PutObject', 'CopyObject', 'PostObject', 'ListObjects', 'ListObjectsV2', 'PutObjectTagging', 'CreateMultipartUpload', 'UploadPart', 'CompleteMultipartUpload']);
const S3_FREE = new Set(['DeleteObject', 'DeleteObjects']);
/** Retention of the documents after the envelope ends (the tenant default, decision 28): one month of storage. */
const STORAGE_MONTHS = 1;
/**
 * Cold starts: at the low, uneven traffic of most deployments about every other invocation of an envelope's life finds
 * no warm container (an idle one is reclaimed within minutes); each bills its init, about 200 ms here (figure 4).
 */
const COLD_SHARE = 0.5;
const INIT_SECONDS = 0.2;
/** Log bytes per invocation: START, END and REPORT lines (with the X-Ray trace id) and a structured line or two. */
const LOG_BYTES_PER_INVOCATION = 1200;
/** API routes a signer's browser calls through the signing host's CloudFront. */
const SIGNER_FACING = /^functions\/api\/(signing-|consent|sign\.ts|otp-|download-|embedded-)/;

/** What a signer's browser fetches from the signing host per visit: the first load, pdf.js and its worker. */
function signerVisit(): { requests: number; bytes: number; measured: boolean } {
  const report = new URL('../web/dist/build-report.json', import.meta.url);
  if (!existsSync(report)) return { requests: 7, bytes: 512_000, measured: false };
  const groups = JSON.parse(readFileSync(report, 'utf8')) as Record<string, { bytes: number; gzip?: number }[]>;
  const files = Object.entries(groups).filter(([name]) => /^(first load|pdf\.js)/.test(name)).flatMap(([, list]) => list);
  return { requests: files.length, bytes: sum(files.map((f) => f.gzip ?? f.bytes)), measured: true };
}

export interface CostLine { item: string; quantity: string; usd: number; source: string }

const sum = (list: readonly number[]) => list.reduce((a, b) => a + b, 0);
const calls = (r: Recorded, service: AwsCall['service'], ops?: (op: string) => boolean) =>
  r.calls.filter((c) => c.service === service && (!ops || ops(c.operation)));

/** Per-envelope quantities and their price. */
export function costLines(life: LifecycleResult): CostLine[] {
  const t = life.timed;
  const d = life.detailed;
  const perT = (n: number) => n / t.envelopes;
  const perD = (n: number) => n / d.envelopes;
  const lines: CostLine[] = [];

  // Lambda: every invocation of the timed run, billed by the millisecond at its function's memory.
  const byHandler = new Map<string, { count: number; gbSeconds: number; ms: number }>();
  for (const i of t.invocations) {
    const entry = byHandler.get(i.handler) ?? { count: 0, gbSeconds: 0, ms: 0 };
    entry.count++;
    entry.ms += Math.ceil(i.ms);
    entry.gbSeconds += (Math.ceil(i.ms) / 1000) * (memoryOf(i.handler) / 1024);
    byHandler.set(i.handler, entry);
  }
  const invocations = perT(sum([...byHandler.values()].map((e) => e.count)));
  const gbSeconds = perT(sum([...byHandler.values()].map((e) => e.gbSeconds)));
  const heaviest = [...byHandler].sort((a, b) => b[1].gbSeconds - a[1].gbSeconds).slice(0, 2)
    .map(([h, e]) => `${h.split('/').pop() ?? h} ${fmt.ms(e.ms / e.count)} x ${fmt.int(perT(e.count))} at ${String(memoryOf(h))} MB`).join('; ');
  lines.push({ item: 'Lambda duration (arm64)', quantity: `${gbSeconds.toFixed(3)} GB-s (${heaviest}; ...)`, usd: gbSeconds * PRICES.lambda.gbSecondArm, source: PRICES.lambda.source });
  lines.push({ item: 'Lambda requests', quantity: `${fmt.int(invocations)} invocations`, usd: invocations * PRICES.lambda.perRequest, source: PRICES.lambda.source });

  const apiRequests = perT(t.invocations.filter((i) => i.tag.startsWith('flow|')).length);
  lines.push({ item: 'API Gateway HTTP API requests', quantity: `${fmt.int(apiRequests)} requests`, usd: apiRequests * PRICES.apiGateway.httpPerRequest, source: PRICES.apiGateway.source });

  const dynamo = calls(d, 'DynamoDB');
  const wru = perD(sum(dynamo.map((c) => (c.wru ?? 0) + (c.indexWru ?? 0))));
  const indexWru = perD(sum(dynamo.map((c) => c.indexWru ?? 0)));
  const rru = perD(sum(dynamo.map((c) => c.rru ?? 0)));
  lines.push({ item: 'DynamoDB on-demand writes', quantity: `${fmt.int(wru)} WRU (${fmt.int(indexWru)} of them index entries) in ${fmt.int(perD(dynamo.filter((c) => c.wru !== undefined).length))} writes`, usd: wru * PRICES.dynamodb.perWriteUnit, source: PRICES.dynamodb.source });
  lines.push({ item: 'DynamoDB on-demand reads', quantity: `${fmt.int(rru)} RRU in ${fmt.int(perD(dynamo.filter((c) => c.rru !== undefined).length))} reads`, usd: rru * PRICES.dynamodb.perReadUnit, source: PRICES.dynamodb.source });

  const s3 = calls(d, 'S3');
  const puts = perD(s3.filter((c) => S3_PUT_CLASS.has(c.operation)).length);
  const gets = perD(s3.filter((c) => !S3_PUT_CLASS.has(c.operation) && !S3_FREE.has(c.operation)).length);
  const stored = perD(sum(s3.map((c) => c.bytes ?? 0)));
  lines.push({ item: 'S3 PUT-class requests', quantity: `${fmt.int(puts)} (puts, tags)`, usd: (puts / 1000) * PRICES.s3.putPer1000, source: PRICES.s3.source });
  lines.push({ item: 'S3 GET-class requests', quantity: fmt.int(gets), usd: (gets / 1000) * PRICES.s3.getPer1000, source: PRICES.s3.source });
  lines.push({ item: `S3 storage, ${String(STORAGE_MONTHS * 30)}-day retention`, quantity: `${fmt.size(stored)} for ${String(STORAGE_MONTHS)} month`, usd: (stored / 2 ** 30) * PRICES.s3.storageGbMonth * STORAGE_MONTHS, source: PRICES.s3.source });

  const transitions = perT(sum(t.executions.map((e) => e.transitions)));
  lines.push({ item: 'Step Functions standard transitions', quantity: `${fmt.int(transitions)} in ${fmt.int(perT(t.executions.length))} executions`, usd: transitions * PRICES.stepFunctions.perTransition, source: PRICES.stepFunctions.source });

  // Locally the seal key is a key file; on AWS each of its signatures is one KMS Sign (the timestamps are not ours).
  const kmsSigns = sealSignatures(t.calls).length;
  lines.push({ item: 'KMS asymmetric Sign (RSA 2048)', quantity: `${fmt.int(perT(kmsSigns))} signatures`, usd: perT(kmsSigns) * PRICES.kms.rsa2048PerRequest, source: PRICES.kms.source });

  const ses = calls(d, 'SES');
  const recipients = perD(sum(ses.map((c) => c.count ?? 0)));
  const attached = perD(sum(ses.map((c) => c.bytes ?? 0)));
  lines.push({ item: 'SES email', quantity: `${fmt.int(recipients)} recipients in ${fmt.int(perD(ses.length))} messages, ${fmt.size(attached)} attached`, usd: recipients * PRICES.ses.perEmail + (attached / 2 ** 30) * PRICES.ses.attachmentPerGb, source: PRICES.ses.source });

  // SQS as the Lambda event source bills it: sends, receives that got messages, deletes (idle long polls are a fixed cost).
  const sqs = calls(d, 'SQS').filter((c) => !(c.operation === 'ReceiveMessage' && !c.count));
  const sqsRequests = perD(sum(sqs.map((c) => Math.max(1, Math.ceil((c.bytes ?? 0) / 65_536)))));
  const jobs = perT(t.invocations.filter((i) => i.tag === JOBS_TAG).length);
  const signerCalls = perT(t.invocations.filter((i) => i.tag.startsWith('flow|') && SIGNER_FACING.test(handlerOf(i.tag))).length);
  const visits = perT(t.invocations.filter((i) => i.tag.startsWith('flow|') && handlerOf(i.tag) === 'functions/api/signing-context.ts').length);
  const visit = signerVisit();
  const edgeRequests = signerCalls + visits * visit.requests;
  const edgeBytes = visits * visit.bytes;
  lines.push({
    item: 'CloudFront (signing host)', quantity: `${fmt.int(edgeRequests)} requests (${fmt.int(signerCalls)} API, ${fmt.int(visits)} visits x ${String(visit.requests)} files), ${fmt.size(edgeBytes)} out${visit.measured ? '' : ' (web not built: assumed)'}`,
    usd: edgeRequests * PRICES.cloudFront.httpsPerRequest + (edgeBytes / 2 ** 30) * PRICES.cloudFront.perGbOut, source: PRICES.cloudFront.source,
  });
  // Every invocation starts or joins a trace; one per API request and per queue or workflow invocation is recorded.
  const traces = invocations;
  lines.push({ item: 'X-Ray traces recorded', quantity: `${fmt.int(traces)} (every invocation sampled: low traffic)`, usd: traces * PRICES.xray.perTrace, source: PRICES.xray.source });
  const initGbSeconds = perT(sum(t.invocations.map((i) => COLD_SHARE * INIT_SECONDS * (memoryOf(i.handler) / 1024))));
  lines.push({ item: 'Lambda init (cold starts, billed since August 2025)', quantity: `${initGbSeconds.toFixed(3)} GB-s (${String(COLD_SHARE * 100)}% of invocations cold, ${String(INIT_SECONDS * 1000)} ms each)`, usd: initGbSeconds * PRICES.lambda.gbSecondArm, source: PRICES.lambda.source });
  const logBytes = invocations * LOG_BYTES_PER_INVOCATION;
  lines.push({ item: 'CloudWatch Logs ingestion', quantity: `${fmt.size(logBytes)} (${String(LOG_BYTES_PER_INVOCATION)} B per invocation)`, usd: (logBytes / 2 ** 30) * PRICES.cloudWatch.logsPerGb, source: PRICES.cloudWatch.source });

  lines.push({ item: 'SQS requests', quantity: `${fmt.int(sqsRequests)} (send, receive, delete; ${fmt.int(jobs)} jobs batches)`, usd: sqsRequests * PRICES.sqs.perRequest, source: PRICES.sqs.source });
  return lines;
}

export function costFigure(life: LifecycleResult): Row[] {
  const lines = costLines(life);
  const total = sum(lines.map((l) => l.usd));
  return [
    ...lines.map((l): Row => ({ figure: '5 Cost', what: l.item, ours: fmt.usd(l.usd), other: l.quantity, note: l.source })),
    {
      figure: '5 Cost',
      what: 'one two-signer envelope on AWS, us-east-1 list prices',
      ours: fmt.usd(total),
      other: `hosted products: about $${String(HOSTED_PER_ENVELOPE_USD)}`,
      ratio: fmt.ratio(total / HOSTED_PER_ENVELOPE_USD),
      note: `list prices checked ${PRICES_CHECKED}; ${(HOSTED_PER_ENVELOPE_USD / total).toFixed(0)} envelopes for the price of one; the fixed monthly cost is the next rows`,
    },
  ];
}
