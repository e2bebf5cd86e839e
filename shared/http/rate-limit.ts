import type { Config, RateWindow } from '../config.ts';
import type { ApplicationRepository } from '#shared/ports/repositories.ts';
import type { Clock } from '#shared/ports/services.ts';
import type { RateLimiter } from '#shared/ports/traffic.ts';
import type { Caller } from './caller.ts';

export interface RateLimitDeps {
  config: Pick<Config, 'rateLimits'>;
  clock: Clock;
  applications: Pick<ApplicationRepository, 'get'>;
  rateLimiter: RateLimiter;
}

/** What the X-RateLimit-* headers report: the tightest budget the request was counted against. */
export interface Budget {
  limit: number;
  remaining: number;
  resetAtMs: number;
}

export interface Charge {
  budget: Budget;
  /** Seconds until the exhausted window closes; null while within every budget. */
  retryAfterSeconds: number | null;
}

/** Counts each request against its caller's budgets (decision 31): the application's plan, or the link token and the address. */
export function rateLimits(deps: RateLimitDeps) {
  /** The plan's window; `applications` is the pipeline's cached lookup (app-cache.ts), so this is rarely a read. */
  async function planWindow(appId: string): Promise<RateWindow> {
    const plan = (await deps.applications.get(appId))?.plan ?? 'standard';
    const { plans: windows } = deps.config.rateLimits;
    return windows[plan] ?? windows.standard ?? { limit: 600, windowSeconds: 60 };
  }

  async function budgetsOf(caller: Caller): Promise<{ key: string; window: RateWindow }[]> {
    const { perToken, perIp } = deps.config.rateLimits;
    switch (caller.kind) {
      case 'app': return [{ key: `app#${caller.appId}`, window: await planWindow(caller.appId) }];
      case 'link': return [{ key: `tok#${caller.tokenHash}`, window: perToken }, { key: `ip#${caller.ip}`, window: perIp }];
      case 'anonymous': return [{ key: `ip#${caller.ip}`, window: perIp }];
    }
  }

  return async function charge(caller: Caller): Promise<Charge> {
    const now = deps.clock.now();
    const budgets = await budgetsOf(caller);
    const counts = await Promise.all(budgets.map(async ({ key, window }) => ({ window, ...(await deps.rateLimiter.hit(key, window.windowSeconds, now)) })));
    const states = counts.map(({ window, count, resetAtMs }) => ({
      limit: window.limit, remaining: Math.max(0, window.limit - count), resetAtMs, exceeded: count > window.limit,
    }));
    const tightest = states.reduce((a, b) => (b.remaining < a.remaining || (b.remaining === a.remaining && b.resetAtMs > a.resetAtMs) ? b : a));
    const exceeded = states.filter((s) => s.exceeded);
    const retryAfterMs = exceeded.length > 0 ? Math.max(...exceeded.map((s) => s.resetAtMs)) - now.getTime() : null;
    return {
      budget: { limit: tightest.limit, remaining: tightest.remaining, resetAtMs: tightest.resetAtMs },
      retryAfterSeconds: retryAfterMs === null ? null : Math.max(1, Math.ceil(retryAfterMs / 1000)),
    };
  };
}

/** On every response (decision 31). */
export function budgetHeaders(budget: Budget): Record<string, string> {
  return {
    'x-ratelimit-limit': String(budget.limit),
    'x-ratelimit-remaining': String(budget.remaining),
    'x-ratelimit-reset': String(Math.ceil(budget.resetAtMs / 1000)),
  };
}
