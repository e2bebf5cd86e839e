import { describe, expect, it } from 'vitest';
import { createEnvelope, sendEnvelope } from '#domain/envelope.ts';
import { sweepOutbox } from '#domain/use-cases/context.ts';
import { withNewLinks } from '#domain/use-cases/routing.ts';
import { functionDeps } from '#test/support/function-deps.ts';
import { letterDocument, signerInput, testCtx } from '#test/support/domain.ts';

describe('the outbox sweep', () => {
  it('dispatches what a crash left between commit and dispatch, once, and nothing younger than a minute', async () => {
    let now = new Date('2026-03-01T10:00:00.000Z');
    const deps = await functionDeps({ clock: { now: () => now } });
    const ctx = testCtx(now);
    const created = createEnvelope({
      id: deps.ids.next(), appId: 'app', tenantId: 't', subject: 'Crash', createdBy: null, expiresInDays: 5, fieldOrigin: 'bottom-left',
      signers: [signerInput('crash@example.com')],
      fields: [{ signerIndex: 0, type: 'date', page: 1, x: 1, y: 1, w: 10, h: 10, required: true, origin: 'bottom-left' }], document: letterDocument(),
    }, ctx);
    const sent = sendEnvelope(created.after, null, ctx);
    const linked = await withNewLinks(deps, { ...sent.change, before: null, audit: [...created.audit, ...sent.change.audit], outbox: [...created.outbox, ...sent.change.outbox] }, sent.invited, ctx);
    await deps.envelopes.commit(linked.change); // committed, then "crashed": nothing dispatched
    expect(await deps.envelopes.pendingOutbox(created.after.id)).toHaveLength(3);

    expect(await sweepOutbox(deps)).toBe(0);
    now = new Date(now.getTime() + 61_000);
    expect(await sweepOutbox(deps)).toBe(3);
    expect(deps.sent.emails.map((m) => m.to)).toEqual(['crash@example.com']);
    expect(deps.sent.jobs.map((j) => (j.type === 'webhook.event' ? j.event.event : j.type))).toEqual(['envelope.created', 'envelope.sent']);
    expect(await deps.envelopes.pendingOutbox(created.after.id)).toEqual([]);
    expect(await sweepOutbox(deps)).toBe(0);
  });
});
