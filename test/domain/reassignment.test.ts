import { describe, expect, it } from 'vitest';
import { reassignSigner } from '#shared/envelopes/reassignment.ts';
import { Conflict, InvalidState, ValidationError } from '#shared/kernel/errors.ts';
import { at, patchSigner, sent, sign, signerAt, thrown } from '#test/support/sent-envelopes.ts';
import { testCtx } from '#test/support/domain.ts';

const carla = { name: 'Carla Nunes', email: 'carla@example.com', reason: 'on leave' };

describe('reassigning a signer (pure)', () => {
  it('keeps the slot, replaces the identity and clears everything bound to the old one', () => {
    const envelope = patchSigner(sent([1, 2]), 0, {
      status: 'viewed', viewedAt: at(1).toISOString(), otpVerifiedAt: at(2).toISOString(), consentedAt: at(3).toISOString(), tokenVersion: 1, linkHash: 'ab',
      embedTicket: { jti: 'j', expiresAt: at(300).toISOString(), openedAt: null, returnUrl: null },
    });
    const before = signerAt(envelope, 0);
    const { change, signer, invite } = reassignSigner(envelope, before.id, carla, 'sender', testCtx(at(10)));
    expect(invite).toBe(true);
    expect(signer).toMatchObject({
      id: before.id, routingOrder: 1, name: 'Carla Nunes', email: 'carla@example.com', status: 'sent', tokenVersion: 2, linkHash: null,
      embedTicket: null, otpVerifiedAt: null, consentedAt: null, viewedAt: null, authMethod: 'email_otp',
    });
    expect(change.after.fields).toEqual(envelope.fields);
    expect(change.audit.map((e) => [e.event, e.actor])).toEqual([['signer.reassigned', 'system'], ['signer.invited', 'system']]);
    expect(change.audit[0]?.detail).toEqual({ signerId: before.id, from: { name: before.name, email: before.email }, to: { name: 'Carla Nunes', email: 'carla@example.com' }, by: 'sender', reason: 'on leave' });
    // The person who no longer signs is told so, in their language, through the outbox
    expect(change.outbox).toMatchObject([
      { kind: 'event', event: 'signer.reassigned', signerId: before.id },
      { kind: 'notify', template: 'notice', notice: 'reassigned', reason: 'on leave', locale: before.locale, recipients: [{ name: before.name, email: before.email }] },
    ]);
  });

  it('a later group stays pending: no invitation now; by the signer, the actor is the signer', () => {
    const envelope = sent([1, 2]);
    const later = signerAt(envelope, 1);
    const { change, signer, invite } = reassignSigner(envelope, later.id, carla, 'signer', testCtx(at(10)));
    expect([signer.status, invite]).toEqual(['pending', false]);
    expect(change.audit.map((e) => [e.event, e.actor])).toEqual([['signer.reassigned', `signer:${later.id}`]]);
    // Never invited, so never told
    expect(change.outbox.filter((item) => item.kind === 'notify')).toEqual([]);
  });

  it('an SMS slot without a new phone becomes an email code', () => {
    const envelope = sent([1], 'sms_otp');
    expect(reassignSigner(envelope, signerAt(envelope, 0).id, carla, 'sender', testCtx(at(10))).signer.authMethod).toBe('email_otp');
  });

  it('refuses a signer who signed (409), a draft or ended envelope (400), and another signer\'s email (400)', () => {
    const envelope = sent([1, 2]);
    const signed = sign(envelope, 0).change.after;
    expect(thrown(() => reassignSigner(signed, signerAt(signed, 0).id, carla, 'sender', testCtx(at(10))))).toBeInstanceOf(Conflict);
    const voided = { ...envelope, status: 'voided' as const };
    expect(thrown(() => reassignSigner(voided, signerAt(voided, 0).id, carla, 'sender', testCtx(at(10))))).toBeInstanceOf(InvalidState);
    const taken = { ...carla, email: signerAt(envelope, 1).email };
    expect(thrown(() => reassignSigner(envelope, signerAt(envelope, 0).id, taken, 'sender', testCtx(at(10))))).toBeInstanceOf(ValidationError);
  });
});
