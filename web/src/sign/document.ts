/**
 * Step 3: the document, page by page, with this signer's fields laid over it where they are placed; guided
 * navigation from one required field to the next; Finish submits (spec 4.3 sign, DECISIONS 26).
 *
 * Placement: field coordinates are PDF points on the page as shown (crop box, turned by /Rotate), origin
 * bottom-left or top-left (DECISIONS 2). pdf.js renders exactly that view, so a field is positioned in
 * percent of the shown page: the same mapping sealing uses (shared/domain/placement.ts).
 */
import { displayedSize } from '../../../shared/domain/placement.ts';
import { api, ApiError, fetchBytes, idempotencyKeys, signingPath, type FieldSubmission, type PageGeometry, type SignAnswer, type SigningField } from '../api.ts';
import { announce, busy, h, notice, prefersReducedMotion, showScreen } from '../dom.ts';
import type { Session } from './app.ts';
import { clearDraft, fits, loadDraft, saveDraft, type Value } from './draft.ts';
import { editMark, editText, initialsOf, type MarkValue } from './editors.ts';
import { drawTypedSignature, INK, paddingOf, SIGNATURE_FONTS, type SignatureFont } from './fonts.ts';
import { loadPdfjs, openPdf, renderPage, type PDFDocumentProxy } from './pdf.ts';

interface Slot {
  field: SigningField;
  number: number; // 1-based, in document order
  value: Value | null;
  control: HTMLElement; // what gets focus
  box: HTMLElement; // the positioned element
}

const TYPE_NAMES: Record<SigningField['type'], string> = {
  signature: 'Signature', initial: 'Initials', date: 'Date', text: 'Text field', checkbox: 'Checkbox',
};
const PLACEHOLDERS: Record<SigningField['type'], string> = {
  signature: 'Sign here', initial: 'Initial', date: '', text: 'Add text', checkbox: '',
};

/** The field's box in percent of the page as shown (top-left based, as CSS wants it). */
export function percentBox(field: Pick<SigningField, 'x' | 'y' | 'w' | 'h' | 'origin'>, page: PageGeometry) {
  const shown = displayedSize(page);
  const top = field.origin === 'top-left' ? field.y : shown.height - field.y - field.h;
  return {
    left: (field.x / shown.width) * 100, top: (top / shown.height) * 100,
    width: (field.w / shown.width) * 100, height: (field.h / shown.height) * 100,
  };
}

/** Today as sealing writes it into date fields (the service's signing date, UTC). */
const today = () => new Date().toISOString().slice(0, 10);

const HELVETICA_EM = 0.925; // ascent - descent of Helvetica in em, as sealing measures text
const textSizePt = (height: number) => Math.max(6, Math.min(12, (height - 2 * paddingOf(1e9, height)) / HELVETICA_EM));

export function showDocument(session: Session): void {
  const { token, context } = session;
  const geometry = context.document?.pages ?? [];
  const fields = [...context.fields].sort((a, b) => {
    if (a.page !== b.page) return a.page - b.page;
    const pa = geometry[a.page - 1];
    const pb = geometry[b.page - 1];
    const ta = pa ? percentBox(a, pa).top : 0;
    const tb = pb ? percentBox(b, pb).top : 0;
    return Math.abs(ta - tb) > 0.5 ? ta - tb : a.x - b.x;
  });
  let font: SignatureFont = SIGNATURE_FONTS[0];
  const adopted: Partial<Record<'signature' | 'initial', MarkValue>> = {};
  const slots: Slot[] = [];
  let cursor = -1;

  const pageCount = context.document?.pageCount ?? geometry.length;
  const docStatus = h('div', { class: 'doc-status' });
  const sheets: HTMLElement[] = [];
  const canvases: HTMLCanvasElement[] = [];
  const pageNotes: HTMLElement[] = [];

  const pagesEl = h('div', { class: 'pages' });
  geometry.forEach((page, i) => {
    const shown = displayedSize(page);
    const canvas = h('canvas', { class: 'page-canvas', role: 'img', 'aria-label': `Page ${String(i + 1)} of ${String(pageCount)}` });
    const note = h('p', { class: 'page-note' }, `Loading page ${String(i + 1)}…`);
    const layer = h('div', { class: 'field-layer' });
    const sheet = h('div', { class: 'sheet', 'data-page': String(i + 1), style: { aspectRatio: `${String(shown.width)} / ${String(shown.height)}` } }, canvas, note, layer);
    sheets.push(sheet);
    canvases.push(canvas);
    pageNotes.push(note);
    pagesEl.append(h('section', { class: 'page', 'aria-label': `Page ${String(i + 1)} of ${String(pageCount)}` },
      h('p', { class: 'page-number', 'aria-hidden': 'true' }, `Page ${String(i + 1)} of ${String(pageCount)}`), sheet));
  });

  const required = () => slots.filter((s) => s.field.required && s.field.type !== 'date');
  const isDone = (s: Slot) => {
    if (s.field.type === 'date') return true;
    if (s.field.type === 'checkbox') return !s.field.required || (s.value?.kind === 'checkbox' && s.value.checked);
    return s.value !== null;
  };

  // ---- the action bar: progress, next field, finish
  const progress = h('p', { class: 'progress', id: 'progress', 'aria-live': 'polite' });
  const nextButton = h('button', { type: 'button', class: 'button button-primary button-next' }, 'Start');
  const finish = h('button', { type: 'button', class: 'button button-primary', 'aria-describedby': 'finish-hint' }, 'Finish');
  const barError = h('div', { class: 'bar-error' });
  const bar = h('div', { class: 'action-bar', role: 'region', 'aria-label': 'Signing progress' },
    h('div', { class: 'action-bar-inner' },
      barError,
      h('div', { class: 'bar-text' }, progress, h('p', { class: 'hint', id: 'finish-hint' }, 'Selecting Finish signs the document electronically.')),
      h('div', { class: 'bar-buttons' }, nextButton, finish),
    ),
  );

  const refresh = () => {
    const todo = required().filter((s) => !isDone(s));
    const total = required().length;
    progress.textContent = todo.length === 0
      ? (total === 0 ? 'Nothing is required. Select Finish to sign.' : 'All required fields are done. Select Finish to sign.')
      : `${String(total - todo.length)} of ${String(total)} required fields done`;
    nextButton.hidden = todo.length === 0;
    if (cursor >= 0) nextButton.textContent = 'Next field';
    finish.classList.toggle('is-ready', todo.length === 0);
    for (const s of slots) {
      s.box.classList.toggle('is-empty', !isDone(s) || (s.field.type === 'checkbox' && s.value?.kind === 'checkbox' && !s.value.checked && !s.field.required));
      s.box.classList.toggle('is-done', isDone(s) && s.field.type !== 'date');
    }
  };

  const goTo = (slot: Slot) => {
    nextButton.textContent = 'Next field';
    slot.box.scrollIntoView({ block: 'center', behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
    slot.control.focus({ preventScroll: true });
    slot.box.classList.remove('is-flash');
    slot.box.getBoundingClientRect(); // restarts the animation
    slot.box.classList.add('is-flash');
  };

  const nextTodo = (): Slot | undefined => {
    const todo = slots.filter((s) => s.field.required && !isDone(s));
    return todo.find((s) => slots.indexOf(s) > cursor) ?? todo[0];
  };

  nextButton.addEventListener('click', () => {
    const next = nextTodo();
    if (next) goTo(next);
  });

  // ---- fields
  const describe = (slot: Slot): string => {
    const { field } = slot;
    const where = `${TYPE_NAMES[field.type].toLowerCase()} ${String(slot.number)} of ${String(fields.length)}, ${field.required ? 'required' : 'optional'}, page ${String(field.page)}`;
    const v = slot.value;
    if (field.type === 'checkbox' || field.type === 'date') return where.charAt(0).toUpperCase() + where.slice(1);
    // An empty field's name starts with the words it shows (WCAG 2.5.3, label in name)
    if (!v) return `${PLACEHOLDERS[field.type]}: ${where}`;
    const what = v.kind === 'drawn' ? 'drawn' : v.kind === 'typed' || v.kind === 'text' ? `“${v.text}”` : '';
    return `${TYPE_NAMES[field.type]}: ${what}, ${where}. Select to change`;
  };

  const renderPreview = (slot: Slot) => {
    const { field, value } = slot;
    const preview = slot.box.querySelector<HTMLElement>('.preview');
    if (!preview) return;
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
      preview.append(h('span', { class: 'text-value', style: { fontSize: `calc(var(--pt) * ${String(textSizePt(field.h))})`, padding: `calc(var(--pt) * ${String(pad)})` } }, value.text));
    }
    slot.control.setAttribute('aria-label', describe(slot));
    slot.box.classList.toggle('has-value', value !== null);
  };

  const redrawTyped = () => {
    for (const s of slots) if (s.value?.kind === 'typed') renderPreview(s);
  };

  const editSlot = async (slot: Slot) => {
    const { field } = slot;
    if (field.type === 'signature' || field.type === 'initial') {
      const current = slot.value?.kind === 'drawn' || slot.value?.kind === 'typed' ? slot.value : null;
      const result = await editMark({
        type: field.type, page: field.page, start: current ?? adopted[field.type] ?? null, font,
        suggestedText: field.type === 'signature' ? context.signerName : initialsOf(context.signerName),
      });
      slot.control.focus({ preventScroll: true });
      if (!result) return;
      const fontChanged = result.font !== font;
      font = result.font;
      adopted[field.type] = result.value;
      slot.value = result.value;
      // Other empty fields of the same type take the adopted signature too, as on paper "sign here" x times.
      for (const other of slots) if (other !== slot && other.field.type === field.type && other.value === null) { other.value = result.value; renderPreview(other); }
      renderPreview(slot);
      if (fontChanged) redrawTyped();
      remember();
      announce(`${TYPE_NAMES[field.type]} added.`);
    } else if (field.type === 'text') {
      const text = await editText(field.page, slot.value?.kind === 'text' ? slot.value.text : '', field.required);
      slot.control.focus({ preventScroll: true });
      if (text === null) return;
      slot.value = text === '' ? null : { kind: 'text', text };
      renderPreview(slot);
      remember();
    }
    slot.box.classList.remove('is-invalid');
    refresh();
    const next = nextTodo();
    if (isDone(slot) && next && next !== slot) announce(`Done. Next: ${TYPE_NAMES[next.field.type]} on page ${String(next.field.page)}.`);
  };

  fields.forEach((field, i) => {
    const page = geometry[field.page - 1];
    if (!page) return;
    const sheet = sheets[field.page - 1];
    const layer = sheet?.querySelector('.field-layer');
    if (!layer) return;
    const p = percentBox(field, page);
    const style = { left: `${String(p.left)}%`, top: `${String(p.top)}%`, width: `${String(p.width)}%`, height: `${String(p.height)}%` };
    const cls = `field field-${field.type}${field.required ? ' is-required' : ''}`;
    let box: HTMLElement;
    let control: HTMLElement;
    if (field.type === 'checkbox') {
      const input = h('input', { type: 'checkbox', class: 'field-check', 'data-field-id': field.id });
      const side = Math.min(field.w, field.h) - 2 * paddingOf(field.w, field.h);
      const x0 = (field.w - side) / 2;
      const y0 = (field.h - side) / 2;
      const line = Math.max(0.5, side * 0.04);
      const at = (u: number, v: number) => `${String(x0 + u * side)},${String(y0 + (1 - v) * side)}`;
      const svg = `<svg class="check-art" viewBox="0 0 ${String(field.w)} ${String(field.h)}" aria-hidden="true" preserveAspectRatio="none">`
        + `<rect x="${String(x0 + line / 2)}" y="${String(y0 + line / 2)}" width="${String(side - line)}" height="${String(side - line)}" fill="none" stroke="#595959" stroke-width="${String(line)}"/>`
        + `<polyline class="tick" points="${at(0.2, 0.52)} ${at(0.42, 0.26)} ${at(0.8, 0.76)}" fill="none" stroke="${INK}" stroke-width="${String(Math.max(1, side * 0.12))}" stroke-linecap="round" stroke-linejoin="round"/></svg>`;
      const art = h('span', { class: 'preview' });
      art.innerHTML = svg;
      box = h('div', { class: cls, style, 'data-field-id': field.id }, art, input);
      control = input;
    } else if (field.type === 'date') {
      box = h('div', { class: cls, style, 'data-field-id': field.id },
        h('span', { class: 'preview' },
          h('span', { class: 'text-value date-value', style: { fontSize: `calc(var(--pt) * ${String(textSizePt(field.h))})`, padding: `0 calc(var(--pt) * ${String(paddingOf(field.w, field.h))})` } },
            h('span', { class: 'visually-hidden' }, `Date on page ${String(field.page)}, filled in automatically when you sign: `), today())));
      control = box;
    } else {
      control = h('button', { type: 'button', class: 'field-button', 'data-field-id': field.id },
        h('span', { class: 'placeholder' }, PLACEHOLDERS[field.type]), h('span', { class: 'preview' }));
      box = h('div', { class: cls, style }, control);
    }
    const slot: Slot = { field, number: i + 1, value: null, control, box };
    if (field.type === 'checkbox') {
      slot.value = { kind: 'checkbox', checked: false };
      const input = control as HTMLInputElement;
      input.setAttribute('aria-label', describe(slot));
      input.addEventListener('change', () => {
        slot.value = { kind: 'checkbox', checked: input.checked };
        box.classList.toggle('is-checked', input.checked);
        box.classList.remove('is-invalid');
        refresh();
        remember();
      });
    } else if (field.type !== 'date') {
      control.addEventListener('click', () => { void editSlot(slot); });
      control.setAttribute('aria-label', describe(slot));
    }
    control.addEventListener('focus', () => { cursor = slots.indexOf(slot); });
    layer.append(box);
    slots.push(slot);
  });

  // ---- the draft: what was entered before a reload comes back (draft.ts)
  const owner = { envelopeId: context.envelopeId, signerId: context.signerId };
  const remember = () => {
    const values: Record<string, Value> = {};
    for (const s of slots) if (s.value && s.field.type !== 'date') values[s.field.id] = s.value;
    saveDraft(owner, { font, values });
  };
  const draft = loadDraft(owner);
  if (draft) {
    font = draft.font;
    for (const slot of slots) {
      const value = draft.values[slot.field.id];
      if (!fits(slot.field.type, value)) continue;
      slot.value = value;
      if (value.kind === 'checkbox') {
        (slot.control as HTMLInputElement).checked = value.checked;
        slot.box.classList.toggle('is-checked', value.checked);
      } else {
        if ((value.kind === 'drawn' || value.kind === 'typed') && (slot.field.type === 'signature' || slot.field.type === 'initial')) adopted[slot.field.type] ??= value;
        renderPreview(slot);
      }
      slot.control.setAttribute('aria-label', describe(slot));
    }
  }

  // ---- submit
  const signKey = idempotencyKeys(); // Finish again after a lost answer shows the done screen, not "already signed"
  const submit = async () => {
    barError.replaceChildren();
    const todo = required().filter((s) => !isDone(s));
    if (todo.length > 0) {
      for (const s of todo) s.box.classList.add('is-invalid');
      barError.replaceChildren(notice('error', `${String(todo.length)} required ${todo.length === 1 ? 'field needs' : 'fields need'} your input.`));
      const first = todo[0];
      if (first) window.setTimeout(() => { goTo(first); }, 600);
      return;
    }
    const submitted: Slot[] = [];
    const payload: FieldSubmission[] = [];
    let typedUsed = false;
    for (const s of slots) {
      const v = s.value;
      if (!v || s.field.type === 'date') continue;
      if (v.kind === 'drawn') payload.push({ fieldId: s.field.id, signatureImageBase64: v.png });
      else if (v.kind === 'typed') {
        payload.push({ fieldId: s.field.id, textValue: v.text });
        typedUsed = true;
      } else if (v.kind === 'text') payload.push({ fieldId: s.field.id, textValue: v.text });
      else payload.push({ fieldId: s.field.id, textValue: v.checked ? 'true' : 'false' });
      submitted.push(s);
    }
    busy(finish, 'Signing…');
    nextButton.disabled = true;
    try {
      const body = { fields: payload, ...(typedUsed ? { fontLabel: font } : {}) };
      const answer = await api<SignAnswer>('POST', signingPath(token, '/sign'), body, signKey(body));
      clearDraft(owner);
      session.done('signed', answer.envelopeStatus);
    } catch (error) {
      busy(finish, null);
      nextButton.disabled = false;
      const e = error instanceof ApiError ? error : new ApiError(0, 'network', String(error));
      if (e.status === 400) {
        const lines: string[] = [];
        for (const [path, messages] of Object.entries(e.errors)) {
          const index = /^fields\[(\d+)\]/.exec(path)?.[1];
          const slot = index === undefined ? undefined : submitted[Number(index)];
          if (slot) {
            slot.box.classList.add('is-invalid');
            lines.push(`${TYPE_NAMES[slot.field.type]} on page ${String(slot.field.page)}: ${messages.join(', ')}`);
          } else lines.push(...messages);
        }
        barError.replaceChildren(notice('error', h('p', null, e.message), lines.length > 0 ? h('ul', null, lines.map((l) => h('li', null, l))) : null));
      } else if (e.status === 0 || e.status >= 500 || e.status === 429 || (e.status === 409 && !/already/i.test(e.message))) {
        barError.replaceChildren(notice('error', `${e.message} Your entries are kept: select Finish to try again.`));
      } else session.fail(e);
    }
  };
  finish.addEventListener('click', () => { void submit(); });

  // ---- the screen
  const required0 = fields.filter((f) => f.required && f.type !== 'date').length;
  showScreen(context.subject ?? 'Review and sign',
    h('div', { class: 'doc-head' },
      h('p', { class: 'eyebrow' }, 'Step 3 of 3'),
      h('h1', null, context.subject ?? 'Review and sign'),
      h('p', null, 'Signing as ', h('strong', null, context.signerName), '. ',
        required0 > 0
          ? `Read the document and fill in the ${String(required0)} highlighted ${required0 === 1 ? 'field' : 'fields'}, then select Finish.`
          : 'Read the document, then select Finish.'),
      h('p', { class: 'doc-links' },
        h('a', { href: signingPath(token, '/document'), target: '_blank', rel: 'noopener' }, 'Open the PDF'),
        h('span', { 'aria-hidden': 'true' }, ' · '),
        h('button', { type: 'button', class: 'button-link', onclick: () => { session.decline(); } }, 'Decline to sign')),
      docStatus,
    ),
    pagesEl,
    bar,
  );
  refresh();

  // ---- rendering: the PDF is fetched and pdf.js loaded in parallel; pages render as they come near the viewport
  let pdf: PDFDocumentProxy | null = null;
  const rendered = new Map<number, { width: number; cancel: () => void }>();
  const visible = new Set<number>();

  const setScale = () => {
    geometry.forEach((page, i) => {
      const sheet = sheets[i];
      if (sheet) sheet.style.setProperty('--pt', `${String(sheet.clientWidth / displayedSize(page).width)}px`);
    });
  };

  const render = async (index: number) => {
    const canvas = canvases[index];
    const sheet = sheets[index];
    if (!pdf || !canvas || !sheet) return;
    const width = sheet.clientWidth;
    const done = rendered.get(index);
    if (done && Math.abs(done.width - width) < 2) return;
    done?.cancel();
    const entry: { width: number; cancelled: boolean; cancel: () => void } = { width, cancelled: false, cancel: () => { entry.cancelled = true; } };
    rendered.set(index, entry); // claims the canvas: one render at a time
    try {
      const page = await pdf.getPage(index + 1);
      if (entry.cancelled) return;
      const task = renderPage(page, canvas, width);
      entry.cancel = task.cancel;
      await task.promise;
      pageNotes[index]?.remove();
      sheet.classList.add('is-rendered');
    } catch (error) {
      if ((error as { name?: string }).name === 'RenderingCancelledException') return;
      if (rendered.get(index) === entry) rendered.delete(index);
      const note = pageNotes[index];
      if (note) note.textContent = `Page ${String(index + 1)} could not be shown.`;
    }
  };

  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      const index = sheets.indexOf(entry.target as HTMLElement);
      if (entry.isIntersecting) {
        visible.add(index);
        void render(index);
      } else {
        // Far from view: give the bitmap back (a long document would otherwise hold every page in memory)
        visible.delete(index);
        rendered.get(index)?.cancel();
        rendered.delete(index);
        const canvas = canvases[index];
        if (canvas) {
          canvas.width = 0;
          canvas.height = 0;
        }
      }
    }
  }, { rootMargin: '150% 0px' });

  let resizeTimer = 0;
  const resizeObserver = new ResizeObserver(() => {
    setScale();
    window.clearTimeout(resizeTimer);
    resizeTimer = window.setTimeout(() => { for (const i of visible) void render(i); }, 150);
  });
  resizeObserver.observe(pagesEl);
  setScale();

  const load = async () => {
    docStatus.replaceChildren();
    try {
      const [bytes] = await Promise.all([fetchBytes(signingPath(token, '/document')), loadPdfjs()]);
      pdf = await openPdf(bytes);
      for (const sheet of sheets) observer.observe(sheet);
    } catch (error) {
      const e = error instanceof ApiError ? error : null;
      if (e && (e.status === 401 || e.status === 410)) {
        session.fail(e);
        return;
      }
      const retry = h('button', { type: 'button', class: 'button button-secondary button-small', onclick: () => { void load(); } }, 'Try again');
      docStatus.replaceChildren(notice('error', 'The document could not be displayed. ', retry));
    }
  };
  void load();
}
