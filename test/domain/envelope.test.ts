import { addDocument } from '#shared/envelopes/envelope-documents.ts';
import { addFields } from '#shared/envelopes/fields.ts';
import { describe, expect, it } from 'vitest';
import { verifyChain } from '#shared/kernel/audit-chain.ts';
import { addSigner, createEnvelope, expireIfDue, sendEnvelope, voidEnvelope, type NewEnvelopeInput } from '#shared/envelopes/envelope.ts';
import { InvalidState, ValidationError } from '#shared/kernel/errors.ts';
import type { Envelope } from '#shared/kernel/model.ts';
import { placementErrors, toPdfRect } from '#shared/envelopes/field-placement.ts';
import { letterDocument, letterPages, withPages, signerInput, testCtx } from '#test/support/domain.ts';

const field = (signerIndex: number, extra: Partial<NewEnvelopeInput['fields'][number]> = {}) => ({
  signerIndex, type: 'signature' as const, page: 1, x: 72, y: 72, w: 200, h: 40, required: true, origin: 'bottom-left' as const, ...extra,
});

function draft(extra: Partial<NewEnvelopeInput> = {}): Envelope {
  return createEnvelope({
    id: '0190f5d2-0000-7000-8000-0000000000aa', appId: 'app-1', tenantId: 'acme', subject: 'NDA', createdBy: null, expiresInDays: 7,
    fieldOrigin: 'bottom-left', signers: [signerInput('a@example.com', 1), signerInput('b@example.com', 1), signerInput('c@example.com', 2)],
    fields: [field(0), field(1), field(2)], ...withPages(letterDocument(2)), ...extra,
  }, testCtx()).after;
}

function errorsOf(fn: () => unknown): Record<string, string[]> {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError || error instanceof InvalidState) return error.errors;
    throw error;
  }
  throw new Error('expected a validation failure');
}

describe('creating an envelope', () => {
  it('starts as a draft with its first audit event, an envelope.created outbox event and the deadline set', () => {
    const change = createEnvelope({
      id: '0190f5d2-0000-7000-8000-0000000000ab', appId: 'app-1', tenantId: 'acme', subject: null, createdBy: 'u1', expiresInDays: 10,
      fieldOrigin: 'bottom-left', signers: [signerInput('a@example.com')], fields: [field(0)], ...withPages(letterDocument()),
    }, testCtx());
    expect(change.after).toMatchObject({ status: 'draft', version: 1, expiresAt: '2026-01-11T00:00:00.000Z', auditHead: { seq: 1 } });
    expect(change.audit.map((e) => e.event)).toEqual(['envelope.created']);
    expect(change.outbox).toMatchObject([{ kind: 'event', event: 'envelope.created' }]);
    expect(change.after.fields[0]?.signerId).toBe(change.after.signers[0]?.id);
  });

  it('refuses duplicate signer emails, case-insensitively, naming the duplicate', () => {
    expect(errorsOf(() => draft({ signers: [signerInput('a@example.com'), signerInput('A@Example.com')], fields: [] }))).toHaveProperty(['signers[1].email']);
  });

  it('refuses fields off the page or past the last page, naming each', () => {
    const errors = errorsOf(() => draft({ fields: [field(0, { x: 500 }), field(1, { page: 3 }), field(2)] }));
    expect(Object.keys(errors).sort()).toEqual(['fields[0].x', 'fields[1].page']);
  });

  it('accepts fields before the document exists and checks them when it is uploaded', () => {
    const noDoc = draft({ documents: [], fields: [field(0, { page: 2 })] });
    expect(noDoc.fields[0]?.documentId).toBeNull();
    const [one, two] = [letterDocument(1), letterDocument(2)];
    expect(errorsOf(() => addDocument(noDoc, one, letterPages(one).get(one.id) ?? [], testCtx()))).toHaveProperty(['fields[0].page']);
    const attached = addDocument(noDoc, two, letterPages(two).get(two.id) ?? [], testCtx()).after;
    expect(attached.fields[0]?.documentId).toBe(attached.documents[0]?.id);
    expect(attached.documentHashOriginal).toBe('a'.repeat(64));
  });
});

describe('placement with either origin', () => {
  const letter = (rotate: 0 | 90 | 180 | 270, box = { x: 0, y: 0, width: 612, height: 792 }) => ({ box, rotate });

  it('converts top-left coordinates to PDF user space: y_pdf = height - y - h', () => {
    expect(toPdfRect({ x: 10, y: 20, w: 100, h: 50, origin: 'top-left' }, letter(0))).toEqual({ x: 10, y: 722, width: 100, height: 50 });
    expect(toPdfRect({ x: 10, y: 20, w: 100, h: 50, origin: 'bottom-left' }, letter(0))).toEqual({ x: 10, y: 20, width: 100, height: 50 });
  });

  it('measures from the crop box, not the media box', () => {
    expect(toPdfRect({ x: 10, y: 20, w: 100, h: 50, origin: 'bottom-left' }, letter(0, { x: 36, y: 18, width: 540, height: 756 })))
      .toEqual({ x: 46, y: 38, width: 100, height: 50 });
  });

  it('maps the shown (rotated) page back to user space for each /Rotate', () => {
    // A 100 x 50 box 10 pt from the shown left edge and 20 pt from the shown bottom of a letter page.
    const field = { x: 10, y: 20, w: 100, h: 50, origin: 'bottom-left' as const };
    expect(toPdfRect(field, letter(90))).toEqual({ x: 612 - 20 - 50, y: 10, width: 50, height: 100 });
    expect(toPdfRect(field, letter(180))).toEqual({ x: 612 - 10 - 100, y: 792 - 20 - 50, width: 100, height: 50 });
    expect(toPdfRect(field, letter(270))).toEqual({ x: 20, y: 792 - 10 - 100, width: 50, height: 100 });
    // The shown top-left corner of a page turned 90 degrees is the user-space bottom-left corner.
    expect(toPdfRect({ x: 0, y: 0, w: 10, h: 10, origin: 'top-left' }, letter(90))).toEqual({ x: 0, y: 0, width: 10, height: 10 });
  });

  it('checks a field on a rotated page against the shown size (landscape for 90 and 270)', () => {
    const pages = [letter(90)];
    const base = { type: 'text' as const, page: 1, y: 10, w: 100, h: 20, required: true, origin: 'bottom-left' as const };
    expect(placementErrors({ ...base, x: 692 }, pages, '')).toEqual({});
    expect(placementErrors({ ...base, x: 693 }, pages, '')).toHaveProperty('x');
  });

  it('checks a top-left field against the page from the top', () => {
    const envelope = draft();
    const signerId = envelope.signers[0]?.id ?? '';
    const base = { signerId, documentId: null, type: 'text' as const, page: 1, x: 0, w: 100, h: 50, required: true, origin: 'top-left' as const };
    expect(() => addFields(envelope, [{ ...base, y: 742 }], letterPages(...envelope.documents), testCtx())).not.toThrow();
    expect(errorsOf(() => addFields(envelope, [{ ...base, y: 743 }], letterPages(...envelope.documents), testCtx()))).toHaveProperty(['x']);
  });
});

describe('sending', () => {
  it('invites only the first routing group and records envelope.sent and signer.invited', () => {
    const { change, invited } = sendEnvelope(draft(), 'please sign', testCtx(new Date('2026-01-02T00:00:00.000Z')));
    expect(invited.map((s) => s.email)).toEqual(['a@example.com', 'b@example.com']);
    expect(change.after.signers.map((s) => s.status)).toEqual(['sent', 'sent', 'pending']);
    expect(change.after).toMatchObject({ status: 'sent', expiresAt: '2026-01-09T00:00:00.000Z', message: 'please sign' });
    expect(change.audit.map((e) => e.event)).toEqual(['envelope.sent', 'signer.invited', 'signer.invited']);
    expect(change.outbox).toMatchObject([{ kind: 'event', event: 'envelope.sent' }]);
  });

  it('needs a document, signers, and a field for every signer', () => {
    expect(errorsOf(() => sendEnvelope(draft({ documents: [] }), null, testCtx()))).toHaveProperty('document');
    expect(errorsOf(() => sendEnvelope(draft({ fields: [field(0), field(1)] }), null, testCtx()))).toHaveProperty(['signers[2]']);
    expect(errorsOf(() => sendEnvelope(draft({ fields: [] }), null, testCtx()))).toHaveProperty('fields');
  });

  it('refuses a second send and changes to a sent envelope', () => {
    const sent = sendEnvelope(draft(), null, testCtx()).change.after;
    expect(() => sendEnvelope(sent, null, testCtx())).toThrow(InvalidState);
    expect(() => addSigner(sent, signerInput('d@example.com'), testCtx())).toThrow(InvalidState);
  });
});

describe('voiding and expiry', () => {
  it('voids draft, sent and in-progress envelopes with the reason in the audit trail', () => {
    const voided = voidEnvelope(draft(), 'wrong file', testCtx());
    expect(voided.after).toMatchObject({ status: 'voided', voidReason: 'wrong file' });
    expect(voided.audit[0]).toMatchObject({ event: 'envelope.voided', detail: { reason: 'wrong file', previousStatus: 'draft' } });
    const sent = sendEnvelope(draft(), null, testCtx()).change.after;
    expect(voidEnvelope({ ...sent, status: 'in_progress' }, null, testCtx()).after.status).toBe('voided');
  });

  it('refuses to void a terminal envelope', () => {
    for (const status of ['completed', 'declined', 'voided', 'expired'] as const) {
      expect(() => voidEnvelope({ ...draft(), status }, null, testCtx())).toThrow(InvalidState);
    }
  });

  it('expires only sent or in-progress envelopes whose deadline has passed', () => {
    const sent = sendEnvelope(draft(), null, testCtx()).change.after;
    expect(expireIfDue(sent, testCtx(new Date('2026-01-07T23:59:59.000Z')))).toBeNull();
    expect(expireIfDue(sent, testCtx(new Date('2026-01-08T00:00:00.000Z')))?.after.status).toBe('expired');
    expect(expireIfDue(draft(), testCtx(new Date('2027-01-01T00:00:00.000Z')))).toBeNull();
  });

  it('keeps one valid chain across every transition', () => {
    const created = createEnvelope({
      id: '0190f5d2-0000-7000-8000-0000000000ac', appId: 'app-1', tenantId: 'acme', subject: null, createdBy: null, expiresInDays: 7,
      fieldOrigin: 'bottom-left', signers: [signerInput('a@example.com')], fields: [field(0)], ...withPages(letterDocument()),
    }, testCtx());
    const signer = addSigner(created.after, signerInput('b@example.com', 2), testCtx());
    const withField = addFields(signer.change.after, [{ signerId: signer.signer.id, documentId: null, type: 'date', page: 1, x: 1, y: 1, w: 50, h: 10, required: true, origin: 'bottom-left' }], letterPages(...created.after.documents), testCtx());
    const sent = sendEnvelope(withField.change.after, null, testCtx());
    const voided = voidEnvelope(sent.change.after, null, testCtx());
    const all = [created, signer.change, withField.change, sent.change, voided].flatMap((c) => c.audit);
    expect(verifyChain(created.after.id, all)).toEqual({ valid: true, head: voided.after.auditHead });
    expect(voided.after.version).toBe(5);
  });
});
