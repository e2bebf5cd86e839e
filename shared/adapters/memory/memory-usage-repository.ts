import type { UsageIncrement } from '#shared/console/usage.ts';
import type { UsageRepository } from '#shared/ports/repositories.ts';

/** One counter per application and month; the envelope repository's commit advances it (MemoryEnvelopeRepository). */
export class MemoryUsageRepository implements UsageRepository {
  private readonly counts = new Map<string, number>();

  envelopesSent(appId: string, period: string): Promise<number> {
    return Promise.resolve(this.counts.get(usageKey(appId, period)) ?? 0);
  }

  /** The table's condition: with a limit, the count must be below it (a counter not written yet counts as 0). */
  allows(usage: UsageIncrement): boolean {
    return usage.limit === null || (this.counts.get(usageKey(usage.appId, usage.period)) ?? 0) < usage.limit;
  }

  increment(usage: UsageIncrement): void {
    const key = usageKey(usage.appId, usage.period);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
}

const usageKey = (appId: string, period: string) => `${appId}#${period}`;
