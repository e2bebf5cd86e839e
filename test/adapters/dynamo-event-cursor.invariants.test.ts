import { v7 as uuidv7 } from 'uuid';
import { describe, expect, inject, it } from 'vitest';
import { DynamoEnvelopeRepository } from '#shared/adapters/aws/dynamo-envelope-repository.ts';
import { EVENT_SETTLE_MS } from '#shared/adapters/aws/dynamo-event-log.ts';
import { MemoryEnvelopeRepository } from '#shared/adapters/memory/memory-envelope-repository.ts';
import type { EnvelopeRepository } from '#shared/ports/repositories.ts';
import { documentClient } from '#shared/adapters/aws/dynamo.ts';
import { dynamoTables } from '#test/support/dynamo-tables.ts';
import { inTrials } from '#test/support/invariants.ts';
import { changeWithEvents, query, readAll } from './contract/event-log.ts';

const tables = dynamoTables('event-log-invariants');

interface TransactInput { TransactItems?: { Put?: { Item?: Record<string, unknown> } }[] }

/**
 * A client whose transactions writing an envelope of `slow` are held for `holdMs` after they were built (and stamped):
 * a commit that lands behind one stamped after it, as a paused or retried writer would.
 */
function slowDynamo(slow: Set<string>, holdMs: number) {
  const db = documentClient({ endpoint: inject('dynamodbEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  let held: () => void = () => undefined;
  const entered = new Promise<void>((resolve) => { held = resolve; });
  db.middlewareStack.add((next, context) => async (args) => {
    const items = context.commandName === 'TransactWriteItemsCommand' ? (args.input as TransactInput).TransactItems ?? [] : [];
    if (items.some((item) => slow.has(String(item.Put?.Item?.envelopeId)))) {
      held();
      await new Promise((resolve) => setTimeout(resolve, holdMs));
    }
    return next(args);
  }, { step: 'initialize', name: 'slowCommits' });
  return { db, entered };
}

/** Commits `commits` changes of `perCommit` events each, `writers` at a time; the ids of the events written. */
async function write(repo: EnvelopeRepository, appId: string, commits: number, perCommit: number, writers: number): Promise<string[]> {
  const ids: string[] = [];
  let left = commits;
  await Promise.all(Array.from({ length: writers }, async () => {
    while (left-- > 0) {
      const change = changeWithEvents(appId, perCommit);
      await repo.commit(change);
      ids.push(...change.outbox.flatMap((o) => (o.kind === 'event' ? [o.id] : [])));
    }
  }));
  return ids;
}

/**
 * One trial: 1,000 events are in the log; a reader pages through them (pages of varying size) while writers add more,
 * then keeps polling with its last cursor until every event written has shown up. Along that one chain of cursors every
 * event appears exactly once, and the first 1,000 in the order they were committed.
 */
async function trial(repo: EnvelopeRepository, settleMs: number, trialNo: number): Promise<void> {
  const appId = uuidv7();
  const before = await write(repo, appId, 50, 20, 1);
  await readAll(repo, query(appId), before.length, settleMs + 20_000); // the first 1,000 have settled
  const writing = write(repo, appId, 40, 5, 4);
  const seen: string[] = [];
  let after: string | null = null;
  const writers = { done: false };
  void writing.then(() => { writers.done = true; });
  for (let page = 0; !writers.done || page < 3; page++) {
    const limit = 1 + ((trialNo * 7 + page * 13) % 100);
    const result = await repo.events(query(appId, { after, limit }));
    seen.push(...result.data.map((e) => e.id));
    after = result.position;
    if (!result.hasMore) await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const during = await writing;
  const rest = await readAll(repo, query(appId, { after }), before.length + during.length - seen.length, settleMs + 20_000);
  seen.push(...rest.ids);
  expect(new Set(seen).size, 'an event listed twice').toBe(seen.length);
  expect([...seen].sort(), 'an event skipped').toEqual([...before, ...during].sort());
  expect(seen.slice(0, before.length)).toEqual(before);
}

describe('event log cursor: no gaps and no repeats while events are written', () => {
  it('on DynamoDB Local, a commit landing behind a later-stamped one is not passed by a reader that already saw the later one', async () => {
    const slow = new Set<string>();
    const { db, entered } = slowDynamo(slow, 1500);
    const repo = new DynamoEnvelopeRepository(db, await tables.create());
    const appId = uuidv7();
    const late = changeWithEvents(appId, 1);
    slow.add(late.after.id);
    const landing = repo.commit(late);
    await entered;
    const early = changeWithEvents(appId, 1);
    await repo.commit(early);
    const seen: string[] = [];
    let after: string | null = null;
    while (!seen.includes(early.after.id)) { // follow the cursor chain until the later-stamped event shows
      const page = await repo.events(query(appId, { after }));
      seen.push(...page.data.map((e) => e.envelopeId));
      after = page.position;
      if (!page.hasMore) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await landing;
    const rest = await readAll(repo, query(appId, { after }), seen.includes(late.after.id) ? 0 : 1, EVENT_SETTLE_MS + 5000);
    seen.push(...rest.pages.flatMap((p) => p.data.map((e) => e.envelopeId)));
    expect(seen.sort()).toEqual([late.after.id, early.after.id].sort());
  }, 60_000);

  it('in memory, over 10 trials', async () => {
    await inTrials(10, 2, async (n) => { await trial(new MemoryEnvelopeRepository(), 0, n); });
  });

  it('on DynamoDB Local with the deployed settle horizon, over 3 trials', async () => {
    const repo = new DynamoEnvelopeRepository(tables.db, await tables.create());
    try {
      await inTrials(3, 1, async (n) => { await trial(repo, EVENT_SETTLE_MS, n); });
    } finally {
      await tables.drop();
    }
  }, 600_000);
});
