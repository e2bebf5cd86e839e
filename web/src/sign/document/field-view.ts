/**
 * A field on the page: the element placed over the PDF, its control (what takes focus), and its preview drawn
 * with the rules sealing uses (image fitted and centred, typed text on one line as large as fits), so the sealed
 * PDF shows what the page showed. Positions stay physical (left/top): the PDF page is not mirrored for right-to-left.
 */
import type { PageGeometry, SigningField } from '../../api-types.ts';
import { h } from '../../dom.ts';
import { t } from '../../i18n/i18n.ts';
import type { Value } from '../values.ts';
import { drawTypedSignature, INK, paddingOf, type SignatureFont } from '../fonts.ts';
import type { DocumentState } from '../state.ts';
import { isDone, isFlagged, isShown, labelOf, needsInput, percentBox, shownFields, today, valueOf } from './model.ts';

export interface FieldView {
  box: HTMLElement; // the positioned element
  control: HTMLElement; // what gets focus
  shown: { value: Value | undefined; font: SignatureFont } | null; // what the preview shows
}

const HELVETICA_EM = 0.925; // ascent - descent of Helvetica in em, as sealing measures text
export const textSizePt = (height: number) => Math.max(6, Math.min(12, (height - 2 * paddingOf(1e9, height)) / HELVETICA_EM));
export const pt = (value: number) => `calc(var(--pt) * ${String(value)})`;

/** The words an empty field shows: its label (decision 17), else what to do there. */
const placeholder = (field: SigningField) => labelOf(field) ?? placeholderOf(field.type);
const placeholderOf = (type: SigningField['type']) =>
  type === 'signature' ? t('field.placeholder.signature') : type === 'initial' ? t('field.placeholder.initial') : type === 'text' ? t('field.placeholder.text') : '';

/**
 * A label can be longer than the words it replaces: the size shrinks with its length so that it fits the field's
 * width (bold sans-serif glyphs average about 0.6 em), within the field's height, 7 to 15 px.
 */
const placeholderSize = (words: string) => `clamp(7px, min(55cqh, ${String(Math.floor(150 / Math.max(1, Array.from(words).length)))}cqw), 15px)`;

/** The checkbox as sealing draws it: a square of the field's smaller side less padding, the tick in ink. */
export function checkArt(field: Pick<SigningField, 'w' | 'h'>): HTMLElement {
  const side = Math.min(field.w, field.h) - 2 * paddingOf(field.w, field.h);
  const x0 = (field.w - side) / 2;
  const y0 = (field.h - side) / 2;
  const line = Math.max(0.5, side * 0.04);
  const at = (u: number, v: number) => `${String(x0 + u * side)},${String(y0 + (1 - v) * side)}`;
  const art = h('span', { class: 'preview' });
  art.innerHTML = `<svg class="check-art" viewBox="0 0 ${String(field.w)} ${String(field.h)}" aria-hidden="true" preserveAspectRatio="none">`
    + `<rect x="${String(x0 + line / 2)}" y="${String(y0 + line / 2)}" width="${String(side - line)}" height="${String(side - line)}" fill="none" stroke="#595959" stroke-width="${String(line)}"/>`
    + `<polyline class="tick" points="${at(0.2, 0.52)} ${at(0.42, 0.26)} ${at(0.8, 0.76)}" fill="none" stroke="${INK}" stroke-width="${String(Math.max(1, side * 0.12))}" stroke-linecap="round" stroke-linejoin="round"/></svg>`;
  return art;
}

/** Builds the field's element; `onActivate` opens its editor, `onCheck` is a checkbox's change. */
export function createFieldView(field: SigningField, page: PageGeometry, handlers: { onActivate: () => void; onCheck: (checked: boolean) => void; onFocus: () => void }): FieldView {
  const p = percentBox(field, page);
  const style = { left: `${String(p.left)}%`, top: `${String(p.top)}%`, width: `${String(p.width)}%`, height: `${String(p.height)}%` };
  const cls = `field field-${field.type}${field.required ? ' is-required' : ''}`;
  let box: HTMLElement;
  let control: HTMLElement;
  if (field.type === 'checkbox') {
    const input = h('input', { type: 'checkbox', class: 'field-check', 'data-field-id': field.id });
    input.addEventListener('change', () => { handlers.onCheck(input.checked); });
    control = input;
    box = h('div', { class: cls, style, 'data-field-id': field.id, title: labelOf(field) }, checkArt(field), input);
  } else if (field.type === 'date') {
    const pad = paddingOf(field.w, field.h);
    box = h('div', { class: cls, style, 'data-field-id': field.id },
      h('span', { class: 'preview' },
        h('span', { class: 'text-value date-value', style: { fontSize: pt(textSizePt(field.h)), padding: `0 ${pt(pad)}` } },
          h('span', { class: 'visually-hidden' }, t('field.dateAuto', { page: field.page })), today())));
    control = box;
  } else {
    control = h('button', { type: 'button', class: 'field-button', 'data-field-id': field.id },
      h('span', { class: 'placeholder', style: { fontSize: placeholderSize(placeholder(field)) } }, placeholder(field)), h('span', { class: 'preview' }));
    control.addEventListener('click', handlers.onActivate);
    box = h('div', { class: cls, style }, control);
  }
  control.addEventListener('focus', handlers.onFocus);
  return { box, control, shown: null };
}

/** The accessible name: an empty field's starts with the words it shows (WCAG 2.5.3, label in name). */
function describe(field: SigningField, number: number, total: number, value: Value | undefined): string {
  const where = { type: field.type, number, total, need: needsInput(field) ? 'required' : 'optional', page: field.page };
  const label = labelOf(field);
  if (field.type === 'checkbox' || field.type === 'date') return label ? `${label}: ${t('field.describe.plain', where)}` : t('field.describe.plain', where);
  if (!value) return t('field.describe.empty', { ...where, placeholder: placeholder(field) });
  const what = value.kind === 'drawn' ? t('field.value.drawn') : value.kind === 'typed' || value.kind === 'text' ? t('field.value.text', { text: value.text })
    : value.kind === 'attachment' ? t('field.value.attachment', { name: value.name }) : '';
  return label ? t('field.describe.filledLabelled', { ...where, label, what }) : t('field.describe.filled', { ...where, what });
}

function renderPreview(view: FieldView, field: SigningField, value: Value | undefined, font: SignatureFont): void {
  const preview = view.box.querySelector<HTMLElement>('.preview');
  if (!preview || field.type === 'date') return; // the date's preview is drawn once: the service fills it in
  if (value?.kind === 'checkbox') {
    (view.control as HTMLInputElement).checked = value.checked;
    view.box.classList.toggle('is-checked', value.checked);
    return;
  }
  preview.replaceChildren();
  const pad = paddingOf(field.w, field.h);
  if (value?.kind === 'drawn') {
    const px = (pad / field.w) * 100;
    const py = (pad / field.h) * 100;
    preview.append(h('img', {
      alt: '', src: `data:image/png;base64,${value.png}`, class: 'mark-image',
      style: { left: `${String(px)}%`, top: `${String(py)}%`, width: `${String(100 - 2 * px)}%`, height: `${String(100 - 2 * py)}%` },
    }));
  } else if (value?.kind === 'typed') {
    const canvas = h('canvas', { class: 'mark-typed', 'aria-hidden': 'true', 'data-font': font });
    preview.append(canvas);
    void drawTypedSignature(canvas, value.text, font, field.w, field.h);
  } else if (value?.kind === 'text') {
    preview.append(h('span', { class: 'text-value', style: { fontSize: pt(textSizePt(field.h)), padding: pt(pad) } }, value.text));
  } else if (value?.kind === 'attachment') {
    // As sealing draws it: the file's name in the box (the file itself is embedded in the sealed PDF)
    preview.append(h('span', { class: 'text-value attach-value', style: { fontSize: pt(textSizePt(field.h)), padding: pt(pad) } }, value.name));
  }
  view.box.classList.toggle('has-value', value !== undefined);
}

/** Brings every field's element up to date with the state; a preview is drawn again only when what it shows changed. */
export function renderFields(doc: DocumentState, views: ReadonlyMap<string, FieldView>): void {
  // Numbered as the bar counts ("1 of 3 required fields"): required fields among the required, the others apart
  const required = shownFields(doc).filter(needsInput);
  const optional = shownFields(doc).filter((f) => !needsInput(f) && f.type !== 'date'); // a date is filled in by the service
  doc.fields.forEach((field) => {
    const view = views.get(field.id);
    if (!view) return;
    // A field whose condition is not met is not there for the signer: not shown, not reachable by keyboard
    view.box.hidden = !isShown(doc, field);
    const group = needsInput(field) ? required : optional;
    const value = valueOf(doc, field);
    const font = value?.kind === 'typed' ? doc.font : view.shown?.font ?? doc.font;
    if (!view.shown || view.shown.value !== value || view.shown.font !== font) {
      renderPreview(view, field, value, font);
      view.shown = { value, font };
    }
    // Numbers change as conditions show and hide fields, not only with this field's value
    if (field.type !== 'date') view.control.setAttribute('aria-label', describe(field, group.indexOf(field) + 1, group.length, value));
    const done = isDone(field, value);
    const unticked = field.type === 'checkbox' && !field.required && !(value?.kind === 'checkbox' && value.checked);
    view.box.classList.toggle('is-empty', !done || unticked);
    view.box.classList.toggle('is-done', done && field.type !== 'date');
    view.box.classList.toggle('is-invalid', isFlagged(doc, field));
  });
}
