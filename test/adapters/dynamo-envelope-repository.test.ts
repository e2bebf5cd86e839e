import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DynamoEnvelopeRepository } from '#shared/adapters/aws/dynamo-envelope-repository.ts';
import { DynamoTenantRepository } from '#shared/adapters/aws/dynamo-tenant-repository.ts';
import { DynamoUsageRepository } from '#shared/adapters/aws/dynamo-usage-repository.ts';
import { DynamoWebhookRepository } from '#shared/adapters/aws/dynamo-webhook-repository.ts';
import { MemoryEnvelopeRepository } from '#shared/adapters/memory/memory-envelope-repository.ts';
import { sendEnvelope, type EnvelopeChange } from '#shared/envelopes/envelope.ts';
import { SubscriptionsChanged } from '#shared/kernel/errors.ts';
import { dynamoTables } from '#test/support/dynamo-tables.ts';
import { testCtx } from '#test/support/domain.ts';
import { conflictingDynamo } from '#test/support/transaction-conflicts.ts';
import { describeEnvelopeRepository } from './contract/envelope-repository.ts';
import { describeEnvelopeSweeps } from './contract/envelope-sweeps.ts';
import { describeEventLog } from './contract/event-log.ts';
import { at, jobItem, newDraft, plus, rewrite } from './contract/fixtures.ts';

const tables = dynamoTables('envelope-contract');

describeEnvelopeRepository('DynamoDB Local', {
  build: async () => {
    const table = await tables.create();
    return { envelopes: new DynamoEnvelopeRepository(tables.db, table), usage: new DynamoUsageRepository(tables.db, table), tenants: new DynamoTenantRepository(tables.db, table) };
  },
  drop: tables.drop,
});

describeEnvelopeSweeps('DynamoDB Local', {
  build: async () => ({ envelopes: new DynamoEnvelopeRepository(tables.db, await tables.create()) }),
  drop: tables.drop,
});

// A short horizon: these tests write from one caller, one commit after another.
describeEventLog('DynamoDB Local', { build: async () => new DynamoEnvelopeRepository(tables.db, await tables.create(), { attempts: 10 }, 300), drop: tables.drop }, 300);

describe('a commit that skipped webhook events on a version of the subscriptions', () => {
  it('stands while that version does, and is refused whole (SubscriptionsChanged) once a webhook write advanced it', async () => {
    const table = await tables.create();
    const envelopes = new DynamoEnvelopeRepository(tables.db, table);
    const webhooks = new DynamoWebhookRepository(tables.db, table);
    const appId = randomUUID();
    const guarded = (change: EnvelopeChange, version: number): EnvelopeChange => ({ ...change, outbox: [], logged: change.outbox.filter((i) => i.kind === 'event'), subscriptions: { appId, version } });
    const first = newDraft(appId);
    await envelopes.commit(guarded(first, 0));
    expect(await envelopes.pendingOutbox(first.after.id)).toEqual([]);
    await webhooks.put({ id: randomUUID(), appId, url: 'https://hooks.example.com/x', events: ['envelope.created'], active: true, retrySchedule: 'A', secretSealed: null, createdAt: '2026-01-01T00:00:00.000Z' });
    const second = newDraft(appId);
    await expect(envelopes.commit(guarded(second, 0))).rejects.toBeInstanceOf(SubscriptionsChanged);
    expect(await envelopes.find(second.after.id)).toBeUndefined();
    const { version } = await webhooks.subscriptions(appId);
    await envelopes.commit(guarded(second, version));
    expect(await envelopes.find(second.after.id)).toBeDefined();
    await tables.drop();
  });
});

describe('the in-memory repository against DynamoDB Local', () => {
  it('reads a limited sweep in the same order: shard by shard, by time within a shard', async () => {
    const dynamo = new DynamoEnvelopeRepository(tables.db, await tables.create());
    const memory = new MemoryEnvelopeRepository();
    const changes = Array.from({ length: 24 }, (_, i) => {
      const created = { ...newDraft(), outbox: [] };
      return [created, rewrite(created.after, { status: 'sent', expiresAt: plus('2026-03-01T00:00:00.000Z', (i % 5) * 1000) }, [jobItem(created.after.id, plus('2026-03-01T00:00:00.000Z', (i % 3) * 1000))])];
    }).flat();
    for (const change of changes) await Promise.all([dynamo.commit(change), memory.commit(change)]);
    const now = at('2026-03-02T00:00:00.000Z');
    for (const limit of [1, 5, 13, 30]) {
      expect(await memory.dueForExpiry(now, limit)).toEqual(await dynamo.dueForExpiry(now, limit));
      expect(await memory.staleOutbox(now, limit)).toEqual(await dynamo.staleOutbox(now, limit));
    }
    await tables.drop();
  });
});

describe('counts under concurrent transactions, with the conflicts DynamoDB raises', () => {
  it('keeps exact counts for 50 concurrent creates and sends in one tenant, each conflict retried, no retries run out', async () => {
    const { db, conflicts } = conflictingDynamo();
    const retried: number[] = [];
    const table = await tables.create();
    const envelopes = new DynamoEnvelopeRepository(db, table, { attempts: 10, onConflict: (attempt) => retried.push(attempt) });
    const appId = randomUUID();
    const drafts = Array.from({ length: 50 }, () => newDraft(appId, 'busy'));
    expect((await Promise.allSettled(drafts.map((d) => envelopes.commit(d)))).filter((r) => r.status === 'rejected')).toEqual([]);
    const sends = drafts.map((d) => ({ ...sendEnvelope(d.after, null, testCtx()).change, usage: { appId, period: '2026-01', limit: 50 } }));
    expect((await Promise.allSettled(sends.map((s) => envelopes.commit(s)))).filter((r) => r.status === 'rejected')).toEqual([]);
    const total = (status: 'sent' | 'draft' | null) => envelopes.list({ appId, tenantId: 'busy', status, page: 1, pageSize: 1 }).then((p) => p.total);
    expect([await total(null), await total('sent'), await total('draft')]).toEqual([50, 50, 0]);
    expect(await new DynamoUsageRepository(db, table).envelopesSent(appId, '2026-01')).toBe(50);
    expect(retried.length).toBe(conflicts());
    expect(Math.max(0, ...retried)).toBeLessThan(10);
    await tables.drop();
  });
});
