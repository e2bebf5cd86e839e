import { QueryCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { EnvelopeChange } from '#shared/kernel/change.ts';
import { loggedEventExpiry, loggedEventsOf, matches, type EventLogPage, type EventLogQuery, type LoggedEvent } from '#shared/webhooks/event-log.ts';
import { TTL_ATTRIBUTE } from './table-schema.ts';

/**
 * The event log's items, beside the envelopes in the one table:
 * - `PK = EVT#<appId>`, `SK = <position>`: one event of the application, written in the transaction of the change that
 *   raised it (so there is no event without its change, nor a change without its event), dropped by TTL after the
 *   window; one partition per application, read oldest first by a Query from a cursor's position.
 * - `position = <commit time>#<event id>`: the wall-clock time of the transaction attempt that wrote it (each attempt
 *   stamps afresh), not the event's `createdAt`, which is taken before the request's work and may precede a commit
 *   that lands after later ones.
 * A commit can still land a little after its stamp, behind a concurrent one stamped later: so a reader sees only
 * positions older than EVENT_SETTLE_MS, a bound on that lag, and a cursor never moves past an entry yet to appear.
 */
export const EVENT_SETTLE_MS = 5000;

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const eventPk = (appId: string) => `EVT#${appId}`;
/** Below every position (they start with a year). */
const START = '0';
/** Items read per page at most, however selective the filters: a sparse filter answers a short page with `hasMore`. */
const READ_BUDGET = 1000;

/** The change's log entries as Puts for its transaction, stamped with the attempt's time. */
export function eventLogPuts(table: string, change: EnvelopeChange, stamp: Date): TransactItem[] {
  return loggedEventsOf(change).map((event) => ({
    Put: {
      TableName: table, ConditionExpression: 'attribute_not_exists(PK)',
      Item: { ...event, PK: eventPk(event.appId), SK: `${stamp.toISOString()}#${event.id}`, itemType: 'event', [TTL_ATTRIBUTE]: loggedEventExpiry(event) },
    },
  }));
}

function eventOf(item: Record<string, unknown>): LoggedEvent {
  const { PK: _pk, SK: _sk, itemType: _type, [TTL_ATTRIBUTE]: _ttl, ...event } = item;
  return event as unknown as LoggedEvent;
}

/** One page: entries past the query's position, up to the settle horizon, that match its filters. */
export async function readEventLog(db: DynamoDBDocumentClient, table: string, query: EventLogQuery, settleMs: number): Promise<EventLogPage> {
  const horizon = new Date(Date.now() - settleMs).toISOString();
  const data: LoggedEvent[] = [];
  let position = query.after;
  let read = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new QueryCommand({
      TableName: table, ConsistentRead: true, ExclusiveStartKey: startKey, Limit: Math.min(200, READ_BUDGET - read),
      KeyConditionExpression: 'PK = :pk AND SK > :after', ExpressionAttributeValues: { ':pk': eventPk(query.appId), ':after': query.after ?? START },
    }));
    for (const item of page.Items ?? []) {
      const at = String(item.SK);
      if (at > horizon) return { data, position, hasMore: false };
      if (data.length === query.limit) return { data, position, hasMore: true };
      position = at;
      read++;
      const event = eventOf(item);
      if (matches(event, query)) data.push(event);
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey && read < READ_BUDGET);
  return { data, position, hasMore: startKey !== undefined };
}
