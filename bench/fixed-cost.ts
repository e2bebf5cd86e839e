/**
 * Figure 5, second part: what a deployment costs a month with no envelope at all, from the synthesized stacks (the
 * default settings, no bundling): its KMS keys, secrets, dashboards and alarms, each scheduled sweep's invocations
 * (each a Lambda request and duration, an X-Ray trace, log lines and a few index queries), and the idle long polls
 * of each SQS event source. List prices (prices.ts), beyond every free tier (a new account's would cover much of it).
 */
import { synthesize } from '#test/support/templates.ts';
import { fmt, type Row } from './lib.ts';
import { PRICES, PRICES_CHECKED } from './prices.ts';

const MINUTES_A_MONTH = 30 * 24 * 60;
const MINUTES: Record<string, number> = { minute: 1, minutes: 1, hour: 60, hours: 60, day: 1440, days: 1440 };
/** One sweep: about 100 ms at 512 MB, one query per index shard (8, eventually consistent, a half unit each). */
const SWEEP_GB_SECONDS = 0.1 * 0.5;
const SWEEP_READ_UNITS = 8 * 0.5;
const LOG_BYTES = 1200;
/** Lambda keeps up to 5 long polls (20 s each) open on a queue it reads, messages or not. */
const IDLE_POLLS_A_MONTH = 5 * 3 * MINUTES_A_MONTH;

interface Resource { Type: string; Properties?: Record<string, unknown> }

function resources(): Resource[] {
  const { templates } = synthesize();
  return Object.values(templates).flatMap((t) => Object.values((t.toJSON() as { Resources: Record<string, Resource> }).Resources));
}

/** Invocations a month of a `rate(n unit)` schedule; 0 for anything else. */
function perMonth(expression: unknown): number {
  const match = /^rate\((\d+) (\w+)\)$/.exec(String(expression));
  const minutes = match ? Number(match[1]) * (MINUTES[match[2] ?? ''] ?? 0) : 0;
  return minutes > 0 ? MINUTES_A_MONTH / minutes : 0;
}

export function fixedCostFigure(): Row[] {
  const all = resources();
  const count = (type: string) => all.filter((r) => r.Type === type).length;
  const schedules = all.filter((r) => r.Type === 'AWS::Events::Rule' && r.Properties?.ScheduleExpression).map((r) => perMonth(r.Properties?.ScheduleExpression));
  const sweeps = schedules.reduce((a, b) => a + b, 0);
  const perSweep = PRICES.lambda.perRequest + SWEEP_GB_SECONDS * PRICES.lambda.gbSecondArm + PRICES.xray.perTrace
    + (LOG_BYTES / 2 ** 30) * PRICES.cloudWatch.logsPerGb + SWEEP_READ_UNITS * PRICES.dynamodb.perReadUnit;
  const pollers = count('AWS::Lambda::EventSourceMapping');
  const lines: { what: string; quantity: string; usd: number; source: string }[] = [
    { what: 'KMS keys', quantity: `${String(count('AWS::KMS::Key'))} keys (seal, data, alarm topic)`, usd: count('AWS::KMS::Key') * PRICES.kmsKeys.keyMonth, source: PRICES.kmsKeys.source },
    { what: 'Secrets Manager', quantity: `${String(count('AWS::SecretsManager::Secret'))} secrets`, usd: count('AWS::SecretsManager::Secret') * PRICES.secretsManager.secretMonth, source: PRICES.secretsManager.source },
    { what: 'CloudWatch dashboard', quantity: String(count('AWS::CloudWatch::Dashboard')), usd: count('AWS::CloudWatch::Dashboard') * PRICES.cloudWatch.dashboardMonth, source: PRICES.cloudWatch.source },
    { what: 'CloudWatch alarms', quantity: String(count('AWS::CloudWatch::Alarm')), usd: count('AWS::CloudWatch::Alarm') * PRICES.cloudWatch.alarmMonth, source: PRICES.cloudWatch.source },
    {
      what: 'Scheduled sweeps', quantity: `${String(schedules.length)} schedules, ${fmt.int(sweeps)} invocations (request, 100 ms at 512 MB, trace, logs, 8 index queries each)`,
      usd: sweeps * perSweep, source: PRICES.lambda.source,
    },
    { what: 'SQS idle long polls', quantity: `${String(pollers)} event source, up to ${fmt.int(IDLE_POLLS_A_MONTH * pollers)} receives`, usd: IDLE_POLLS_A_MONTH * pollers * PRICES.sqs.perRequest, source: PRICES.sqs.source },
  ];
  const total = lines.reduce((n, l) => n + l.usd, 0);
  return [
    ...lines.map((l): Row => ({ figure: '5 Cost', what: `fixed: ${l.what}`, ours: `${fmt.usd(l.usd)}/month`, other: l.quantity, note: l.source })),
    {
      figure: '5 Cost', what: 'fixed monthly cost at zero traffic', ours: `${fmt.usd(total)}/month`,
      note: `list prices checked ${PRICES_CHECKED}, beyond the free tiers; custom metrics ($0.30 each a month while published) come with traffic`,
    },
  ];
}
