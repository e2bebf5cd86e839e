import { describe, expect, it } from 'vitest';
import { createEnvelope } from '#shared/envelopes/envelope.ts';
import { commitChange, contextOf, SYSTEM, sweepOutbox } from '#shared/signing/signing-context.ts';
import { sendEnvelopeNow } from '#shared/envelopes/envelope-actions.ts';
import { letterDocument, signerInput, withPages } from '#test/support/domain.ts';
import { memoryDeps } from '#test/support/memory-deps.ts';

const T0 = new Date('2026-01-01T00:00:00.000Z');
const field = (signerIndex: number) => ({ signerIndex, type: 'signature' as const, page: 1, x: 72, y: 72, w: 200, h: 40, required: true, origin: 'bottom-left' as const });

describe('an outbox item whose carrier the committing function lacks', () => {
  it('stays in the outbox untried, and the sweep, which has every carrier, sends it', async () => {
    let now = T0;
    const deps = await memoryDeps({ clock: { now: () => now } });
    await deps.webhooks.put({ id: 'w1', appId: 'app-1', url: 'https://example.com/hook', events: ['envelope.sent'], active: true, retrySchedule: 'A', secretSealed: null, createdAt: T0.toISOString() });
    const draft = createEnvelope({
      id: deps.ids.next(), appId: 'app-1', tenantId: 'acme', subject: 'Lease', createdBy: null, expiresInDays: 10,
      fieldOrigin: 'bottom-left', ...withPages(letterDocument()), signers: [signerInput('a@example.com', 1)], fields: [field(0)],
    }, contextOf(deps, SYSTEM));
    await commitChange(deps, draft);

    // What a function declaring jobs but no mail commits with: the invitation waits, the events go to the queue.
    const { mailer: _mailer, sms: _sms, ...withoutMail } = deps;
    await sendEnvelopeNow(withoutMail, 'app-1', draft.after.id, null, SYSTEM);
    expect(deps.sent.emails).toEqual([]);
    expect(deps.sent.jobs.some((j) => j.type === 'webhook.event')).toBe(true);

    const waiting = await deps.envelopes.staleOutbox(new Date(T0.getTime() + 60_000), 10);
    expect(waiting.map((i) => [i.kind, i.kind === 'notify' ? i.template : null, i.attempts ?? 0, i.lastError ?? null])).toEqual([['notify', 'invitation', 0, null]]);

    now = new Date(T0.getTime() + 60_000);
    expect(await sweepOutbox(deps)).toBe(1);
    expect(deps.sent.emails.map((m) => m.to)).toEqual(['a@example.com']);
    expect(await deps.envelopes.staleOutbox(new Date(T0.getTime() + 86_400_000), 10)).toEqual([]);
  });
});
