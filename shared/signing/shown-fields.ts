/**
 * Which fields of an envelope are shown, from the values known: what signers submitted, else a field's prefill (a
 * read-only field always has its own). The signature check, the signing context and the seal all ask here.
 */
import { shownFieldIds } from '../envelopes/field-conditions.ts';
import type { Envelope, Field } from '../kernel/model.ts';

/** A value as a condition compares it: text as typed, a checkbox "true"/"false", a date, a signature "signed". */
export function conditionText(value: { kind: string; text?: string; checked?: boolean; date?: string }): string {
  switch (value.kind) {
    case 'text': return value.text ?? '';
    case 'checkbox': return value.checked ? 'true' : 'false';
    case 'date': return value.date ?? '';
    default: return 'signed';
  }
}

/** The value a field stands at: the one submitted for it, else its prefill, else empty. */
export function knownValues(fields: readonly Field[], submitted: ReadonlyMap<string, string>): (field: Field) => string {
  return (field) => submitted.get(field.id) ?? field.value ?? '';
}

/** The ids of the envelope's shown fields, given what was submitted (by field id, as `conditionText`). */
export const shownFields = (envelope: Pick<Envelope, 'fields'>, submitted: ReadonlyMap<string, string>): Set<string> =>
  shownFieldIds(envelope.fields, knownValues(envelope.fields, submitted));

/** True when some field has a condition (most envelopes have none: nothing to evaluate). */
export const hasConditions = (envelope: Pick<Envelope, 'fields'>) => envelope.fields.some((f) => f.showIf);
