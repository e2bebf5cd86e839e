/**
 * Envelopes for the signing transitions' tests (test/domain/signing*.test.ts): sent with one signer per routing
 * order, signed by a typed signature, and the small helpers those tests share.
 */
import type { AuditEntry } from '#shared/kernel/audit-chain.ts';
import { createEnvelope, sendEnvelope, type NewEnvelopeInput } from '#shared/envelopes/envelope.ts';
import type { AuthMethod, Envelope, Signer } from '#shared/kernel/model.ts';
import { recordSignature } from '#shared/signing/signing.ts';
import type { Submission } from '#shared/signing/submission.ts';
import { letterDocument, withPages, signerInput, testCtx } from './domain.ts';

export const ENVELOPE_ID = '0190f5d2-0000-7000-8000-0000000000bb';
export const T0 = new Date('2026-01-01T00:00:00.000Z');
export const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

/** A sent envelope with one signer per routing order given (signers s0@, s1@, ...), each with one signature field. */
export function sentWith(orders: readonly number[], authMethod: AuthMethod = 'email_otp'): { envelope: Envelope; audit: AuditEntry[] } {
  const created = createEnvelope({
    id: ENVELOPE_ID, appId: 'app-1', tenantId: 'acme', subject: 'NDA', createdBy: null, expiresInDays: 7, fieldOrigin: 'bottom-left',
    signers: orders.map((order, i) => signerInput(`s${String(i)}@example.com`, order, { authMethod })),
    fields: orders.map((_, i): NewEnvelopeInput['fields'][number] => ({
      signerIndex: i, type: 'signature', page: 1, x: 72, y: 72, w: 200, h: 40, required: true, origin: 'bottom-left',
    })),
    ...withPages(letterDocument()),
  }, testCtx(T0));
  const sent = sendEnvelope(created.after, null, testCtx(T0)).change;
  return { envelope: sent.after, audit: [...created.audit, ...sent.audit] };
}

export const sent = (orders: readonly number[], authMethod: AuthMethod = 'email_otp') => sentWith(orders, authMethod).envelope;
export const signerAt = (envelope: Envelope, i: number): Signer => envelope.signers[i]!;
export const patchSigner = (envelope: Envelope, i: number, patch: Partial<Signer>): Envelope => ({
  ...envelope, signers: envelope.signers.map((s, j) => (j === i ? { ...s, ...patch } : s)),
});

export function submissionOf(envelope: Envelope, signer: Signer): Submission {
  const field = envelope.fields.find((f) => f.signerId === signer.id)!;
  return {
    envelopeId: envelope.id, signerId: signer.id, submittedAt: T0.toISOString(), fontLabel: 'Caveat',
    values: [{ fieldId: field.id, type: 'signature', kind: 'typed', text: signer.name, fontLabel: 'Caveat' }],
  };
}

export const sign = (envelope: Envelope, i: number, ctx = testCtx(T0)) => {
  const signer = signerAt(envelope, i);
  return recordSignature(envelope, signer, submissionOf(envelope, signer), ctx);
};

export const jobsOf = (outbox: readonly { kind: string }[]) => outbox.filter((item) => item.kind === 'job');

/** The error thrown by fn, or a failure when it returns. */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}
