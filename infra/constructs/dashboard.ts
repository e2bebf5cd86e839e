/**
 * The service's CloudWatch dashboard: what it did (envelopes sent, completed, voided, declined; signers reminded),
 * how sealing goes (duration), what failed (webhook deliveries, dead-lettered messages, function errors). The
 * counters are the EMF metrics the functions write (shared/adapters/emf-metrics.ts, namespace Esign, dimension
 * `service`), so the dashboard needs no permission and no agent.
 */
import { Duration } from 'aws-cdk-lib';
import { Dashboard, GraphWidget, MathExpression, Metric, TextWidget, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import type { ServiceFunction } from './service-function.ts';

const NAMESPACE = 'Esign';
const SERVICE = 'esign';
const HOUR = Duration.hours(1);

const auditEvents = (event: string, label: string) =>
  new Metric({ namespace: NAMESPACE, metricName: 'AuditEvents', dimensionsMap: { service: SERVICE, event }, statistic: 'Sum', period: HOUR, label });
const counter = (metricName: string, label: string) =>
  new Metric({ namespace: NAMESPACE, metricName, dimensionsMap: { service: SERVICE }, statistic: 'Sum', period: HOUR, label });

/** The sum of one metric over many functions, as one line (a graph takes at most 100 metrics in an expression). */
function summed(label: string, metrics: IMetric[]): IMetric {
  const prefix = label.replace(/[^a-z]/g, '');
  const usingMetrics = Object.fromEntries(metrics.map((metric, i) => [`${prefix}${String(i)}`, metric]));
  return new MathExpression({ expression: `SUM([${Object.keys(usingMetrics).join(',')}])`, usingMetrics, label, period: Duration.minutes(5) });
}

/** `dashboardName`: dashboards are global to the account, so it should name the region (the default is `name`). */
export function serviceDashboard(scope: Construct, id: string, props: { name: string; dashboardName?: string; functions: readonly ServiceFunction[] }): Dashboard {
  const dashboard = new Dashboard(scope, id, { dashboardName: props.dashboardName ?? props.name, defaultInterval: Duration.days(7) });
  const fns = props.functions.map((f) => f.fn);
  dashboard.addWidgets(new TextWidget({ markdown: `# ${props.name}\nEnvelopes, sealing and failures (EMF metrics, namespace \`${NAMESPACE}\`), and the API functions.`, width: 24, height: 2 }));
  dashboard.addWidgets(
    new GraphWidget({
      title: 'Envelopes per hour', width: 12,
      left: [auditEvents('envelope.sent', 'sent'), auditEvents('envelope.completed', 'completed'), auditEvents('envelope.voided', 'voided'), auditEvents('envelope.declined', 'declined'), auditEvents('envelope.expired', 'expired')],
    }),
    new GraphWidget({
      title: 'Signers per hour', width: 12,
      left: [auditEvents('signer.signed', 'signed'), auditEvents('signer.reminded', 'reminded'), auditEvents('signer.declined', 'declined')],
    }),
  );
  dashboard.addWidgets(
    new GraphWidget({
      title: 'Seal duration (ms)', width: 8,
      left: ['p50', 'p99', 'Maximum'].map((statistic) => new Metric({ namespace: NAMESPACE, metricName: 'SealDuration', dimensionsMap: { service: SERVICE }, statistic, period: HOUR, label: statistic })),
    }),
    new GraphWidget({
      title: 'Failures per hour', width: 8,
      left: [counter('WebhookDeliveryFailures', 'webhook deliveries failed'), counter('OutboxDeadLetters', 'messages dead-lettered')],
      right: [counter('BulkSendRows', 'bulk-send rows done')],
    }),
    new GraphWidget({
      title: 'API functions', width: 8,
      left: [summed('errors', fns.map((fn) => fn.metricErrors({ statistic: 'Sum' }))), summed('throttles', fns.map((fn) => fn.metricThrottles({ statistic: 'Sum' })))],
      right: [summed('invocations', fns.map((fn) => fn.metricInvocations({ statistic: 'Sum' })))],
    }),
  );
  return dashboard;
}
