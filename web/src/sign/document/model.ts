/**
 * The document step's rules, on the state alone (no DOM): reading order, placement on the page as shown, what
 * counts as done, where "Next field" goes, and the request Finish sends.
 *
 * Placement: field coordinates are PDF points on the page as shown (crop box, turned by /Rotate), origin
 * bottom-left or top-left (decision 2). pdf.js renders exactly that view, so a field is positioned in percent
 * of the shown page: the same mapping sealing uses (shared/envelopes/field-placement.ts).
 */
import { displayedSize } from '#shared/envelopes/field-placement.ts';
import { shownFieldIds } from '#shared/envelopes/field-conditions.ts';
import { textProblem, type TextProblem } from '#shared/envelopes/text-validation.ts';
import type { FieldSubmission, PageGeometry, SignBody, SigningField } from '../../api-types.ts';
import type { Value } from '../values.ts';
import type { DocumentState } from '../state.ts';

/** The field's box in percent of the page as shown (top-left based, as CSS wants it). */
export function percentBox(field: Pick<SigningField, 'x' | 'y' | 'w' | 'h' | 'origin'>, page: PageGeometry) {
  const shown = displayedSize(page);
  const top = field.origin === 'top-left' ? field.y : shown.height - field.y - field.h;
  return {
    left: (field.x / shown.width) * 100, top: (top / shown.height) * 100,
    width: (field.w / shown.width) * 100, height: (field.h / shown.height) * 100,
  };
}

/** Page by page, then top to bottom (rows within half a percent are one row), then left to right. */
export function readingOrder(fields: readonly SigningField[], geometry: readonly PageGeometry[]): SigningField[] {
  const topOf = (f: SigningField) => {
    const page = geometry[f.page - 1];
    return page ? percentBox(f, page).top : 0;
  };
  return [...fields].sort((a, b) => {
    if (a.page !== b.page) return a.page - b.page;
    const ta = topOf(a);
    const tb = topOf(b);
    return Math.abs(ta - tb) > 0.5 ? ta - tb : a.x - b.x;
  });
}

/**
 * Several documents (decision 9): document by document in the context's order, each in reading order. A field
 * without a document belongs to the first.
 */
export function documentOrder(fields: readonly SigningField[], documents: readonly DocumentGeometry[]): SigningField[] {
  const first = documents[0]?.id ?? null;
  const of = (f: SigningField) => f.documentId ?? first;
  const known = new Set(documents.map((d) => d.id));
  const ordered = documents.flatMap((d) => readingOrder(fields.filter((f) => of(f) === d.id), d.pages));
  return [...ordered, ...fields.filter((f) => !known.has(of(f) ?? ''))];
}

export interface DocumentGeometry { id: string; pages: readonly PageGeometry[] }

/** What a field is called where it is named: its label (decision 17), else null (the page then names its type). */
export const labelOf = (field: { label?: string | null }): string | null => field.label?.trim() ? field.label.trim() : null;

/** Fields the signer must fill in (the date is filled in by the service; a read-only field is only shown). */
export const needsInput = (field: SigningField) => field.required && field.type !== 'date' && !field.readOnly;

export function isDone(field: SigningField, value: Value | undefined): boolean {
  if (field.type === 'date') return true;
  if (field.type === 'checkbox') return !field.required || (value?.kind === 'checkbox' && value.checked);
  return value !== undefined;
}

export const valueOf = (doc: DocumentState, field: SigningField): Value | undefined => doc.values[field.id];

/** A value as a condition reads it, the way the service does (shared/signing/shown-fields.ts). */
function conditionText(field: SigningField, value: Value | undefined): string {
  if (field.type === 'date') return today();
  if (!value) return '';
  if (value.kind === 'checkbox') return value.checked ? 'true' : 'false';
  return value.kind === 'text' ? value.text : 'signed';
}

const shownCache = new WeakMap<Readonly<Record<string, Value>>, Set<string>>();

/** The signer's fields shown on the entries as they stand (a field whose condition fails is hidden, live). */
function shownIds(doc: DocumentState): Set<string> | null {
  const { conditions } = doc;
  if (!conditions) return null;
  let shown = shownCache.get(doc.values);
  if (!shown) {
    const others = Object.entries(conditions.others).map(([label, value]) => ({ id: `other:${label}`, label, value }));
    const all = [
      ...doc.fields.map((f) => ({ id: f.id, label: f.label, showIf: f.showIf ?? null, text: () => conditionText(f, valueOf(doc, f)) })),
      ...conditions.readOnly.map((f) => ({ id: f.id, label: f.label, showIf: f.showIf ?? null, text: () => f.value ?? '' })),
      ...others.map((o) => ({ id: o.id, label: o.label, showIf: null, text: () => o.value })),
    ];
    shown = shownFieldIds(all, (f) => f.text());
    shownCache.set(doc.values, shown);
  }
  return shown;
}

export const isShown = (doc: DocumentState, field: Pick<SigningField, 'id'>) => shownIds(doc)?.has(field.id) ?? true;

/** The signer's fields as shown now: hidden ones are neither asked for nor sent. */
export const shownFields = (doc: DocumentState) => doc.fields.filter((f) => isShown(doc, f));

/** What is wrong with a text field's entry against its validation; null when it fits or is empty. */
export function problemOf(doc: DocumentState, field: SigningField): TextProblem | null {
  const value = valueOf(doc, field);
  return field.type === 'text' && value?.kind === 'text' && value.text !== '' ? textProblem(field.validation, value.text) : null;
}

/** Required fields still empty, and entries that do not fit their validation, in reading order. */
export const missing = (doc: DocumentState) => shownFields(doc).filter((f) => (needsInput(f) && !isDone(f, valueOf(doc, f))) || problemOf(doc, f) !== null);

export function progressOf(doc: DocumentState): { done: number; total: number } {
  const total = shownFields(doc).filter(needsInput).length;
  return { done: total - missing(doc).filter(needsInput).length, total };
}

/** The next required empty field after the one last focused, wrapping around to the first. */
export function nextMissing(doc: DocumentState): SigningField | undefined {
  const todo = missing(doc);
  return todo.find((f) => doc.fields.indexOf(f) > doc.cursor) ?? todo[0];
}

/** Whether a field is marked as needing attention: empty after Finish was pressed, or refused by the service. */
export function isFlagged(doc: DocumentState, field: SigningField): boolean {
  if (doc.finishAttempts > 0 && ((needsInput(field) && !isDone(field, valueOf(doc, field))) || problemOf(doc, field) !== null)) return true;
  return doc.submit.status === 'refused' && Object.hasOwn(doc.submit.byField, field.id);
}

/**
 * Unchecked boxes start as "false", so the service records them as seen and left empty; prefilled text and boxes
 * start from their prefill (decision 17), which the signer may change.
 */
export function initialValues(fields: readonly SigningField[], attachments: readonly { id: string; fieldId: string; name: string; sizeBytes: number }[] = []): Record<string, Value> {
  const values: Record<string, Value> = {};
  // Files already attached (another visit, a reload) are the service's: the context lists them
  for (const a of attachments) if (fields.some((f) => f.id === a.fieldId)) values[a.fieldId] = { kind: 'attachment', id: a.id, name: a.name, sizeBytes: a.sizeBytes };
  for (const f of fields) {
    const prefill = f.value ?? null;
    if (f.type === 'checkbox') values[f.id] = { kind: 'checkbox', checked: prefill === 'true' };
    else if (f.type === 'text' && prefill !== null && prefill !== '') values[f.id] = { kind: 'text', text: prefill };
  }
  return values;
}

/** The sign request, and which field each entry of `fields` is (a 400 names them by index). */
export function submission(doc: DocumentState): { body: SignBody; fieldIds: string[] } {
  const fields: FieldSubmission[] = [];
  let typed = false;
  for (const field of doc.fields) {
    const v = valueOf(doc, field);
    // A value for a read-only field, or for a field its condition hides, is refused (400)
    if (!v || field.type === 'date' || field.readOnly || !isShown(doc, field)) continue;
    if (v.kind === 'drawn') fields.push({ fieldId: field.id, signatureImageBase64: v.png, signatureSource: 'drawn' });
    else if (v.kind === 'checkbox') fields.push({ fieldId: field.id, textValue: v.checked ? 'true' : 'false' });
    else if (v.kind === 'attachment') fields.push({ fieldId: field.id, attachmentId: v.id });
    else fields.push({ fieldId: field.id, textValue: v.text });
    typed ||= v.kind === 'typed';
  }
  return { body: { fields, ...(typed ? { fontLabel: doc.font } : {}) }, fieldIds: fields.map((f) => f.fieldId) };
}

/** Today as sealing writes it into date fields (the service's signing date, UTC). */
export const today = () => new Date().toISOString().slice(0, 10);
