import { INDEX_SHARDS } from '#shared/adapters/aws/table-schema.ts';

/** A deep copy in and out: no caller holds a stored record, as with a database. */
export const copy = <T>(value: T): T => structuredClone(value);

/** DynamoDB's item size limit: a record over it fails there, so it fails here too. */
export const MAX_ITEM_BYTES = 400 * 1024;

/** A record too big for one DynamoDB item (measured as its JSON, about what DynamoDB counts), as DynamoDB words it; else undefined. */
export function oversized(record: unknown): Error | undefined {
  const bytes = Buffer.byteLength(JSON.stringify(record));
  return bytes > MAX_ITEM_BYTES ? new Error(`Item size has exceeded the maximum allowed size (${String(bytes)} bytes)`) : undefined;
}

/**
 * The Dynamo adapters' sparse sweep indexes, read the same way: an entry lives in partition `<prefix>#<shard>` under
 * a sort key `<iso time>#<id>`; a sweep reads each shard up to `<until>#~` in sort-key order, shard after shard,
 * and keeps the first `limit`. So a limited sweep returns the same ids, in the same order, on both.
 */
export interface IndexEntry {
  partition: string;
  sortKey: string;
}

/** A stable shard of a UUID, exactly as the table's writer computes it. */
const shardOf = (id: string) => parseInt(id.replace(/-/g, '').slice(-4), 16) % INDEX_SHARDS;

export const indexEntry = (prefix: string, id: string, at: string): IndexEntry => ({ partition: `${prefix}#${String(shardOf(id))}`, sortKey: `${at}#${id}` });

/** Strings compare as DynamoDB compares them (by code unit; every key here is ASCII). */
export const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The records whose entry lies in `prefix`'s shards at or before `until`, in the order a sweep reads them. */
export function sweep<T>(records: Iterable<T>, entryOf: (record: T) => IndexEntry | undefined, prefix: string, until: Date, limit: number): T[] {
  const last = `${until.toISOString()}#~`;
  const entries = [...records].flatMap((record) => {
    const entry = entryOf(record);
    return entry && entry.sortKey <= last ? [{ record, entry }] : [];
  });
  const found: T[] = [];
  for (let shard = 0; shard < INDEX_SHARDS; shard++) {
    const partition = `${prefix}#${String(shard)}`;
    const inShard = entries.filter(({ entry }) => entry.partition === partition).sort((a, b) => byKey(a.entry.sortKey, b.entry.sortKey));
    found.push(...inShard.slice(0, limit).map(({ record }) => record));
  }
  return found.slice(0, limit);
}
