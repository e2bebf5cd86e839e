import { v7 as uuidv7 } from 'uuid';
import { readFile } from 'node:fs/promises';
import type { ApiDescription, ApiDocument, Clock, Ids } from '#shared/ports/services.ts';

export const systemClock: Clock = { now: () => new Date() };

export const uuidV7Ids: Ids = { next: () => uuidv7() };

/** The service clock locally: real time plus an offset that `POST /_local/clock` moves forward. */
export class OffsetClock implements Clock {
  private waiters: { at: number; wake: () => void; cancel: (error: Error) => void }[] = [];
  private stopped = false;

  /** `offsetMs`: where a previous run left the clock; `moved` hears each new offset (to keep it for the next run). */
  constructor(private offsetMs = 0, private readonly moved?: (offsetMs: number) => void) {}

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(seconds: number): Date {
    this.offsetMs += seconds * 1000;
    this.moved?.(this.offsetMs);
    this.wakeDue();
    return this.now();
  }

  /** Resolves once service time reaches `iso`, by the clock moving forward or by real time passing. */
  until(iso: string): Promise<void> {
    if (this.stopped) return Promise.reject(new Error('the local stack is stopping'));
    const at = Date.parse(iso);
    if (this.now().getTime() >= at) return Promise.resolve();
    return new Promise((wake, cancel) => {
      this.waiters.push({ at, wake, cancel });
      setTimeout(() => { this.wakeDue(); }, Math.min(at - this.now().getTime(), 2 ** 31 - 1)).unref();
    });
  }

  /** Ends every wait with an error, so nothing (a workflow's task timer, say) outlives the local stack. */
  stop(): void {
    this.stopped = true;
    const waiting = this.waiters;
    this.waiters = [];
    for (const waiter of waiting) waiter.cancel(new Error('the local stack is stopping'));
  }

  private wakeDue(): void {
    const now = this.now().getTime();
    const due = this.waiters.filter((w) => w.at <= now);
    this.waiters = this.waiters.filter((w) => w.at > now);
    for (const waiter of due) waiter.wake();
  }
}

/** The API description from a JSON file (beside the bundle on Lambda), read once. */
export function bundledApiDescription(url: URL): ApiDescription {
  let document: Promise<ApiDocument> | undefined;
  return {
    document: () => (document ??= readFile(url, 'utf8').then((text) => JSON.parse(text) as ApiDocument)),
  };
}
