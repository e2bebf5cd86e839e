/** The billing period: the calendar month in UTC (decision 30). */
export interface UsagePeriod {
  /** `yyyy-mm`, the counter's key. */
  id: string;
  /** First and last day of the month, ISO dates. */
  start: string;
  end: string;
}

/** One more sent envelope for the period, refused when the count has reached `limit` (null: no limit applies). */
export interface UsageIncrement {
  appId: string;
  period: string;
  limit: number | null;
}

export function usagePeriod(now: Date): UsagePeriod {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const lastDay = new Date(Date.UTC(year, month + 1, 0));
  const start = new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 10);
  return { id: start.slice(0, 7), start, end: lastDay.toISOString().slice(0, 10) };
}

/** The number of sends the application may make per period, or null when it is not capped (no limit, or overage allowed). */
export function envelopeQuota(app: { envelopesLimit: number | null; overageAllowed: boolean }): number | null {
  return app.overageAllowed ? null : app.envelopesLimit;
}
