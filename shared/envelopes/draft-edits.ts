/**
 * Changing a draft after it was made: replacing or removing a field or a signer, and its subject and message. Each
 * is refused on an envelope that is not a draft (decision 6: 400 invalid_state), checked as a new one would be
 * (decision 3), and recorded in the audit chain as the application's change. Pure: no I/O.
 */
import type { AuditDraft } from '../kernel/audit-chain.ts';
import { changeOf, requireDraft, type Ctx, type EnvelopeChange } from '../kernel/change.ts';
import { NotFound, ValidationError } from '../kernel/errors.ts';
import type { DocumentPages, Envelope, Field } from '../kernel/model.ts';
import { duplicateEmailErrors, newSigner, type SignerInput } from './envelope.ts';
import { assertNoErrors } from './field-placement.ts';
import { assertConditions, fieldErrors, normalised, rebase, type FieldInput } from './fields.ts';

const system = (event: AuditDraft['event'], ctx: Ctx, detail: AuditDraft['detail']): AuditDraft => ({
  event, actor: 'system', ip: ctx.meta.ip, userAgent: ctx.meta.userAgent, detail,
});

function fieldOf(envelope: Envelope, fieldId: string | undefined): Field {
  const field = fieldId === undefined ? undefined : envelope.fields.find((f) => f.id === fieldId);
  if (!field) throw new NotFound('Field not found on this envelope');
  return field;
}

/** What a field is replaced with: without `documentId`, it stays on its document. */
export type FieldReplacement = Omit<FieldInput, 'documentId' | 'origin'> & { documentId: string | null; origin?: FieldInput['origin'] | undefined };

/** Replaces a field's placement, signer and attributes; `pages`: those of the document it ends up on. */
export function replaceField(envelope: Envelope, fieldId: string | undefined, input: FieldReplacement, pages: DocumentPages, ctx: Ctx): { change: EnvelopeChange; field: Field } {
  requireDraft(envelope, 'change a field');
  const before = fieldOf(envelope, fieldId);
  const field: Field = { ...normalised({ ...input, origin: input.origin ?? before.origin, documentId: input.documentId ?? before.documentId }), id: before.id };
  assertNoErrors(rebase(fieldErrors([field], envelope, pages, () => '')), 'The field is invalid');
  const after = { ...envelope, fields: envelope.fields.map((f) => (f.id === field.id ? field : f)) };
  // The field's own condition, and the conditions that name its label, hold as at create
  assertConditions(after.fields, (i) => (after.fields[i]?.id === field.id ? '' : `envelope.fields[${String(i)}]`));
  const detail = { fieldId: field.id, signerId: field.signerId, documentId: field.documentId, type: field.type, page: field.page, label: field.label ?? null, readOnly: field.readOnly ?? false };
  return { change: changeOf(envelope, after, [system('field.updated', ctx, detail)], [], ctx), field };
}

export function removeField(envelope: Envelope, fieldId: string | undefined, ctx: Ctx): EnvelopeChange {
  requireDraft(envelope, 'remove a field');
  const field = fieldOf(envelope, fieldId);
  const after = { ...envelope, fields: envelope.fields.filter((f) => f.id !== field.id) };
  // A field whose label a condition names stays until that condition goes
  assertConditions(after.fields, (i) => `envelope.fields[${String(envelope.fields.findIndex((f) => f.id === after.fields[i]?.id))}]`);
  return changeOf(envelope, after, [system('field.removed', ctx, { fieldId: field.id, signerId: field.signerId, documentId: field.documentId })], [], ctx);
}

function signerIndex(envelope: Envelope, signerId: string | undefined): number {
  const index = signerId === undefined ? -1 : envelope.signers.findIndex((s) => s.id === signerId);
  if (index < 0) throw new NotFound('Signer not found on this envelope');
  return index;
}

/** Replaces a signer's details; their id, and so their fields, stay. */
export function replaceSigner(envelope: Envelope, signerId: string | undefined, input: SignerInput, ctx: Ctx): { change: EnvelopeChange; signer: Envelope['signers'][number] } {
  requireDraft(envelope, 'change a signer');
  const index = signerIndex(envelope, signerId);
  const before = envelope.signers[index];
  if (!before) throw new NotFound('Signer not found on this envelope');
  const signer = newSigner(input, before.id, envelope.locale);
  const signers = envelope.signers.map((s, i) => (i === index ? signer : s));
  assertNoErrors(duplicateEmailErrors(signers, (i) => (i === index ? 'email' : `signers[${String(i)}].email`)), 'Signer emails must be unique');
  const after = { ...envelope, signers };
  const detail = { signerId: signer.id, email: signer.email, routingOrder: signer.routingOrder, authMethod: signer.authMethod };
  return { change: changeOf(envelope, after, [system('signer.updated', ctx, detail)], [], ctx), signer };
}

/** Removes a signer and the fields that were theirs. */
export function removeSigner(envelope: Envelope, signerId: string | undefined, ctx: Ctx): EnvelopeChange {
  requireDraft(envelope, 'remove a signer');
  const signer = envelope.signers[signerIndex(envelope, signerId)];
  if (!signer) throw new NotFound('Signer not found on this envelope');
  const fields = envelope.fields.filter((f) => f.signerId !== signer.id);
  const after = { ...envelope, signers: envelope.signers.filter((s) => s.id !== signer.id), fields };
  const detail = { signerId: signer.id, email: signer.email, fieldsRemoved: envelope.fields.length - fields.length };
  return changeOf(envelope, after, [system('signer.removed', ctx, detail)], [], ctx);
}

export interface DraftDetails {
  subject?: string | null | undefined;
  message?: string | null | undefined;
}

/** The subject and the invitation message of a draft (a send may still give another message). */
export function updateDetails(envelope: Envelope, input: DraftDetails, ctx: Ctx): EnvelopeChange {
  requireDraft(envelope, 'change the envelope');
  if (input.subject === undefined && input.message === undefined) throw ValidationError.at('body', 'give subject, message or both');
  const after = { ...envelope, subject: input.subject === undefined ? envelope.subject : input.subject, message: input.message === undefined ? envelope.message : input.message };
  const changed = Object.keys(input).filter((k) => (input as Record<string, unknown>)[k] !== undefined).sort();
  return changeOf(envelope, after, [system('envelope.updated', ctx, { changed })], [], ctx);
}
