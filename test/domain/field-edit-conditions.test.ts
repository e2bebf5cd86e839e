/**
 * A field replaced or removed in a draft (the editor's PUT and DELETE) keeps the envelope's conditions whole: a
 * condition it is given is checked as at create (the label it names on exactly one field, no cycle), a label a
 * condition names cannot be taken away, and its condition, validation and attachment settings are kept.
 */
import { describe, expect, it } from 'vitest';
import { createEnvelope, type NewEnvelopeInput } from '#shared/envelopes/envelope.ts';
import { removeField, replaceField, type FieldReplacement } from '#shared/envelopes/draft-edits.ts';
import type { Envelope, Field } from '#shared/kernel/model.ts';
import { errorsOf, letterDocument, letterPages, signerInput, testCtx } from '#test/support/domain.ts';

const document = letterDocument();
const spec = (type: string, label: string | null, x: number): NewEnvelopeInput['fields'][number] =>
  ({ signerIndex: 0, type, required: false, page: 1, x, y: 10, w: 20, h: 10, origin: 'bottom-left', label } as NewEnvelopeInput['fields'][number]);

const draft = (): Envelope => createEnvelope({
  id: '0190f5d2-0000-7000-8000-0000000000ce', appId: 'app-1', tenantId: 'acme', subject: null, createdBy: null, expiresInDays: 7,
  fieldOrigin: 'bottom-left', signers: [signerInput('a@example.com')],
  fields: [spec('checkbox', 'Company', 10), spec('text', 'Company name', 40), spec('text', 'Twin', 70), spec('text', 'Twin', 100), spec('attachment', 'Proof', 130)],
  documents: [document], pages: letterPages(document),
}, testCtx()).after;

const replacement = (field: Field, patch: Partial<FieldReplacement>): FieldReplacement => ({ ...field, documentId: null, ...patch });


describe('replacing a field with a condition', () => {
  const envelope = draft();
  const [company, name, twin, , proof] = envelope.fields;
  if (!company || !name || !twin || !proof) throw new Error('no fields');

  it('keeps a condition and a validation it is given, and answers them', () => {
    const { field, change } = replaceField(envelope, name.id, replacement(name, { showIf: { label: 'Company', equals: 'true' }, validation: { minLength: 2, pattern: '[A-Z].*' } }), letterPages(document), testCtx());
    expect(field).toMatchObject({ showIf: { label: 'Company', equals: 'true' }, validation: { minLength: 2, pattern: '[A-Z].*' } });
    expect(change.after.fields.find((f) => f.id === name.id)?.showIf).toEqual({ label: 'Company', equals: 'true' });
  });

  it('refuses a condition naming a label two fields carry, or no field, at showIf.label', () => {
    expect(errorsOf(() => replaceField(envelope, name.id, replacement(name, { showIf: { label: 'Twin' } }), letterPages(document), testCtx())))
      .toEqual({ 'showIf.label': [expect.stringContaining('must be unique')] });
    expect(errorsOf(() => replaceField(envelope, name.id, replacement(name, { showIf: { label: 'Nobody' } }), letterPages(document), testCtx())))
      .toEqual({ 'showIf.label': [expect.stringContaining('names no field')] });
  });

  it('refuses a cycle, and a label taken from the field a condition names', () => {
    const withCondition = replaceField(envelope, name.id, replacement(name, { showIf: { label: 'Company' } }), letterPages(document), testCtx()).change.after;
    expect(Object.keys(errorsOf(() => replaceField(withCondition, company.id, replacement(company, { showIf: { label: 'Company name' } }), letterPages(document), testCtx())))).toContain('showIf');
    expect(Object.keys(errorsOf(() => replaceField(withCondition, company.id, replacement(company, { label: 'Firm' }), letterPages(document), testCtx()))))
      .toEqual(['envelope.fields[1].showIf.label']);
    expect(Object.keys(errorsOf(() => removeField(withCondition, company.id, testCtx())))).toEqual(['envelope.fields[1].showIf.label']);
  });

  it('keeps an attachment field\'s formats and size, and refuses them on another type', () => {
    const { field } = replaceField(envelope, proof.id, replacement(proof, { accept: ['pdf'], maxBytes: 2_000_000 }), letterPages(document), testCtx());
    expect(field).toMatchObject({ accept: ['pdf'], maxBytes: 2_000_000 });
    expect(Object.keys(errorsOf(() => replaceField(envelope, twin.id, replacement(twin, { accept: ['pdf'] }), letterPages(document), testCtx())))).toEqual(['accept']);
  });
});
