import { randomUUID } from 'node:crypto';
import { CreateTableCommand, DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { documentClient } from '#adapters/aws/dynamo.ts';
import { DynamoContactRepository } from '#adapters/aws/dynamo-contact-repository.ts';
import { DynamoEnvelopeRepository } from '#adapters/aws/dynamo-envelope-repository.ts';
import { DynamoIdempotencyStore } from '#adapters/aws/dynamo-idempotency-store.ts';
import { DynamoRateLimiter } from '#adapters/aws/dynamo-rate-limiter.ts';
import { DynamoUsageRepository } from '#adapters/aws/dynamo-usage-repository.ts';
import { createTableInput } from '#adapters/aws/table-schema.ts';
import { createEnvelope, sendEnvelope } from '#domain/envelope.ts';
import { ConcurrentModification, QuotaExceeded } from '#domain/errors.ts';
import type { IdempotencyClaim } from '#ports/traffic.ts';
import { letterDocument, signerInput, testCtx } from '#test/support/domain.ts';

const table = `traffic-test-${String(Date.now())}`;
const db = documentClient({ endpoint: inject('dynamodbEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });

beforeAll(async () => { await db.send(new CreateTableCommand(createTableInput(table))); });
afterAll(async () => { await db.send(new DeleteTableCommand({ TableName: table })); });

describe('DynamoRateLimiter', () => {
  const limiter = new DynamoRateLimiter(db, table);
  const t0 = new Date(Date.UTC(2026, 0, 1, 12, 0, 0));
  const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

  it('counts in a window opened by the first request, and opens a new one after it closes', async () => {
    const key = `app#${randomUUID()}`;
    expect(await limiter.hit(key, 60, t0)).toEqual({ count: 1, resetAtMs: at(60).getTime() });
    expect(await limiter.hit(key, 60, at(30))).toEqual({ count: 2, resetAtMs: at(60).getTime() });
    expect(await limiter.hit(key, 60, at(59.999))).toMatchObject({ count: 3 });
    expect(await limiter.hit(key, 60, at(60))).toEqual({ count: 1, resetAtMs: at(120).getTime() });
  });

  it('counts every one of many concurrent first requests exactly once', async () => {
    const key = `tok#${randomUUID()}`;
    const counts = await Promise.all(Array.from({ length: 20 }, () => limiter.hit(key, 60, t0)));
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(new Set(counts.map((c) => c.resetAtMs)).size).toBe(1);
  });

  it('gives up, rather than spinning, when the counter keeps changing under it', async () => {
    const mock = mockClient(DynamoDBDocumentClient);
    try {
      const failed = Object.assign(new Error('condition'), { name: 'ConditionalCheckFailedException' });
      mock.on(UpdateCommand).rejects(failed).on(PutCommand).rejects(failed);
      await expect(new DynamoRateLimiter(db, table).hit('ip#1', 60, t0)).rejects.toThrow(/kept changing/);
      expect(mock.commandCalls(UpdateCommand)).toHaveLength(5);
    } finally {
      mock.restore();
    }
  });
});

describe('DynamoIdempotencyStore', () => {
  const store = new DynamoIdempotencyStore(db, table);
  const now = new Date(Date.UTC(2026, 0, 1, 12, 0, 0));
  const claimOf = (over: Partial<IdempotencyClaim> = {}): IdempotencyClaim => ({
    id: `app-1#${randomUUID()}`, fingerprint: 'fp-1', owner: randomUUID(), now, lockSeconds: 60, expiresInSeconds: 86_400, ...over,
  });
  const response = { statusCode: 201, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'x'.repeat(1000) }), isBase64Encoded: false };

  it('lets exactly one of concurrent claims own the key; the others see it in progress', async () => {
    const first = claimOf();
    const results = await Promise.all(Array.from({ length: 8 }, () => store.claim({ ...first, owner: randomUUID() })));
    expect(results.filter((r) => r === undefined)).toHaveLength(1);
    expect(results.filter((r) => r?.state === 'in_progress')).toHaveLength(7);
  });

  it('stores the answer for replay; a stale owner cannot overwrite it; release frees the key', async () => {
    const claim = claimOf();
    expect(await store.claim(claim)).toBeUndefined();
    await store.complete(claim, response);
    await store.complete({ ...claim, owner: 'someone-else' }, { ...response, statusCode: 500 });
    expect(await store.claim({ ...claim, owner: randomUUID() })).toEqual({ state: 'completed', fingerprint: 'fp-1', response });

    const released = claimOf();
    await store.claim(released);
    await store.release(released);
    expect(await store.claim({ ...released, owner: randomUUID() })).toBeUndefined();
  });

  it('takes over an abandoned claim of the same request, and any record after its 24 hours', async () => {
    const claim = claimOf();
    await store.claim(claim);
    const later = new Date(now.getTime() + 61_000);
    expect(await store.claim({ ...claim, owner: randomUUID(), now: later, fingerprint: 'fp-other' })).toEqual({ state: 'in_progress', fingerprint: 'fp-1' });
    expect(await store.claim({ ...claim, owner: randomUUID(), now: later })).toBeUndefined();

    const done = claimOf();
    await store.claim(done);
    await store.complete(done, response);
    const nextDay = new Date(now.getTime() + 86_400_000);
    expect(await store.claim({ ...done, owner: randomUUID(), now: nextDay, fingerprint: 'fp-2' })).toBeUndefined();
  });
});

describe('DynamoContactRepository', () => {
  const contacts = new DynamoContactRepository(db, table);
  const contact = (appId: string, email: string, name = 'Ana') => ({ id: randomUUID(), appId, name, email, phone: null, createdAt: '2026-01-01T00:00:00.000Z' });

  it('upserts by (application, email) case-insensitively, also under concurrency', async () => {
    const appId = randomUUID();
    const saved = await Promise.all(['A@X.test', 'a@x.test', 'a@X.TEST', 'A@x.test'].map((email, i) => contacts.upsert(contact(appId, email, `Ana ${String(i)}`))));
    expect(new Set(saved.map((c) => c.id)).size).toBe(1);
    expect(await contacts.list(appId, null)).toHaveLength(1);
    expect(await contacts.list(randomUUID(), null)).toEqual([]);
  });

  it('deletes by id within the application only', async () => {
    const appId = randomUUID();
    const saved = await contacts.upsert(contact(appId, 'b@x.test'));
    expect(await contacts.delete(randomUUID(), saved.id)).toBe(false);
    expect(await contacts.delete(appId, saved.id)).toBe(true);
    expect(await contacts.delete(appId, saved.id)).toBe(false);
    expect(await contacts.list(appId, 'b@')).toEqual([]);
  });
});

describe('usage counter in the send transaction', () => {
  const envelopes = new DynamoEnvelopeRepository(db, table);
  const usage = new DynamoUsageRepository(db, table);

  async function draftFor(appId: string) {
    const created = createEnvelope({
      id: randomUUID(), appId, tenantId: 't', subject: null, createdBy: null, expiresInDays: 7, fieldOrigin: 'bottom-left',
      signers: [signerInput('a@example.com')], fields: [{ signerIndex: 0, type: 'signature', page: 1, x: 1, y: 1, w: 10, h: 10, required: true, origin: 'bottom-left' }],
      documents: [letterDocument()],
    }, testCtx());
    await envelopes.commit(created);
    return created.after;
  }

  it('counts each send in its own transaction and refuses the one beyond the limit, writing nothing', async () => {
    const appId = randomUUID();
    const [a, b] = [await draftFor(appId), await draftFor(appId)];
    await envelopes.commit({ ...sendEnvelope(a, null, testCtx()).change, usage: { appId, period: '2026-01', limit: 1 } });
    await expect(envelopes.commit({ ...sendEnvelope(b, null, testCtx()).change, usage: { appId, period: '2026-01', limit: 1 } })).rejects.toBeInstanceOf(QuotaExceeded);
    expect((await envelopes.get(appId, b.id))?.status).toBe('draft');
    expect(await usage.envelopesSent(appId, '2026-01')).toBe(1);
    expect(await usage.envelopesSent(appId, '2026-02')).toBe(0);
    await envelopes.commit({ ...sendEnvelope(b, null, testCtx()).change, usage: { appId, period: '2026-01', limit: null } });
    expect(await usage.envelopesSent(appId, '2026-01')).toBe(2);
  });

  it('reports a lost version race as ConcurrentModification even when the quota is also used up', async () => {
    const appId = randomUUID();
    const a = await draftFor(appId);
    await envelopes.commit({ ...sendEnvelope(a, null, testCtx()).change, usage: { appId, period: '2026-01', limit: 1 } });
    const stale = sendEnvelope(a, null, testCtx()).change;
    const error: unknown = await envelopes.commit({ ...stale, usage: { appId, period: '2026-01', limit: 1 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConcurrentModification);
  });
});
