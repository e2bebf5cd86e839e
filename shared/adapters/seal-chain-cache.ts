import type { Clock } from '#shared/ports/services.ts';

/** How long a read seal certificate chain is used before it is read again: an imported chain takes effect within it. */
export const SEAL_CHAIN_CACHE_MS = 60_000;

/**
 * `read`, called again once its last answer is `ms` old on `clock` (the service clock, so tests advance it). A
 * failed read is not kept: the next call reads again.
 */
export function cachedOnClock<T>(clock: Clock, read: () => Promise<T>, ms = SEAL_CHAIN_CACHE_MS): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    const now = clock.now().getTime();
    if (!last || now - last.at >= ms || now < last.at) {
      const value = read();
      const entry = { at: now, value };
      last = entry;
      value.catch(() => { if (last === entry) last = undefined; });
    }
    return last.value;
  };
}
