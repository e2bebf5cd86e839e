import { CreateTableCommand, DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { documentClient } from '#adapters/aws/dynamo.ts';
import { DynamoEnvelopeRepository } from '#adapters/aws/dynamo-envelope-repository.ts';
import { createTableInput } from '#adapters/aws/table-schema.ts';
import { createEnvelope, sendEnvelope, voidEnvelope, type EnvelopeChange } from '#domain/envelope.ts';
import { ConcurrentModification } from '#domain/errors.ts';
import { verifyChain } from '#domain/audit-chain.ts';
import { letterDocument, signerInput, testCtx } from '#test/support/domain.ts';

const table = `repo-test-${String(Date.now())}`;
const db = documentClient({ endpoint: inject('dynamodbEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
const repo = new DynamoEnvelopeRepository(db, table);
let seq = 0;

function newDraft(tenantId = 'acme', createdAt = new Date(Date.UTC(2026, 0, 1, 0, 0, seq))): EnvelopeChange {
  seq++;
  return createEnvelope({
    id: `0190f5d2-0000-7000-8000-${String(seq).padStart(12, '0')}`, appId: 'app-1', tenantId, subject: `E${String(seq)}`, createdBy: null,
    expiresInDays: 7, fieldOrigin: 'bottom-left', signers: [signerInput('a@example.com')],
    fields: [{ signerIndex: 0, type: 'signature', page: 1, x: 1, y: 1, w: 10, h: 10, required: true, origin: 'bottom-left' }],
    documents: [letterDocument()],
  }, testCtx(createdAt));
}

beforeAll(async () => { await db.send(new CreateTableCommand(createTableInput(table))); });
afterAll(async () => { await db.send(new DeleteTableCommand({ TableName: table })); });

describe('DynamoEnvelopeRepository', () => {
  it('commits a new envelope with its audit event and outbox item in one transaction, and reads it back', async () => {
    const change = newDraft();
    await repo.commit(change);
    expect(await repo.get('app-1', change.after.id)).toEqual(change.after);
    expect(await repo.get('app-2', change.after.id)).toBeUndefined();
    expect(await repo.auditLog(change.after.id)).toEqual(change.audit);
    expect(await repo.pendingOutbox(change.after.id)).toEqual(change.outbox);
  });

  it('refuses a second create of the same id and a stale version, writing nothing', async () => {
    const change = newDraft();
    await repo.commit(change);
    await expect(repo.commit(change)).rejects.toBeInstanceOf(ConcurrentModification);
    const sent = sendEnvelope(change.after, null, testCtx()).change;
    await repo.commit(sent);
    const staleVoid = voidEnvelope(change.after, null, testCtx());
    await expect(repo.commit(staleVoid)).rejects.toBeInstanceOf(ConcurrentModification);
    const stored = await repo.get('app-1', change.after.id);
    expect(stored?.status).toBe('sent');
    const log = await repo.auditLog(change.after.id);
    expect(log.map((e) => e.event)).toEqual(['envelope.created', 'envelope.sent', 'signer.invited']);
    expect(verifyChain(change.after.id, log)).toMatchObject({ valid: true, head: stored?.auditHead });
  });

  it('lets exactly one of ten concurrent writers of the same version win; the chain does not fork', async () => {
    const change = newDraft();
    await repo.commit(change);
    const attempts = Array.from({ length: 10 }, (_, i) => voidEnvelope(change.after, `writer ${String(i)}`, testCtx()));
    const results = await Promise.allSettled(attempts.map((c) => repo.commit(c)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').every((r) => r.reason instanceof ConcurrentModification)).toBe(true);
    const log = await repo.auditLog(change.after.id);
    expect(log).toHaveLength(2);
    expect(verifyChain(change.after.id, log).valid).toBe(true);
  });

  it('lists newest first, pages through keys, counts totals per status, and filters by status', async () => {
    const changes = Array.from({ length: 7 }, (_, i) => newDraft('paging', new Date(Date.UTC(2026, 1, 1, 0, 0, i))));
    for (const c of changes) await repo.commit(c);
    for (const c of changes.slice(0, 3)) await repo.commit(sendEnvelope(c.after, null, testCtx()).change);
    const ids = changes.map((c) => c.after.id).reverse();
    const page = (page: number, pageSize: number, status: 'sent' | 'draft' | null = null) => repo.list({ appId: 'app-1', tenantId: 'paging', status, page, pageSize });
    expect((await page(1, 3)).data.map((e) => e.id)).toEqual(ids.slice(0, 3));
    expect((await page(3, 3)).data.map((e) => e.id)).toEqual(ids.slice(6));
    expect(await page(4, 3)).toEqual({ data: [], total: 7 });
    const sent = await page(1, 10, 'sent');
    expect(sent.total).toBe(3);
    expect(sent.data.map((e) => e.status)).toEqual(['sent', 'sent', 'sent']);
    expect((await page(2, 2, 'draft')).data.map((e) => e.id)).toEqual(ids.slice(2, 4));
    expect((await page(1, 2, 'draft')).total).toBe(4);
    expect(await repo.list({ appId: 'app-2', tenantId: 'paging', status: null, page: 1, pageSize: 10 })).toEqual({ data: [], total: 0 });
  });
});
