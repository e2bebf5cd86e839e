/** The document step's rules on the state alone: reading order, what is missing, what Finish marks and sends. */
import { describe, expect, it } from 'vitest';
import type { PageGeometry, SigningField } from '../../web/src/api-types.ts';
import { initialValues, isFlagged, missing, nextMissing, progressOf, readingOrder, submission } from '../../web/src/sign/document/model.ts';
import type { DocumentState } from '../../web/src/sign/state.ts';
import type { Value } from '../../web/src/sign/values.ts';

const LETTER: PageGeometry = { box: { x: 0, y: 0, width: 612, height: 792 }, rotate: 0 };
const field = (id: string, type: SigningField['type'], page: number, x: number, y: number, required = true): SigningField =>
  ({ id, type, page, x, y, w: 100, h: 20, required, origin: 'bottom-left', documentId: 'doc-1', label: null, value: null, readOnly: false });

const sig = field('sig', 'signature', 1, 72, 100); // low on page 1
const text = field('text', 'text', 1, 72, 600); // high on page 1
const box = field('box', 'checkbox', 1, 300, 600.5); // the same row as text, to its right
const date = field('date', 'date', 1, 400, 100);
const initial = field('initial', 'initial', 2, 72, 700);
const optional = field('optional', 'checkbox', 2, 72, 100, false);

function state(values: DocumentState['values'] = {}, change: Partial<DocumentState> = {}): DocumentState {
  const fields = readingOrder([sig, text, box, date, initial, optional], [LETTER, LETTER]);
  return {
    fields, values: { ...initialValues(fields), ...values }, font: 'Caveat', adopted: {}, cursor: -1, started: false,
    finishAttempts: 0, submit: { status: 'idle' }, ...change,
  };
}

describe('the document state', () => {
  it('orders fields by page, then top to bottom, then left to right within a row', () => {
    expect(state().fields.map((f) => f.id)).toEqual(['text', 'box', 'sig', 'date', 'initial', 'optional']);
  });

  it('counts required fields the signer fills in: not the date, not an optional box', () => {
    expect(progressOf(state())).toEqual({ done: 0, total: 4 });
    expect(progressOf(state({ text: { kind: 'text', text: 'x' }, box: { kind: 'checkbox', checked: true } }))).toEqual({ done: 2, total: 4 });
    expect(missing(state({ box: { kind: 'checkbox', checked: false } })).map((f) => f.id)).toEqual(['text', 'box', 'sig', 'initial']);
  });

  it('guides to the next missing field after the one last focused, wrapping around', () => {
    expect(nextMissing(state())?.id).toBe('text');
    expect(nextMissing(state({}, { cursor: 2 }))?.id).toBe('initial');
    expect(nextMissing(state({ text: { kind: 'text', text: 'x' } }, { cursor: 4 }))?.id).toBe('box');
  });

  it('marks empty required fields only once Finish was pressed, and each no longer once it is filled', () => {
    const filled = { text: { kind: 'text', text: 'x' } } as const;
    expect(state().fields.filter((f) => isFlagged(state(), f))).toEqual([]);
    const pressed = state(filled, { finishAttempts: 1 });
    expect(pressed.fields.filter((f) => isFlagged(pressed, f)).map((f) => f.id)).toEqual(['box', 'sig', 'initial']);
  });

  it('sends every value in reading order, unchecked boxes as "false", and the font only when something is typed', () => {
    const drawn: Value = { kind: 'drawn', png: 'iVBOR', strokes: [] };
    const { body, fieldIds } = submission(state({ sig: drawn, text: { kind: 'text', text: 'ACME' }, initial: { kind: 'typed', text: 'AS' } }));
    expect(body).toEqual({
      fontLabel: 'Caveat',
      fields: [
        { fieldId: 'text', textValue: 'ACME' }, { fieldId: 'box', textValue: 'false' }, { fieldId: 'sig', signatureImageBase64: 'iVBOR', signatureSource: 'drawn' },
        { fieldId: 'initial', textValue: 'AS' }, { fieldId: 'optional', textValue: 'false' },
      ],
    });
    expect(fieldIds).toEqual(['text', 'box', 'sig', 'initial', 'optional']);
    expect(submission(state({ sig: drawn })).body.fontLabel).toBeUndefined();
  });
});
