import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The ids a log line should carry (request, application, envelope), set as a request is understood and read by the
 * logger (shared/adapters/system.ts) for every line written while it is handled, whichever module writes it. Kept
 * per request in async context, so the local server's concurrent requests never lend each other their ids.
 */
const context = new AsyncLocalStorage<Record<string, unknown>>();

/** Runs `fn` with a fresh set of log keys. */
export function withLogContext<T>(fn: () => Promise<T>): Promise<T> {
  return context.run({}, fn);
}

/** Adds keys to the current request's log lines (a no-op outside withLogContext). */
export function annotateLog(keys: Record<string, unknown>): void {
  const store = context.getStore();
  if (store) Object.assign(store, keys);
}

export const logKeys = (): Record<string, unknown> => context.getStore() ?? {};
