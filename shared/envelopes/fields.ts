import type { AuditDraft } from '../kernel/audit-chain.ts';
import { changeOf, requireDraft, type Ctx, type EnvelopeChange } from '../kernel/change.ts';
import { InvalidState, type FieldErrors } from '../kernel/errors.ts';
import { originals, type DocumentPages, type Envelope, type Field, type FieldType } from '../kernel/model.ts';
import { pagesOf } from './page-geometry.ts';
import { assertNoErrors, placementErrors } from './field-placement.ts';
import { conditionErrors } from './field-conditions.ts';
import { validationErrors } from './pattern-rules.ts';
import { attachmentCountErrors, attachmentFieldErrors, attachmentSettings } from '../attachments/attachment-fields.ts';

/** A field before it has an id. */
export type FieldInput = Omit<Field, 'id'>;

/** Keeps a send (envelope, audit, outbox, counters) within one 100-item transaction, and the envelope item small. */
export const MAX_FIELDS = 1000;
export const MAX_LABEL_CHARS = 100;
export const MAX_FIELD_VALUE_CHARS = 1000;

/** Types a value may be given beforehand (decision 17): a signature, initials or the signing date are the signer's. */
const PREFILLABLE: readonly FieldType[] = ['text', 'checkbox'];

/** The rules on a field's label, prefill and read-only flag (decision 17), keyed by `${path}.<attribute>`. */
export function valueErrors(field: Pick<FieldInput, 'type' | 'value' | 'readOnly' | 'validation' | 'label' | 'accept' | 'maxBytes'>, path: string): FieldErrors {
  const at = (attribute: string) => (path ? `${path}.${attribute}` : attribute);
  const attachment = attachmentFieldErrors(field, at);
  if (Object.keys(attachment).length > 0) return attachment;
  const value = field.value ?? null;
  const invalid = validationErrors(field.type, field.validation, path);
  if (Object.keys(invalid).length > 0) return invalid;
  if (value !== null && !PREFILLABLE.includes(field.type)) return { [at('value')]: [`only text and checkbox fields take a value, not ${field.type}`] };
  if (value !== null && field.type === 'checkbox' && value !== 'true' && value !== 'false') return { [at('value')]: ['must be "true" or "false" for a checkbox'] };
  if (value !== null && value.length > MAX_FIELD_VALUE_CHARS) return { [at('value')]: [`must be at most ${String(MAX_FIELD_VALUE_CHARS)} characters`] };
  if (field.readOnly && value === null) return { [at('value')]: ['is required for a read-only field'] };
  return {};
}

/** A read-only field is never required of the signer; the rest keep their own setting. */
export const normalised = (field: FieldInput): FieldInput => ({
  ...field, label: field.label ?? null, value: field.value ?? null, readOnly: field.readOnly ?? false, required: field.readOnly ? false : field.required,
  showIf: field.showIf ?? null, validation: field.validation ?? null,
  ...attachmentSettings(field),
});

/** The conditions of all the envelope's fields (a label a condition names is unique; no cycles), or a 400. */
export function assertConditions(fields: readonly Pick<Field, 'label' | 'showIf'>[], path: (i: number) => string): void {
  assertNoErrors(rebase(conditionErrors(fields, path)), 'Some field conditions are invalid');
}

/** Fields the signer fills (sending counts these, decision 3): read-only ones are shown to them, not theirs to fill. */
export const fillable = (field: Pick<Field, 'readOnly'>) => !field.readOnly;

/**
 * Checks fields against the signers, their documents (`pages`: those of the documents they are on) and the value
 * rules; `path(i)` names field i in the request.
 */
export function fieldErrors(fields: readonly FieldInput[], envelope: Pick<Envelope, 'signers' | 'documents'>, pages: DocumentPages, path: (i: number) => string): FieldErrors {
  const documents = originals(envelope);
  const errors: FieldErrors = attachmentCountErrors(fields, 'fields');
  fields.forEach((field, i) => {
    if (!envelope.signers.some((s) => s.id === field.signerId)) {
      errors[`${path(i)}.signerId`] = ['is not a signer of this envelope'];
      return;
    }
    const document = documents.find((d) => d.id === field.documentId);
    if (field.documentId !== null && !document) {
      errors[`${path(i)}.documentId`] = ['is not a document of this envelope'];
      return;
    }
    if (field.documentId === null && documents.length > 0) {
      errors[`${path(i)}.documentId`] = ['is required: name the document the field is on'];
      return;
    }
    Object.assign(errors, valueErrors(field, path(i)));
    if (document) Object.assign(errors, placementErrors(field, pagesOf(pages, document), path(i)));
    else if (field.w <= 0 || field.h <= 0) errors[`${path(i)}.${field.w <= 0 ? 'w' : 'h'}`] = ['must be greater than 0'];
  });
  return errors;
}

/** `.page` -> `page`: single-field requests name attributes at the top level. */
export function rebase(errors: FieldErrors): FieldErrors {
  return Object.fromEntries(Object.entries(errors).map(([k, v]) => [k.replace(/^\./, ''), v]));
}

const fieldAdded = (field: Field, ctx: Ctx): AuditDraft => ({
  event: 'field.added', actor: ctx.meta.actor ?? 'system', ip: ctx.meta.ip, userAgent: ctx.meta.userAgent,
  detail: { fieldId: field.id, signerId: field.signerId, documentId: field.documentId, type: field.type, page: field.page, label: field.label ?? null, readOnly: field.readOnly ?? false },
});

/** The document a new field goes on: the one it names, else the only one (with several, it must name one). */
export function targetDocumentId(envelope: Pick<Envelope, 'documents'>, documentId: string | null): string | null {
  const documents = originals(envelope);
  return documentId ?? (documents.length === 1 ? documents[0]?.id ?? null : null);
}

/**
 * Adds fields to a draft in one change (an anchor may place several). With one document a field without
 * `documentId` goes on it; with several, each field must name its document. `pages`: those of the documents named.
 */
export function addFields(envelope: Envelope, inputs: readonly FieldInput[], pages: DocumentPages, ctx: Ctx): { change: EnvelopeChange; fields: Field[] } {
  requireDraft(envelope, 'add a field');
  if (envelope.fields.length + inputs.length > MAX_FIELDS) throw new InvalidState(`An envelope has at most ${String(MAX_FIELDS)} fields`);
  const fields = inputs.map((input): Field => ({ ...normalised(input), id: ctx.nextId(), documentId: targetDocumentId(envelope, input.documentId) }));
  const single = inputs.length === 1;
  assertNoErrors(attachmentCountErrors([...envelope.fields, ...fields], single ? 'type' : 'fields'), 'Too many attachment fields');
  assertNoErrors(single ? rebase(fieldErrors(fields, envelope, pages, () => '')) : fieldErrors(fields, envelope, pages, (i) => `fields[${String(i)}]`), 'The field is invalid');
  const existing = envelope.fields.length;
  assertConditions([...envelope.fields, ...fields], (i) => (i < existing ? `envelope.fields[${String(i)}]` : single ? '' : `fields[${String(i - existing)}]`));
  const after = { ...envelope, fields: [...envelope.fields, ...fields] };
  return { change: changeOf(envelope, after, fields.map((f) => fieldAdded(f, ctx)), [], ctx), fields };
}
