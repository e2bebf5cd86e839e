import type { IdempotencyClaim, IdempotencyRecord, IdempotencyStore, StoredResponse } from '#shared/ports/traffic.ts';
import { copy } from './memory-table.ts';

interface Stored {
  record: IdempotencyRecord;
  owner: string;
  /** Epoch seconds, as the table keeps them. */
  lockedUntil: number | null;
  expiresAt: number;
}

const epoch = (date: Date) => Math.floor(date.getTime() / 1000);

/** Claims with DynamoIdempotencyStore's conditions: a key is free when unused, expired, or abandoned by the same request. */
export class MemoryIdempotencyStore implements IdempotencyStore {
  private readonly records = new Map<string, Stored>();

  claim(claim: IdempotencyClaim): Promise<IdempotencyRecord | undefined> {
    const now = epoch(claim.now);
    const held = this.records.get(claim.id);
    const free = !held || held.expiresAt <= now
      || (held.record.state === 'in_progress' && held.lockedUntil !== null && held.lockedUntil <= now && held.record.fingerprint === claim.fingerprint);
    if (!free) return Promise.resolve(copy(held.record));
    this.records.set(claim.id, {
      record: { state: 'in_progress', fingerprint: claim.fingerprint }, owner: claim.owner,
      lockedUntil: now + claim.lockSeconds, expiresAt: now + claim.expiresInSeconds,
    });
    return Promise.resolve(undefined);
  }

  complete(claim: IdempotencyClaim, response: StoredResponse): Promise<'stored'> {
    const held = this.records.get(claim.id);
    if (held?.owner === claim.owner) {
      this.records.set(claim.id, { ...held, record: { state: 'completed', fingerprint: held.record.fingerprint, response: copy(response) }, lockedUntil: null });
    }
    return Promise.resolve('stored');
  }

  release(claim: IdempotencyClaim): Promise<void> {
    if (this.records.get(claim.id)?.owner === claim.owner) this.records.delete(claim.id);
    return Promise.resolve();
  }
}
