import { v7 as uuidv7 } from 'uuid';
import type { Clock, Ids } from '#ports/services.ts';

export const systemClock: Clock = { now: () => new Date() };

export const uuidV7Ids: Ids = { next: () => uuidv7() };

/** The service clock locally: real time plus an offset that `POST /_local/clock` moves forward. */
export class OffsetClock implements Clock {
  private offsetMs = 0;
  private waiters: { at: number; wake: () => void }[] = [];

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(seconds: number): Date {
    this.offsetMs += seconds * 1000;
    this.wakeDue();
    return this.now();
  }

  /** Resolves once service time reaches `iso`, by the clock moving forward or by real time passing. */
  until(iso: string): Promise<void> {
    const at = Date.parse(iso);
    if (this.now().getTime() >= at) return Promise.resolve();
    return new Promise((wake) => {
      this.waiters.push({ at, wake });
      setTimeout(() => { this.wakeDue(); }, Math.min(at - this.now().getTime(), 2 ** 31 - 1)).unref();
    });
  }

  private wakeDue(): void {
    const now = this.now().getTime();
    const due = this.waiters.filter((w) => w.at <= now);
    this.waiters = this.waiters.filter((w) => w.at > now);
    for (const waiter of due) waiter.wake();
  }
}
