import { Metrics as PowertoolsMetrics, MetricUnit } from '@aws-lambda-powertools/metrics';

type Unit = (typeof MetricUnit)[keyof typeof MetricUnit];
import type { Logger, Metrics } from '#shared/ports/services.ts';

/**
 * Metrics as CloudWatch Embedded Metric Format lines on stdout (AWS Lambda Powertools): CloudWatch Logs turns them
 * into metrics, with no API call and no permission. Each metric is written at once (a single-metric line), so
 * nothing waits for the end of an invocation and nothing is lost when one fails.
 */
export function emfMetrics(logger: Logger, options: { namespace?: string; serviceName?: string } = {}): Metrics {
  const metrics = new PowertoolsMetrics({ namespace: options.namespace ?? 'Esign', serviceName: options.serviceName ?? 'esign' });
  const write = (name: string, unit: Unit, value: number, dimension?: { name: string; value: string }) => {
    try {
      const single = metrics.singleMetric();
      if (dimension) single.addDimension(dimension.name, dimension.value);
      single.addMetric(name, unit, value);
    } catch (error) {
      logger.warn('metric not written', { metric: name, error: (error as Error).message });
    }
  };
  return {
    count: (name, value = 1, dimension) => { write(name, MetricUnit.Count, value, dimension); },
    milliseconds: (name, value) => { write(name, MetricUnit.Milliseconds, value); },
  };
}

/** Metrics kept in memory (tests, the local stack): what was counted, in order. */
export class MemoryMetrics implements Metrics {
  readonly recorded: { name: string; value: number; dimension?: { name: string; value: string } }[] = [];

  count(name: string, value = 1, dimension?: { name: string; value: string }): void {
    this.recorded.push({ name, value, ...(dimension ? { dimension } : {}) });
  }

  milliseconds(name: string, value: number): void {
    this.recorded.push({ name, value });
  }

  /** The sum of a counter, optionally for one dimension value. */
  total(name: string, dimensionValue?: string): number {
    return this.recorded.filter((m) => m.name === name && (dimensionValue === undefined || m.dimension?.value === dimensionValue)).reduce((sum, m) => sum + m.value, 0);
  }
}
