/** Modal editors for a field: signature or initials (draw or type), and free text. Native <dialog>: focus is trapped, Esc cancels. */
import { h, notice, uid } from '../dom.ts';
import { t } from '../i18n/i18n.ts';
import { loadFont, SIGNATURE_FONTS, type SignatureFont } from './fonts.ts';
import { SignaturePad } from './signature-pad.ts';
import type { MarkValue } from './values.ts';

export interface MarkEditorOptions {
  type: 'signature' | 'initial';
  page: number;
  /** What to start from: this field's value, or the signature adopted for an earlier field of the same type. */
  start: MarkValue | null;
  suggestedText: string;
  font: SignatureFont;
  /** The field's label (decision 17): the editor's title when set. */
  label?: string | null;
}

/**
 * A modal editor on a native <dialog>. `finish` gives the answer and takes the dialog off the page in the same task,
 * whether it comes from a button or from Esc. Waiting for the 'close' event (a later task) would let a fast next key
 * or tap reach the page before focus is back on the field, and the field's focus() would then pull focus away from
 * wherever that input went.
 */
export function openEditor<T>(
  labelledBy: string, form: HTMLElement, wire: (finish: (value: T | null) => void, dialog: HTMLDialogElement) => void,
): Promise<T | null> {
  return new Promise((resolve) => {
    const dialog = h('dialog', { class: 'dialog', 'aria-labelledby': labelledBy }, form);
    const finish = (value: T | null) => {
      resolve(value); // the first answer wins
      dialog.close();
      dialog.remove();
    };
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      finish(null);
    });
    dialog.addEventListener('close', () => { finish(null); });
    document.body.append(dialog);
    dialog.showModal();
    wire(finish, dialog);
  });
}

export const initialsOf = (name: string) =>
  name.split(/\s+/).filter(Boolean).map((part) => Array.from(part)[0]?.toUpperCase() ?? '').join('').slice(0, 4);

/** Resolves with the adopted value and font, or null when cancelled. */
export function editMark(options: MarkEditorOptions): Promise<{ value: MarkValue; font: SignatureFont } | null> {
  const { type } = options;
  const titleId = uid('mark-title');
  const errorBox = h('div');
  let mode: 'draw' | 'type' = options.start?.kind === 'typed' ? 'type' : 'draw';
  let font = options.font;
  const name = uid('mode');

  const radio = (value: 'draw' | 'type', label: string) => {
    const id = uid('mode-opt');
    const input = h('input', { type: 'radio', name, id, value, checked: mode === value });
    input.addEventListener('change', () => { if (input.checked) setMode(value); });
    return h('div', { class: 'segment' }, input, h('label', { for: id }, label));
  };

  // Draw
  const padHint = uid('pad-hint');
  const canvas = h('canvas', {
    class: 'pad', role: 'img', 'aria-label': t('mark.padLabel', { type }), 'aria-describedby': padHint, 'data-pad': type,
  });
  const aspect = type === 'signature' ? 2.2 : 1.6;
  const padWrap = h('div', { class: `pad-wrap pad-${type}`, style: { aspectRatio: String(aspect) } }, canvas,
    h('span', { class: 'pad-baseline', 'aria-hidden': 'true' }), h('span', { class: 'pad-x', 'aria-hidden': 'true' }, '×'));
  const pad = new SignaturePad(canvas, aspect, () => { errorBox.replaceChildren(); });
  const clear = h('button', { type: 'button', class: 'button button-secondary button-small', onclick: () => { pad.clear(); } }, t('mark.clear'));
  const drawPanel = h('div', { class: 'stack' },
    padWrap,
    h('div', { class: 'pad-tools' },
      h('p', { class: 'hint', id: padHint }, t('mark.padHint', { type })),
      clear),
  );

  // Type
  const textId = uid('typed');
  const typed = h('input', { id: textId, type: 'text', maxlength: 100, autocomplete: type === 'signature' ? 'name' : 'off', spellcheck: 'false' });
  typed.value = options.start?.kind === 'typed' ? options.start.text : options.suggestedText;
  const fontGroup = uid('font');
  const samples: HTMLElement[] = [];
  const fontOptions = SIGNATURE_FONTS.map((label) => {
    const id = uid('font-opt');
    const input = h('input', { type: 'radio', name: fontGroup, id, value: label, checked: label === font });
    input.addEventListener('change', () => { if (input.checked) font = label; });
    const sample = h('span', { class: 'font-sample', style: { fontFamily: `"${label}", cursive` }, 'aria-hidden': 'true' }, typed.value || t('mark.sampleText'));
    samples.push(sample);
    return h('div', { class: 'font-option' }, input, h('label', { for: id }, sample, h('span', { class: 'font-name' }, label)));
  });
  typed.addEventListener('input', () => {
    for (const sample of samples) sample.textContent = typed.value || t('mark.sampleText');
    errorBox.replaceChildren();
  });
  const typePanel = h('div', { class: 'stack' },
    h('div', { class: 'form-row' }, h('label', { for: textId }, t('mark.typedLabel', { type })), typed),
    h('fieldset', { class: 'fonts' }, h('legend', null, t('mark.style')), fontOptions,
      h('p', { class: 'hint' }, t('mark.styleHint'))),
  );

  const setMode = (next: 'draw' | 'type') => {
    mode = next;
    drawPanel.hidden = mode !== 'draw';
    typePanel.hidden = mode !== 'type';
    if (mode === 'draw') pad.resize();
    else for (const label of SIGNATURE_FONTS) void loadFont(label); // fetched only when typing is chosen
    errorBox.replaceChildren();
  };

  const apply = h('button', { type: 'submit', class: 'button button-primary' }, t('mark.apply', { type }));
  const cancel = h('button', { type: 'button', class: 'button button-secondary' }, t('action.cancel'));
  const form = h('form', { method: 'dialog', class: 'stack' },
    h('h2', { id: titleId }, options.label ?? t('mark.title', { type })),
    h('fieldset', { class: 'segments' }, h('legend', { class: 'visually-hidden' }, t('mark.how', { type })), radio('draw', t('mark.draw')), radio('type', t('mark.type'))),
    drawPanel, typePanel, errorBox,
    h('p', { class: 'hint' }, t('mark.placedHint', { type, page: options.page })),
    h('div', { class: 'dialog-actions' }, cancel, apply),
  );

  return openEditor<{ value: MarkValue; font: SignatureFont }>(titleId, form, (finish, dialog) => {
    dialog.classList.add('dialog-mark');
    const onResize = () => { if (mode === 'draw') pad.resize(); };
    window.addEventListener('resize', onResize);
    dialog.addEventListener('close', () => { window.removeEventListener('resize', onResize); });
    cancel.addEventListener('click', () => { finish(null); });
    apply.addEventListener('click', (event) => {
      event.preventDefault();
      if (mode === 'draw') {
        const png = pad.toPng();
        if (!png) {
          errorBox.replaceChildren(notice('error', t('mark.drawFirst', { type })));
          return;
        }
        finish({ value: { kind: 'drawn', png, strokes: pad.value }, font });
      } else {
        const text = typed.value.trim();
        if (!text) {
          errorBox.replaceChildren(notice('error', t('mark.typeFirst', { type })));
          typed.focus();
          return;
        }
        finish({ value: { kind: 'typed', text }, font });
      }
    });
    setMode(mode);
    if (options.start?.kind === 'drawn') pad.value = options.start.strokes;
    (mode === 'type' ? typed : (form.querySelector<HTMLInputElement>('input[type=radio]:checked') ?? apply)).focus();
  });
}

const MAX_TEXT = 1000;

/**
 * Free text (at most 1,000 characters); resolves with the text ('' clears it), or null when cancelled. `check` says
 * what is wrong with an entry (the field's validation), and Apply keeps the editor open until it fits.
 */
export function editText(page: number, current: string, required: boolean, label: string | null = null, check: (text: string) => string | null = () => null): Promise<string | null> {
  const titleId = uid('text-title');
  const areaId = uid('text');
  const countId = uid('text-count');
  const area = h('textarea', { id: areaId, rows: 4, maxlength: MAX_TEXT, 'aria-describedby': countId, required });
  area.value = current;
  const count = h('p', { class: 'hint', id: countId });
  const update = () => { count.textContent = t('text.count', { count: area.value.length, max: MAX_TEXT, need: required ? 'required' : 'optional' }); };
  update();
  area.addEventListener('input', update);
  const errorBox = h('div');
  const apply = h('button', { type: 'submit', class: 'button button-primary' }, t('text.apply'));
  const cancel = h('button', { type: 'button', class: 'button button-secondary' }, t('action.cancel'));
  const form = h('form', { method: 'dialog', class: 'stack' },
    h('h2', { id: titleId }, label ?? t('text.title')),
    h('div', { class: 'form-row' }, h('label', { for: areaId }, t('text.label', { page })), area, count),
    errorBox,
    h('div', { class: 'dialog-actions' }, cancel, apply),
  );
  return openEditor<string>(titleId, form, (finish) => {
    cancel.addEventListener('click', () => { finish(null); });
    apply.addEventListener('click', (event) => {
      event.preventDefault();
      if (required && area.value.trim() === '') {
        errorBox.replaceChildren(notice('error', t('text.required')));
        area.setAttribute('aria-invalid', 'true');
        area.focus();
        return;
      }
      const problem = area.value.trim() === '' ? null : check(area.value);
      if (problem) {
        errorBox.replaceChildren(notice('error', problem));
        area.setAttribute('aria-invalid', 'true');
        area.focus();
        return;
      }
      finish(area.value);
    });
    area.focus();
  });
}
