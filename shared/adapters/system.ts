import { v7 as uuidv7 } from 'uuid';
import type { Clock, Ids } from '#ports/services.ts';

export const systemClock: Clock = { now: () => new Date() };

export const uuidV7Ids: Ids = { next: () => uuidv7() };

/** The service clock locally: real time plus an offset that `POST /_local/clock` moves forward. */
export class OffsetClock implements Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(seconds: number): Date {
    this.offsetMs += seconds * 1000;
    return this.now();
  }
}
