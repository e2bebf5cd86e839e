import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyChain } from '#shared/kernel/audit-chain.ts';
import { sendEnvelope, voidEnvelope } from '#shared/envelopes/envelope.ts';
import { ConcurrentModification, QuotaExceeded } from '#shared/kernel/errors.ts';
import { recordSignature, signerOf } from '#shared/signing/signing.ts';
import type { EnvelopeRepository, TenantRepository, UsageRepository } from '#shared/ports/repositories.ts';
import { testCtx } from '#test/support/domain.ts';
import { jobItem, newDraft, rewrite, useBuilt, type Builder } from './fixtures.ts';

/** The ports one table serves together: the commit advances the usage counter, the tenant item keeps the list's counts. */
export interface EnvelopePorts {
  envelopes: EnvelopeRepository;
  usage: UsageRepository;
  tenants: TenantRepository;
}

/** EnvelopeRepository: the one-transaction commit, its reads, and the list (sweeps: envelope-sweeps.ts). */
export function describeEnvelopeRepository(name: string, builder: Builder<EnvelopePorts>): void {
  describe(`EnvelopeRepository contract: ${name}`, () => {
    const ports = useBuilt(builder);
    const repo = () => ports().envelopes;

    it('commits a new envelope with its audit event and outbox item in one transaction, and reads it back', async () => {
      const change = newDraft();
      await repo().commit(change);
      expect(await repo().get('app-1', change.after.id)).toEqual(change.after);
      expect(await repo().get('app-2', change.after.id)).toBeUndefined();
      expect(await repo().find(change.after.id)).toEqual(change.after);
      expect(await repo().auditLog(change.after.id)).toEqual(change.audit);
      expect(await repo().pendingOutbox(change.after.id)).toEqual(change.outbox);
      expect(await repo().getWithAudit('app-1', change.after.id)).toEqual({ envelope: change.after, auditLog: change.audit });
      expect(await repo().getWithAudit('app-2', change.after.id)).toBeUndefined();
    });

    it('answers undefined, or nothing, for an envelope that does not exist', async () => {
      const id = randomUUID();
      expect(await repo().find(id)).toBeUndefined();
      expect(await repo().getWithAudit('app-1', id)).toBeUndefined();
      expect(await repo().auditLog(id)).toEqual([]);
      expect(await repo().submissions(id)).toEqual([]);
      expect(await repo().pendingOutbox(id)).toEqual([]);
    });

    it('refuses a second create of the same id and a stale version, writing nothing', async () => {
      const change = newDraft();
      await repo().commit(change);
      await expect(repo().commit(change)).rejects.toBeInstanceOf(ConcurrentModification);
      const sent = sendEnvelope(change.after, null, testCtx()).change;
      await repo().commit(sent);
      const staleVoid = voidEnvelope(change.after, null, testCtx());
      await expect(repo().commit(staleVoid)).rejects.toBeInstanceOf(ConcurrentModification);
      const stored = await repo().get('app-1', change.after.id);
      expect(stored?.status).toBe('sent');
      const log = await repo().auditLog(change.after.id);
      expect(log.map((e) => e.event)).toEqual(['envelope.created', 'envelope.sent', 'signer.invited']);
      expect(verifyChain(change.after.id, log)).toMatchObject({ valid: true, head: stored?.auditHead });
      expect((await repo().pendingOutbox(change.after.id)).map((i) => i.id).sort()).toEqual([...change.outbox, ...sent.outbox].map((i) => i.id).sort());
    });

    it('refuses an update of an envelope that was never created', async () => {
      const change = newDraft();
      await expect(repo().commit(rewrite(change.after, { subject: 'ghost' }))).rejects.toBeInstanceOf(ConcurrentModification);
      expect(await repo().find(change.after.id)).toBeUndefined();
    });

    it('lets exactly one of ten concurrent writers of the same version win; the chain does not fork', async () => {
      const change = newDraft();
      await repo().commit(change);
      const attempts = Array.from({ length: 10 }, (_, i) => voidEnvelope(change.after, `writer ${String(i)}`, testCtx()));
      const results = await Promise.allSettled(attempts.map((c) => repo().commit(c)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.filter((r) => r.status === 'rejected').every((r) => r.reason instanceof ConcurrentModification)).toBe(true);
      const log = await repo().auditLog(change.after.id);
      expect(log).toHaveLength(2);
      expect(verifyChain(change.after.id, log).valid).toBe(true);
    });

    it('writes an audit entry once: a change that would rewrite one is refused whole', async () => {
      const change = newDraft();
      await repo().commit(change);
      const next = rewrite(change.after, { subject: 'changed' });
      const forged = { ...next, audit: change.audit.map((e) => ({ ...e, detail: { forged: true } })) };
      await expect(repo().commit(forged)).rejects.toBeInstanceOf(ConcurrentModification);
      expect(await repo().find(change.after.id)).toEqual(change.after);
      expect(await repo().auditLog(change.after.id)).toEqual(change.audit);
    });

    it("stores a signer's submission once, beside the envelope, in the same transaction", async () => {
      const created = newDraft();
      await repo().commit(created);
      const sent = sendEnvelope(created.after, null, testCtx()).change;
      await repo().commit(sent);
      const signer = signerOf(sent.after, sent.after.signers[0]?.id ?? '');
      const submission = { envelopeId: sent.after.id, signerId: signer.id, submittedAt: '2026-01-02T00:00:00.000Z', fontLabel: null, values: [] };
      const signed = recordSignature(sent.after, signer, submission, testCtx()).change;
      await repo().commit(signed);
      expect(await repo().submissions(sent.after.id)).toEqual([submission]);
      const again = { ...rewrite(signed.after, {}), submission: { ...submission, submittedAt: '2026-01-03T00:00:00.000Z' } };
      await expect(repo().commit(again)).rejects.toBeInstanceOf(ConcurrentModification);
      expect(await repo().submissions(sent.after.id)).toEqual([submission]);
      expect((await repo().find(sent.after.id))?.version).toBe(signed.after.version);
      expect(await repo().findWhole(sent.after.id)).toEqual({
        envelope: await repo().find(sent.after.id), auditLog: await repo().auditLog(sent.after.id), submissions: [submission],
      });
      expect(await repo().findWhole(sent.after.id, false)).toEqual({ envelope: await repo().find(sent.after.id), auditLog: [], submissions: [submission] });
      expect(await repo().findWhole(randomUUID())).toBeUndefined();
    });

    it('keeps what it stores out of reach of the caller: neither the committed nor the returned values are shared', async () => {
      const change = newDraft();
      await repo().commit(change);
      const stored = structuredClone(change.after);
      change.after.signers[0]!.email = 'changed@example.com';
      change.audit[0]!.detail = { changed: true };
      const read = await repo().find(stored.id);
      read!.subject = 'mutated';
      read!.signers.length = 0;
      (await repo().auditLog(stored.id))[0]!.event = 'envelope.voided';
      (await repo().pendingOutbox(stored.id)).length = 0;
      expect(await repo().find(stored.id)).toEqual(stored);
      expect((await repo().auditLog(stored.id))[0]).toMatchObject({ event: 'envelope.created', detail: expect.not.objectContaining({ changed: true }) as unknown });
      expect(await repo().pendingOutbox(stored.id)).toHaveLength(1);
    });

    it('finds a sealed file by every hash it was stored with: an archive renewal\'s new revision, and the copy before it', async () => {
      const change = newDraft();
      await repo().commit(change);
      const [original] = change.after.documents;
      if (!original) throw new Error('no document');
      const first = randomUUID().replaceAll('-', '').padEnd(64, 'a');
      const renewed = randomUUID().replaceAll('-', '').padEnd(64, 'b');
      const sealedDoc = { ...original, id: randomUUID(), kind: 'sealed' as const, sourceDocumentId: original.id, sha256: first };
      const completed = rewrite(change.after, { status: 'completed', documents: [original, sealedDoc] });
      expect(await repo().findSealed(first)).toBeUndefined();
      await repo().commit(completed);
      const found = { envelopeId: change.after.id, documentId: sealedDoc.id };
      expect(await repo().findSealed(first)).toEqual(found);
      await repo().commit(rewrite(completed.after, { documents: [original, { ...sealedDoc, sha256: renewed, archiveRenewals: 1 }] }));
      expect(await repo().findSealed(renewed)).toEqual(found);
      expect(await repo().findSealed(first)).toEqual(found); // a copy downloaded before the renewal still verifies
      expect(await repo().findSealed(original.sha256)).toBeUndefined(); // an original is never a sealed file
    });

    it('refuses a change beyond one transaction (100 items), writing nothing', async () => {
      const change = newDraft();
      await repo().commit(change);
      const outbox = Array.from({ length: 100 }, () => jobItem(change.after.id, '2026-01-01T00:00:00.000Z'));
      await expect(repo().commit(rewrite(change.after, { subject: 'too big' }, outbox))).rejects.toThrow();
      expect(await repo().find(change.after.id)).toEqual(change.after);
      expect(await repo().pendingOutbox(change.after.id)).toHaveLength(1);
    });

    it('refuses an envelope record over 400 KB (one DynamoDB item), writing nothing', async () => {
      const change = newDraft();
      await repo().commit(change);
      await expect(repo().commit(rewrite(change.after, { message: 'x'.repeat(400 * 1024) }))).rejects.toThrow(/size/);
      expect(await repo().find(change.after.id)).toEqual(change.after);
      const fits = rewrite(change.after, { message: 'x'.repeat(300 * 1024) });
      await repo().commit(fits);
      expect((await repo().find(change.after.id))?.message).toHaveLength(300 * 1024);
    });

    it('lists newest first, pages through, counts totals per status, and filters by status', async () => {
      const tenantId = `paging-${randomUUID()}`;
      const changes = Array.from({ length: 7 }, (_, i) => newDraft('app-1', tenantId, new Date(Date.UTC(2026, 1, 1, 0, 0, i))));
      for (const c of changes) await repo().commit(c);
      for (const c of changes.slice(0, 3)) await repo().commit(sendEnvelope(c.after, null, testCtx()).change);
      const ids = changes.map((c) => c.after.id).reverse();
      const page = (page: number, pageSize: number, status: 'sent' | 'draft' | null = null) => repo().list({ appId: 'app-1', tenantId, status, page, pageSize });
      expect((await page(1, 3)).data.map((e) => e.id)).toEqual(ids.slice(0, 3));
      expect((await page(3, 3)).data.map((e) => e.id)).toEqual(ids.slice(6));
      expect(await page(4, 3)).toEqual({ data: [], total: 7 });
      const sent = await page(1, 10, 'sent');
      expect(sent.total).toBe(3);
      expect(sent.data.map((e) => e.status)).toEqual(['sent', 'sent', 'sent']);
      expect((await page(2, 2, 'draft')).data.map((e) => e.id)).toEqual(ids.slice(2, 4));
      expect((await page(1, 2, 'draft')).total).toBe(4);
      expect(await repo().list({ appId: 'app-2', tenantId, status: null, page: 1, pageSize: 10 })).toEqual({ data: [], total: 0 });
    });

    it("leaves the list's counts as they are when the tenant's settings are stored", async () => {
      const tenantId = `counted-${randomUUID()}`;
      await repo().commit(newDraft('app-1', tenantId));
      await ports().tenants.put({ appId: 'app-1', tenantId, defaultExpiresInDays: 3, retentionDays: 90, fieldOrigin: 'top-left', defaultLocale: 'en', defaultReminders: null });
      expect((await repo().list({ appId: 'app-1', tenantId, status: null, page: 1, pageSize: 10 })).total).toBe(1);
      expect(await ports().tenants.get('app-1', tenantId)).toEqual({ appId: 'app-1', tenantId, defaultExpiresInDays: 3, retentionDays: 90, fieldOrigin: 'top-left', defaultLocale: 'en', defaultReminders: null });
    });

    it('keeps exact counts under 50 concurrent creates and sends in one tenant and one application, refusing none', async () => {
      const appId = randomUUID();
      const tenantId = `busy-${randomUUID()}`;
      const drafts = Array.from({ length: 50 }, () => newDraft(appId, tenantId));
      const created = await Promise.allSettled(drafts.map((d) => repo().commit(d)));
      expect(created.filter((r) => r.status === 'rejected')).toEqual([]);
      const sends = drafts.slice(0, 30).map((d) => ({ ...sendEnvelope(d.after, null, testCtx()).change, usage: { appId, period: '2026-01', limit: 1000 } }));
      const sent = await Promise.allSettled(sends.map((s) => repo().commit(s)));
      expect(sent.filter((r) => r.status === 'rejected')).toEqual([]);
      const total = (status: 'sent' | 'draft' | null) => repo().list({ appId, tenantId, status, page: 1, pageSize: 1 }).then((p) => p.total);
      expect([await total(null), await total('sent'), await total('draft')]).toEqual([50, 30, 20]);
      expect(await ports().usage.envelopesSent(appId, '2026-01')).toBe(30);
    });

    describeUsage(ports);
  });
}

/** The usage counter advanced by the send's own commit, and the quota condition on it. */
function describeUsage(ports: () => EnvelopePorts): void {
  async function draftFor(appId: string) {
    const created = newDraft(appId, 't');
    await ports().envelopes.commit(created);
    return created.after;
  }
  const sendWithin = (envelope: Awaited<ReturnType<typeof draftFor>>, limit: number | null) =>
    ({ ...sendEnvelope(envelope, null, testCtx()).change, usage: { appId: envelope.appId, period: '2026-01', limit } });

  it('counts each send in its own transaction and refuses the one beyond the limit, writing nothing', async () => {
    const appId = randomUUID();
    const [a, b] = [await draftFor(appId), await draftFor(appId)];
    await ports().envelopes.commit(sendWithin(a, 1));
    await expect(ports().envelopes.commit(sendWithin(b, 1))).rejects.toBeInstanceOf(QuotaExceeded);
    expect((await ports().envelopes.get(appId, b.id))?.status).toBe('draft');
    expect(await ports().envelopes.auditLog(b.id)).toHaveLength(1);
    expect(await ports().usage.envelopesSent(appId, '2026-01')).toBe(1);
    expect(await ports().usage.envelopesSent(appId, '2026-02')).toBe(0);
    await ports().envelopes.commit(sendWithin(b, null));
    expect(await ports().usage.envelopesSent(appId, '2026-01')).toBe(2);
  });

  it('refuses even the first send of a period when the limit is 0', async () => {
    const appId = randomUUID();
    const draft = await draftFor(appId);
    await expect(ports().envelopes.commit(sendWithin(draft, 0))).rejects.toBeInstanceOf(QuotaExceeded);
    expect(await ports().usage.envelopesSent(appId, '2026-01')).toBe(0);
  });

  it('never lets more concurrent sends through than the limit; a loser fails with QuotaExceeded or a lost race', async () => {
    const appId = randomUUID();
    const drafts = await Promise.all(Array.from({ length: 4 }, () => draftFor(appId)));
    const results = await Promise.allSettled(drafts.map((d) => ports().envelopes.commit(sendWithin(d, 2))));
    const won = results.filter((r) => r.status === 'fulfilled').length;
    expect(won).toBeLessThanOrEqual(2);
    expect(results.every((r) => r.status === 'fulfilled' || r.reason instanceof QuotaExceeded || r.reason instanceof ConcurrentModification)).toBe(true);
    expect(await ports().usage.envelopesSent(appId, '2026-01')).toBe(won);
  });

  it('reports a lost version race as ConcurrentModification even when the quota is also used up', async () => {
    const appId = randomUUID();
    const a = await draftFor(appId);
    await ports().envelopes.commit(sendWithin(a, 1));
    const error: unknown = await ports().envelopes.commit(sendWithin(a, 1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConcurrentModification);
  });
}
