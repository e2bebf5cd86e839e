import type { RateLimiter, WindowCount } from '#shared/ports/traffic.ts';

/** One counter per key in a fixed window opened by its first request, as DynamoRateLimiter counts. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, WindowCount>();

  hit(key: string, windowSeconds: number, now: Date): Promise<WindowCount> {
    const open = this.windows.get(key);
    const counted = open && open.resetAtMs > now.getTime()
      ? { count: open.count + 1, resetAtMs: open.resetAtMs }
      : { count: 1, resetAtMs: now.getTime() + windowSeconds * 1000 };
    this.windows.set(key, counted);
    return Promise.resolve({ ...counted });
  }
}
