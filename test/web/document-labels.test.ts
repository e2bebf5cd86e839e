/** Several documents, labels, prefills and read-only fields on the state alone (decision 9, decision 17). */
import { describe, expect, it } from 'vitest';
import type { PageGeometry, SigningField } from '../../web/src/api-types.ts';
import { documentOrder, initialValues, labelOf, missing, needsInput, submission } from '../../web/src/sign/document/model.ts';
import type { DocumentState } from '../../web/src/sign/state.ts';

const LETTER: PageGeometry = { box: { x: 0, y: 0, width: 612, height: 792 }, rotate: 0 };
const field = (id: string, documentId: string | null, page: number, y: number, more: Partial<SigningField> = {}): SigningField =>
  ({ id, type: 'text', page, x: 72, y, w: 100, h: 20, required: true, origin: 'bottom-left', documentId, label: null, value: null, readOnly: false, ...more });

const docs = [{ id: 'contract', pages: [LETTER, LETTER] }, { id: 'annex', pages: [LETTER] }];

describe('several documents', () => {
  it('walks the documents in their order, each in reading order, a field without a document in the first', () => {
    const fields = [field('annex-top', 'annex', 1, 700), field('contract-p2', 'contract', 2, 700), field('loose', null, 1, 100), field('contract-p1', 'contract', 1, 700)];
    expect(documentOrder(fields, docs).map((f) => f.id)).toEqual(['contract-p1', 'loose', 'contract-p2', 'annex-top']);
  });

  it('keeps a field of an unknown document, last, rather than dropping it', () => {
    expect(documentOrder([field('odd', 'elsewhere', 1, 1), field('a', 'annex', 1, 1)], docs).map((f) => f.id)).toEqual(['a', 'odd']);
  });
});

describe('labels, prefills and read-only fields', () => {
  it('names a field by its trimmed label, or not at all', () => {
    expect(labelOf({ label: '  Company ' })).toBe('Company');
    expect(labelOf({ label: '   ' })).toBeNull();
    expect(labelOf({ label: null })).toBeNull();
  });

  it('starts prefilled text and boxes from their prefill, and sends it when the signer leaves it', () => {
    const company = field('company', 'contract', 1, 700, { label: 'Company', value: 'Acme' });
    const agree = field('agree', 'contract', 1, 600, { type: 'checkbox', value: 'true' });
    const empty = field('empty', 'contract', 1, 500, { value: '' });
    const values = initialValues([company, agree, empty]);
    expect(values).toEqual({ company: { kind: 'text', text: 'Acme' }, agree: { kind: 'checkbox', checked: true } });
    const doc: DocumentState = { fields: [company, agree, empty], values, font: 'Caveat', adopted: {}, cursor: -1, started: false, finishAttempts: 0, submit: { status: 'idle' } };
    expect(missing(doc).map((f) => f.id)).toEqual(['empty']);
    expect(submission(doc).body.fields).toEqual([{ fieldId: 'company', textValue: 'Acme' }, { fieldId: 'agree', textValue: 'true' }]);
  });

  it('never asks for a read-only field', () => {
    expect(needsInput(field('fixed', 'contract', 1, 1, { readOnly: true, value: 'X' }))).toBe(false);
    expect(needsInput(field('open', 'contract', 1, 1))).toBe(true);
    const fixed = field('fixed', 'contract', 1, 1, { readOnly: true, value: 'X' });
    const doc: DocumentState = { fields: [fixed], values: { fixed: { kind: 'text', text: 'X' } }, font: 'Caveat', adopted: {}, cursor: -1, started: false, finishAttempts: 0, submit: { status: 'idle' } };
    expect(submission(doc).body.fields).toEqual([]);
  });
});
