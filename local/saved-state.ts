/**
 * What the local engines keep in memory but a restarted `npm start` must find again (the service clock's offset, the
 * jobs queue), kept as small JSON files under the data directory. Each write replaces its file whole (a temporary
 * file renamed over it), so a stop mid-write leaves the previous state, never half of one.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OffsetClock } from '#shared/adapters/system.ts';

/** The file's JSON, or undefined when there is none yet (a first run) or it cannot be read. */
export function readSaved(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** Writes `json` (already serialized) as the file's whole content. */
export function writeSaved(file: string, json: string): void {
  const next = `${file}.next`;
  writeFileSync(next, json);
  renameSync(next, file);
}

/**
 * The local service clock. With a data directory, its offset is kept in `clock.json` each time it moves, and a
 * restart continues from it: service time never jumps back (real time that passed while stopped counts, as on AWS).
 */
export function savedClock(dataDir: string | undefined): OffsetClock {
  if (!dataDir) return new OffsetClock();
  const file = join(dataDir, 'clock.json');
  const offsetMs = (readSaved(file) as { offsetMs?: unknown } | undefined)?.offsetMs;
  return new OffsetClock(typeof offsetMs === 'number' && Number.isFinite(offsetMs) ? offsetMs : 0, (moved) => { writeSaved(file, JSON.stringify({ offsetMs: moved })); });
}
