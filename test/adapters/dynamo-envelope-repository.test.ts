import { describe, expect, it } from 'vitest';
import { DynamoEnvelopeRepository } from '#adapters/aws/dynamo-envelope-repository.ts';
import { DynamoTenantRepository } from '#adapters/aws/dynamo-tenant-repository.ts';
import { DynamoUsageRepository } from '#adapters/aws/dynamo-usage-repository.ts';
import { MemoryEnvelopeRepository } from '#adapters/memory/memory-envelope-repository.ts';
import { dynamoTables } from '#test/support/dynamo-tables.ts';
import { describeEnvelopeRepository } from './contract/envelope-repository.ts';
import { describeEnvelopeSweeps } from './contract/envelope-sweeps.ts';
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
