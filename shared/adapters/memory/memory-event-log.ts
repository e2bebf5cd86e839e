import { loggedEventsOf, matches, type EventLogPage, type EventLogQuery, type LoggedEvent } from '#shared/webhooks/event-log.ts';
import type { EnvelopeChange } from '#shared/kernel/change.ts';
import { copy } from './memory-table.ts';

/**
 * The event log in memory: each entry gets the next position of one counter when its commit is applied, so the order
 * is the order of the commits and a cursor never passes an entry that shows up later. Read by the envelope repository.
 */
export class MemoryEventLog {
  private readonly entries: { position: string; event: LoggedEvent }[] = [];
  private next = 0;

  /** Called inside the commit, after its checks passed: nothing yields in between. */
  append(change: EnvelopeChange): void {
    for (const event of loggedEventsOf(change)) this.entries.push({ position: String(++this.next).padStart(16, '0'), event: copy(event) });
  }

  read(query: EventLogQuery): EventLogPage {
    const after = query.after ?? '';
    const mine = this.entries.filter((e) => e.event.appId === query.appId && e.position > after);
    const data: LoggedEvent[] = [];
    let position = query.after;
    for (const entry of mine) {
      if (data.length === query.limit) return { data, position, hasMore: true };
      position = entry.position;
      if (matches(entry.event, query)) data.push(copy(entry.event));
    }
    return { data, position, hasMore: false };
  }
}
