import { describe, expect, it } from 'vitest';
import { conditionErrors, conditionHolds, shownFieldIds, type ShowIf } from '#shared/envelopes/field-conditions.ts';
import { createEnvelope, type NewEnvelopeInput } from '#shared/envelopes/envelope.ts';
import { ValidationError } from '#shared/kernel/errors.ts';
import type { FieldType } from '#shared/kernel/model.ts';
import { checkSubmission } from '#shared/signing/submission.ts';
import { letterDocument, withPages, signerInput, testCtx } from '#test/support/domain.ts';

interface Spec { id: string; label?: string; showIf?: ShowIf }
const ids = (fields: Spec[], values: Record<string, string>) => [...shownFieldIds(fields, (f) => values[f.id] ?? '')].sort();

describe('a condition', () => {
  it('equals compares the exact value; notEmpty wants a filled value (an unticked box is empty)', () => {
    expect(conditionHolds({ label: 'a', equals: 'yes' }, 'yes')).toBe(true);
    expect(conditionHolds({ label: 'a', equals: 'yes' }, 'Yes')).toBe(false);
    expect(conditionHolds({ label: 'a', notEmpty: true }, '  ')).toBe(false);
    expect(conditionHolds({ label: 'a', notEmpty: true }, 'false')).toBe(false);
    expect(conditionHolds({ label: 'a', notEmpty: true }, 'true')).toBe(true);
    expect(conditionHolds({ label: 'a' }, 'x')).toBe(true);
    expect(conditionHolds({ label: 'a' }, '')).toBe(false);
  });

  it('shows a field only while its condition holds, and hides what depends on a hidden field', () => {
    const fields: Spec[] = [
      { id: 'box', label: 'Company' },
      { id: 'name', label: 'Company name', showIf: { label: 'Company', equals: 'true' } },
      { id: 'vat', showIf: { label: 'Company name', notEmpty: true } },
    ];
    expect(ids(fields, { box: 'false', name: 'Acme' })).toEqual(['box']);
    expect(ids(fields, { box: 'true', name: '' })).toEqual(['box', 'name']);
    expect(ids(fields, { box: 'true', name: 'Acme' })).toEqual(['box', 'name', 'vat']);
  });
});

describe('the rules on conditions', () => {
  const path = (i: number) => `fields[${String(i)}]`;
  it('refuses a label no field has, a label on two fields, and the field itself', () => {
    expect(conditionErrors([{ showIf: { label: 'Nope' } }], path)).toEqual({ 'fields[0].showIf.label': [expect.stringContaining('names no field')] });
    expect(conditionErrors([{ label: 'A' }, { label: 'A' }, { showIf: { label: 'A' } }], path))
      .toEqual({ 'fields[2].showIf.label': [expect.stringContaining('must be unique')] });
    expect(conditionErrors([{ label: 'A', showIf: { label: 'A' } }], path)).toEqual({ 'fields[0].showIf.label': ['names the field itself'] });
  });

  it('allows duplicate labels nobody names, and chains', () => {
    expect(conditionErrors([{ label: 'A' }, { label: 'A' }, { label: 'B', showIf: { label: 'C' } }, { label: 'C' }], path)).toEqual({});
  });

  it('refuses cycles, naming every field on one', () => {
    const errors = conditionErrors([
      { label: 'A', showIf: { label: 'B' } }, { label: 'B', showIf: { label: 'C' } }, { label: 'C', showIf: { label: 'A' } }, { label: 'D', showIf: { label: 'A' } },
    ], path);
    expect(Object.keys(errors).sort()).toEqual(['fields[0].showIf', 'fields[1].showIf', 'fields[2].showIf']);
  });
});

const fieldsOf = (specs: [type: FieldType, label: string | null, showIf?: ShowIf][]): NewEnvelopeInput['fields'] =>
  specs.map(([type, label, showIf], i) => ({ signerIndex: 0, type, required: true, page: 1, x: 10 + i * 30, y: 10, w: 20, h: 10, origin: 'bottom-left', label, showIf: showIf ?? null }));

const envelopeWith = (fields: NewEnvelopeInput['fields']) => createEnvelope({
  id: '0190f5d2-0000-7000-8000-0000000000cd', appId: 'app-1', tenantId: 'acme', subject: null, createdBy: null, expiresInDays: 7,
  fieldOrigin: 'bottom-left', signers: [signerInput('a@example.com')], fields, ...withPages(letterDocument()),
}, testCtx()).after;

describe('creating and signing with conditions', () => {
  it('refuses a cycle at create', () => {
    expect(() => envelopeWith(fieldsOf([['text', 'A', { label: 'B' }], ['text', 'B', { label: 'A' }]]))).toThrow(ValidationError);
  });

  const envelope = envelopeWith(fieldsOf([['checkbox', 'Company'], ['text', 'Company name', { label: 'Company', equals: 'true' }], ['signature', null]]));
  const [box, name, sig] = envelope.fields.map((f) => f.id) as [string, string, string];
  const signer = envelope.signers[0]!;
  const signature = { fieldId: sig, textValue: 'Ana' };

  it('a hidden field is not required, and a value sent for it is refused with field_hidden', () => {
    const values = checkSubmission(envelope, signer, [{ fieldId: box, textValue: 'false' }, signature], 'Caveat', '2026-01-01');
    expect(values.map((v) => v.fieldId)).toEqual([box, sig]);
    let refused: unknown;
    try {
      checkSubmission(envelope, signer, [{ fieldId: box, textValue: 'false' }, { fieldId: name, textValue: 'Acme' }, signature], 'Caveat', '2026-01-01');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).reason).toBe('field_hidden');
    expect((refused as ValidationError).errors).toHaveProperty(['fields[1].fieldId']);
  });

  it('a shown field is required again', () => {
    expect(() => checkSubmission(envelope, signer, [{ fieldId: box, textValue: 'true' }, signature], 'Caveat', '2026-01-01')).toThrow(/missing or invalid/);
    const values = checkSubmission(envelope, signer, [{ fieldId: box, textValue: 'true' }, { fieldId: name, textValue: 'Acme' }, signature], 'Caveat', '2026-01-01');
    expect(values.map((v) => v.fieldId)).toEqual([box, name, sig]);
  });
});
