/**
 * The service's alarms, all to the one alarm topic: a threshold alarm on one metric, and one alarm per function group
 * on the group's errors and throttles. A metric-math alarm reads at most 10 metrics (a hard CloudWatch limit), so a
 * group of more functions is watched by one silent alarm per 10 and a composite alarm over them that notifies: one
 * notification per group, whatever its size.
 */
import { Duration } from 'aws-cdk-lib';
import { Alarm, AlarmRule, ComparisonOperator, CompositeAlarm, MathExpression, TreatMissingData, type IAlarm, type IAlarmAction, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

/** What CloudWatch lets one metric-math alarm read. */
export const METRICS_PER_ALARM = 10;

export interface ThresholdAlarmProps {
  metric: IMetric;
  /** What it means and what to do, shown in the notification. */
  description: string;
  /** Alarms when the metric reaches this (>=); 1 by default. */
  threshold?: number;
  evaluationPeriods?: number;
}

/** An alarm on `metric` reaching `threshold`, missing data not breaching; notifies `action`. */
export function thresholdAlarm(scope: Construct, id: string, action: IAlarmAction, props: ThresholdAlarmProps): Alarm {
  const alarm = new Alarm(scope, id, {
    metric: props.metric,
    threshold: props.threshold ?? 1,
    evaluationPeriods: props.evaluationPeriods ?? 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: TreatMissingData.NOT_BREACHING,
    alarmDescription: props.description,
  });
  alarm.addAlarmAction(action);
  return alarm;
}

export type GroupMetric = 'Errors' | 'Throttles';

const metricOf = (fn: IFunction, metric: GroupMetric) =>
  (metric === 'Errors' ? fn.metricErrors({ statistic: 'Sum', period: Duration.minutes(5) }) : fn.metricThrottles({ statistic: 'Sum', period: Duration.minutes(5) }));

/** The sum of `metric` over at most 10 functions, as one series. */
function summed(functions: readonly IFunction[], metric: GroupMetric): MathExpression {
  const usingMetrics = Object.fromEntries(functions.map((fn, i) => [`m${String(i)}`, metricOf(fn, metric)]));
  return new MathExpression({ expression: `SUM([${Object.keys(usingMetrics).join(',')}])`, usingMetrics, period: Duration.minutes(5) });
}

/**
 * Silent alarms, one per 10 of `functions`, each on the sum of `metric` over its functions. Put them beside the
 * functions (the same stack); `notifyGroup` joins them into the one alarm that notifies.
 */
export function groupParts(scope: Construct, id: string, functions: readonly IFunction[], metric: GroupMetric, description: string): Alarm[] {
  const parts: Alarm[] = [];
  for (let i = 0; i < functions.length; i += METRICS_PER_ALARM) {
    const chunk = functions.slice(i, i + METRICS_PER_ALARM);
    parts.push(new Alarm(scope, `${id}${metric}${String(i / METRICS_PER_ALARM + 1)}`, {
      metric: summed(chunk, metric),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: `${description} (functions ${String(i + 1)} to ${String(i + chunk.length)}; notifies through the group's composite alarm)`,
    }));
  }
  return parts;
}

/** The one alarm of a group that notifies: ALARM when any of its parts is. */
export function notifyGroup(scope: Construct, id: string, parts: readonly IAlarm[], action: IAlarmAction, description: string): CompositeAlarm {
  if (parts.length === 0) throw new Error(`${id}: a function group needs at least one function`);
  const composite = new CompositeAlarm(scope, id, { alarmRule: AlarmRule.anyOf(...parts), alarmDescription: description });
  composite.addAlarmAction(action);
  return composite;
}

/** A group's errors and throttles, parts and composites in one scope (a group whose functions share a stack). */
export function functionGroupAlarms(scope: Construct, id: string, functions: readonly IFunction[], action: IAlarmAction, what: { errors: string; throttles: string }): void {
  notifyGroup(scope, `${id}Errors`, groupParts(scope, id, functions, 'Errors', what.errors), action, what.errors);
  notifyGroup(scope, `${id}Throttles`, groupParts(scope, id, functions, 'Throttles', what.throttles), action, what.throttles);
}
