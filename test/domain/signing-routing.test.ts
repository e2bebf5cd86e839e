/** The signing transitions, continued: declining, and signing with routing to the next group (signing.test.ts: the gates, codes and consent). */
import { describe, expect, it } from 'vitest';
import { verifyChain } from '#shared/kernel/audit-chain.ts';
import { voidEnvelope } from '#shared/envelopes/envelope.ts';
import { InvalidState } from '#shared/kernel/errors.ts';
import { advanceRouting, decline, giveConsent, markViewed, nextRoutingGroup, recordSignature, requestOtp, verifyOtp } from '#shared/signing/signing.ts';
import { testCtx } from '#test/support/domain.ts';
import { at, ENVELOPE_ID, jobsOf, sent, sentWith, sign, signerAt, submissionOf } from '#test/support/sent-envelopes.ts';

describe('declining (decline)', () => {
  it('declines the envelope (terminal) and the signer with the reason; signer.declined and envelope.declined in audit and outbox', () => {
    const envelope = sent([1, 1, 2]);
    const signer = signerAt(envelope, 1);
    const change = decline(envelope, signer, 'wrong amount', testCtx(at(120)));
    expect(change.after.status).toBe('declined');
    expect(signerAt(change.after, 1)).toMatchObject({ status: 'declined', declinedAt: at(120).toISOString(), declineReason: 'wrong amount' });
    expect(change.after.signers.map((s) => s.status)).toEqual(['sent', 'declined', 'pending']);
    expect(change.audit.map((e) => [e.event, e.actor, e.detail])).toEqual([
      ['signer.declined', `signer:${signer.id}`, { reason: 'wrong amount' }],
      ['envelope.declined', 'system', { signerId: signer.id, reason: 'wrong amount' }],
    ]);
    expect(change.audit[0]).toMatchObject({ ip: '203.0.113.7', userAgent: 'vitest' });
    expect(change.outbox).toMatchObject([
      { kind: 'event', event: 'signer.declined', signerId: signer.id },
      { kind: 'event', event: 'envelope.declined', signerId: signer.id },
      { kind: 'job', job: { type: 'retention.tag', envelopeId: envelope.id } },
      // The other invited signer hears who declined and why (decision 38)
      { kind: 'notify', template: 'notice', notice: 'declined', reason: 'wrong amount', declinedBy: signer.name, recipients: [{ email: signerAt(envelope, 0).email }] },
    ]);
    expect(change.after.deletionAt).not.toBeNull(); // the retention window starts when the envelope ends
  });

  it('a decline without a reason records null', () => {
    const envelope = sent([1]);
    const change = decline(envelope, signerAt(envelope, 0), null, testCtx());
    expect(signerAt(change.after, 0).declineReason).toBeNull();
    expect(change.audit[0]?.detail).toEqual({ reason: null });
  });

  it('a declined envelope can no longer be voided or routed', () => {
    const envelope = sent([1, 2]);
    const declined = decline(envelope, signerAt(envelope, 0), null, testCtx()).after;
    expect(() => voidEnvelope(declined, null, testCtx())).toThrow(InvalidState);
    expect(advanceRouting(declined, 2, testCtx())).toBeNull();
  });
});

describe('signing and routing (recordSignature, advanceRouting)', () => {
  it('the first signer of a group to sign queues nothing; the envelope moves sent -> in_progress', () => {
    const envelope = sent([1, 1, 2]);
    const ctx = testCtx(at(300));
    const { change, next } = sign(envelope, 0, ctx);
    expect(next).toBeNull();
    expect(change.after.status).toBe('in_progress');
    expect(signerAt(change.after, 0)).toMatchObject({ status: 'signed', signedAt: at(300).toISOString() });
    expect(change.outbox).toMatchObject([{ kind: 'event', event: 'signer.signed', signerId: signerAt(envelope, 0).id }]);
    expect(jobsOf(change.outbox)).toEqual([]);
    expect(change.audit.map((e) => e.event)).toEqual(['signer.signed']);
    expect(change.audit[0]?.actor).toBe(`signer:${signerAt(envelope, 0).id}`);
  });

  it('the last signer of a group queues a routing.advance job for the next order, without inviting it yet', () => {
    const envelope = sign(sent([1, 1, 2]), 0).change.after;
    const { change, next } = sign(envelope, 1);
    expect(next).toBe('advance');
    expect(jobsOf(change.outbox)).toMatchObject([{ kind: 'job', envelopeId: envelope.id, job: { type: 'routing.advance', envelopeId: envelope.id, routingOrder: 2 } }]);
    expect(change.after.signers.map((s) => s.status)).toEqual(['signed', 'signed', 'pending']);
  });

  it('the last signer overall queues the seal job; completion is left to sealing', () => {
    let envelope = sign(sign(sent([1, 1, 2]), 0).change.after, 1).change.after;
    envelope = advanceRouting(envelope, 2, testCtx())!.change.after;
    const { change, next } = sign(envelope, 2);
    expect(next).toBe('seal');
    expect(jobsOf(change.outbox)).toMatchObject([{ kind: 'job', job: { type: 'seal', envelopeId: envelope.id } }]);
    expect(change.after).toMatchObject({ status: 'in_progress', completedAt: null });
    expect(change.after.signers.every((s) => s.status === 'signed')).toBe(true);
  });

  it('a single signer queues the seal job straight from a sent envelope', () => {
    const { change, next } = sign(sent([1]), 0);
    expect(next).toBe('seal');
    expect(change.after.status).toBe('in_progress');
    expect(jobsOf(change.outbox)).toMatchObject([{ job: { type: 'seal' } }]);
  });

  it('the submission rides on the change and its values are summarised in signer.signed', () => {
    const envelope = sent([1]);
    const signer = signerAt(envelope, 0);
    const submission = submissionOf(envelope, signer);
    const { change } = recordSignature(envelope, signer, submission, testCtx());
    expect(change.submission).toBe(submission);
    expect(change.audit[0]?.detail).toEqual({
      fields: [{ fieldId: submission.values[0]?.fieldId, type: 'signature', kind: 'typed' }], fontLabel: 'Caveat',
    });
  });

  it('advanceRouting invites exactly the waiting group, and running it again on the result is a no-op', () => {
    const envelope = sign(sign(sent([1, 1, 2, 2, 3]), 0).change.after, 1).change.after;
    const advanced = advanceRouting(envelope, 2, testCtx(at(400)))!;
    expect(advanced.invited.map((s) => s.email)).toEqual(['s2@example.com', 's3@example.com']);
    expect(advanced.invited.every((s) => s.status === 'sent')).toBe(true);
    expect(advanced.change.after.signers.map((s) => s.status)).toEqual(['signed', 'signed', 'sent', 'sent', 'pending']);
    expect(advanced.change.audit.map((e) => [e.event, e.actor, e.detail])).toEqual([
      ['signer.invited', 'system', { signerId: signerAt(envelope, 2).id, email: 's2@example.com', routingOrder: 2 }],
      ['signer.invited', 'system', { signerId: signerAt(envelope, 3).id, email: 's3@example.com', routingOrder: 2 }],
    ]);
    expect(advanced.change.outbox).toEqual([]); // the use case mints the links and adds the invitations
    expect(advanceRouting(advanced.change.after, 2, testCtx())).toBeNull();
  });

  it('advanceRouting does nothing while an earlier group is unsigned', () => {
    const envelope = sent([1, 1, 2]);
    expect(advanceRouting(envelope, 2, testCtx())).toBeNull();
    const half = sign(envelope, 0).change.after;
    expect(advanceRouting(half, 2, testCtx())).toBeNull();
    expect(nextRoutingGroup(half).map((s) => s.email)).toEqual(['s2@example.com']);
  });

  it('routing orders with gaps (1, 5, 9) advance one group at a time, in order', () => {
    let envelope = sent([9, 1, 5]);
    expect(envelope.signers.map((s) => s.status)).toEqual(['pending', 'sent', 'pending']);
    const first = sign(envelope, 1);
    expect(first.next).toBe('advance');
    expect(jobsOf(first.change.outbox)).toMatchObject([{ job: { type: 'routing.advance', routingOrder: 5 } }]);
    envelope = first.change.after;
    expect(advanceRouting(envelope, 9, testCtx())).toBeNull();
    envelope = advanceRouting(envelope, 5, testCtx())!.change.after;
    expect(envelope.signers.map((s) => s.status)).toEqual(['pending', 'signed', 'sent']);
    const second = sign(envelope, 2);
    expect(jobsOf(second.change.outbox)).toMatchObject([{ job: { type: 'routing.advance', routingOrder: 9 } }]);
    envelope = advanceRouting(second.change.after, 9, testCtx())!.change.after;
    expect(envelope.signers.map((s) => s.status)).toEqual(['sent', 'signed', 'signed']);
    expect(sign(envelope, 0).next).toBe('seal');
  });

  it('nextRoutingGroup is the lowest waiting order, or [] once everyone is invited', () => {
    const envelope = sent([3, 1, 2, 2]);
    expect(nextRoutingGroup(envelope).map((s) => s.email)).toEqual(['s2@example.com', 's3@example.com']);
    expect(nextRoutingGroup(sent([1, 1]))).toEqual([]);
  });

  it('every signing transition extends one valid audit chain and bumps the version once', () => {
    const start = sentWith([1, 2]);
    const ctx = testCtx(at(10));
    const viewed = markViewed(start.envelope, signerAt(start.envelope, 0), ctx)!;
    const otp = requestOtp(viewed.after, signerAt(viewed.after, 0), 'hash-1', 'email', ctx);
    const verified = verifyOtp(otp.after, signerAt(otp.after, 0), () => true, ctx).change!;
    const consented = giveConsent(verified.after, signerAt(verified.after, 0), ctx);
    const signed = sign(consented.after, 0, ctx).change;
    const advanced = advanceRouting(signed.after, 2, ctx)!.change;
    const changes = [viewed, otp, verified, consented, signed, advanced];
    const all = [...start.audit, ...changes.flatMap((c) => c.audit)];
    expect(verifyChain(ENVELOPE_ID, all)).toEqual({ valid: true, head: advanced.after.auditHead });
    expect(advanced.after.version).toBe(start.envelope.version + changes.length);
  });
});
