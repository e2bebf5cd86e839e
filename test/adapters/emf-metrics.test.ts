import { afterEach, describe, expect, it, vi } from 'vitest';
import { emfMetrics } from '#shared/adapters/emf-metrics.ts';
import { powertoolsLogger } from '#shared/adapters/powertools-logger.ts';

interface EmfLine {
  _aws: { Timestamp: number; CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] };
  [key: string]: unknown;
}

describe('EMF metrics', () => {
  afterEach(() => { vi.restoreAllMocks(); });

  it('writes each metric at once as one Embedded Metric Format line CloudWatch turns into a metric', () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const metrics = emfMetrics(powertoolsLogger({ logLevel: 'SILENT' }), { namespace: 'EsignTest' });
    metrics.count('AuditEvents', 1, { name: 'event', value: 'envelope.sent' });
    metrics.milliseconds('SealDuration', 42.5);
    const lines = out.mock.calls.map(([chunk]) => JSON.parse(String(chunk)) as EmfLine);
    expect(lines).toHaveLength(2);
    const [counted, timed] = lines;
    expect(counted?._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'EsignTest', Metrics: [{ Name: 'AuditEvents', Unit: 'Count' }] });
    expect(counted?._aws.CloudWatchMetrics[0]?.Dimensions[0]).toEqual(expect.arrayContaining(['service', 'event']));
    expect(counted).toMatchObject({ AuditEvents: 1, event: 'envelope.sent', service: 'esign' });
    expect(timed).toMatchObject({ SealDuration: 42.5 });
    expect(timed?._aws.CloudWatchMetrics[0]?.Metrics).toEqual([{ Name: 'SealDuration', Unit: 'Milliseconds' }]);
  });
});
