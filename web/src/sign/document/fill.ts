/** Filling in a field: the editors for signatures, initials and text, and a checkbox's tick, written to the state. */
import { announce } from '../../dom.ts';
import type { SigningField } from '../../api-types.ts';
import { t } from '../../i18n/i18n.ts';
import type { Value } from '../values.ts';
import { editMark, editText, initialsOf } from '../editors.ts';
import { editAttachment } from '../attachment-editor.ts';
import { contextOf, documentOf, type DocumentState, type Store } from '../state.ts';
import { isDone, labelOf, nextMissing } from './model.ts';
import { textProblem, type TextProblem } from '#shared/envelopes/text-validation.ts';

/** A validation problem in the signer's language. */
export function problemText(problem: TextProblem): string {
  switch (problem.kind) {
    case 'format': return t(problem.format === 'email' ? 'validation.email' : problem.format === 'number' ? 'validation.number' : 'validation.date');
    case 'minLength': return t('validation.minLength', { min: problem.min });
    case 'maxLength': return t('validation.maxLength', { max: problem.max });
    case 'pattern': return t('validation.pattern');
  }
}

/** Sets values (a new `values` object) and drops what the service said about those fields before. */
function setValues(doc: DocumentState, changes: Record<string, Value | undefined>): void {
  const kept = Object.entries(doc.values).filter(([id]) => !Object.hasOwn(changes, id));
  const set = Object.entries(changes).filter((entry): entry is [string, Value] => entry[1] !== undefined);
  doc.values = Object.fromEntries([...kept, ...set]);
  doc.started = true;
  const { submit } = doc;
  if (submit.status === 'refused' && Object.keys(changes).some((id) => Object.hasOwn(submit.byField, id))) {
    const byField = Object.fromEntries(Object.entries(submit.byField).filter(([id]) => !Object.hasOwn(changes, id)));
    doc.submit = Object.keys(byField).length > 0 || submit.other.length > 0 ? { ...submit, byField } : { status: 'idle' };
  }
}

export function setChecked(store: Store, field: SigningField, checked: boolean): void {
  store.update((s) => { setValues(documentOf(s), { [field.id]: { kind: 'checkbox', checked } }); });
}

/** Opens the field's editor; focus is back on the field when it closes. */
export async function editField(store: Store, field: SigningField, focusBack: () => void): Promise<void> {
  const doc = documentOf(store.state);
  const current = doc.values[field.id];
  if (field.type === 'signature' || field.type === 'initial') {
    const name = contextOf(store.state).signerName;
    const result = await editMark({
      type: field.type, page: field.page, font: doc.font, label: labelOf(field),
      start: current?.kind === 'drawn' || current?.kind === 'typed' ? current : doc.adopted[field.type] ?? null,
      suggestedText: field.type === 'signature' ? name : initialsOf(name),
    });
    focusBack();
    if (!result) return;
    store.update((s) => {
      const d = documentOf(s);
      // Other empty fields of the same type take the adopted signature too, as on paper "sign here" x times
      const changes: Record<string, Value> = { [field.id]: result.value };
      for (const other of d.fields) if (other.type === field.type && d.values[other.id] === undefined) changes[other.id] = result.value;
      setValues(d, changes);
      d.font = result.font;
      d.adopted = { ...d.adopted, [field.type]: result.value };
    });
    announce(t('field.added', { type: field.type }));
  } else if (field.type === 'text') {
    const check = (entry: string) => {
      const problem = textProblem(field.validation, entry);
      return problem ? problemText(problem) : null;
    };
    const text = await editText(field.page, current?.kind === 'text' ? current.text : '', field.required, labelOf(field), check);
    focusBack();
    if (text === null) return;
    store.update((s) => { setValues(documentOf(s), { [field.id]: text === '' ? undefined : { kind: 'text', text } }); });
  } else if (field.type === 'attachment') {
    const file = await editAttachment(store.state.token, field, current?.kind === 'attachment' ? current : undefined);
    focusBack();
    if (file === undefined) return;
    store.update((s) => { setValues(documentOf(s), { [field.id]: file ?? undefined }); });
  } else return;
  const after = documentOf(store.state);
  const next = nextMissing(after);
  if (!isDone(field, after.values[field.id]) || !next || next === field) return;
  const label = labelOf(next);
  const inDocument = next.documentId ? after.documentNames?.[next.documentId] : undefined;
  if (label && inDocument) announce(t('field.doneNextIn', { label, document: inDocument, page: next.page }));
  else announce(label ? t('field.doneNextLabelled', { label, page: next.page }) : t('field.doneNext', { type: next.type, page: next.page }));
}
