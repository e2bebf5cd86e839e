/**
 * Step 3: the document, page by page, with this signer's fields laid over it where they are placed; guided
 * navigation from one required field to the next; Finish submits. This module puts the parts together: the
 * state (model.ts), the pages (pages.ts), the fields (field-view.ts, fill.ts), the bar and Finish.
 */
import { signingPath } from '../../api.ts';
import { h, prefersReducedMotion, showScreen } from '../../dom.ts';
import { rich, t } from '../../i18n/i18n.ts';
import { loadDraft, saveDraft } from '../draft.ts';
import { fits } from '../draft.ts';
import { SIGNATURE_FONTS } from '../fonts.ts';
import { contextOf, documentOf, type DocumentState, type Page, type SigningState } from '../state.ts';
import { createActionBar } from './action-bar.ts';
import { createFieldView, renderFields, type FieldView } from './field-view.ts';
import { editField, setChecked } from './fill.ts';
import { initialValues, needsInput, nextMissing, readingOrder } from './model.ts';
import { createPages } from './pages.ts';
import { createSubmit } from './submit.ts';

/** The document state for the context, with what a draft kept for this envelope and signer (draft.ts). */
function initialState(page: Page): DocumentState {
  const context = contextOf(page.store.state);
  const fields = readingOrder(context.fields, context.document?.pages ?? []);
  const doc: DocumentState = {
    fields, values: initialValues(fields), font: SIGNATURE_FONTS[0], adopted: {}, cursor: -1, started: false, finishAttempts: 0, submit: { status: 'idle' },
  };
  const draft = loadDraft(context);
  if (!draft) return doc;
  doc.font = draft.font;
  const values = { ...doc.values };
  for (const field of fields) {
    const value = draft.values[field.id];
    if (!fits(field.type, value)) continue;
    values[field.id] = value;
    if ((value.kind === 'drawn' || value.kind === 'typed') && (field.type === 'signature' || field.type === 'initial')) doc.adopted[field.type] ??= value;
  }
  doc.values = values;
  return doc;
}

/** Keeps the entries in the tab's storage whenever they change (not on every focus move). */
function draftKeeper(page: Page) {
  const owner = contextOf(page.store.state);
  let kept: Pick<DocumentState, 'values' | 'font'> | null = null;
  return ({ document: doc }: SigningState) => {
    if (!doc || (kept?.values === doc.values && kept.font === doc.font)) return;
    if (kept) saveDraft(owner, { font: doc.font, values: doc.values });
    kept = { values: doc.values, font: doc.font };
  };
}

export function showDocument(page: Page): void {
  const { store } = page;
  const context = contextOf(store.state);
  store.update((s) => { s.document = initialState(page); });
  const geometry = context.document?.pages ?? [];
  const pages = createPages(geometry, context.document?.pageCount ?? geometry.length);

  const views = new Map<string, FieldView>();
  const goTo = (fieldId: string) => {
    const view = views.get(fieldId);
    if (!view) return;
    view.box.scrollIntoView({ block: 'center', behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
    view.control.focus({ preventScroll: true });
    view.box.classList.remove('is-flash');
    view.box.getBoundingClientRect(); // restarts the animation
    view.box.classList.add('is-flash');
  };

  documentOf(store.state).fields.forEach((field, index) => {
    const shown = geometry[field.page - 1];
    const layer = pages.layer(field.page);
    if (!shown || !layer) return;
    const view = createFieldView(field, shown, {
      onActivate: () => { void editField(store, field, () => { view.control.focus({ preventScroll: true }); }); },
      onCheck: (checked) => { setChecked(store, field, checked); },
      onFocus: () => { if (documentOf(store.state).cursor !== index) store.update((s) => { documentOf(s).cursor = index; }); },
    });
    views.set(field.id, view);
    layer.append(view.box);
  });

  const submit = createSubmit(page, goTo);
  const bar = createActionBar({
    next: () => {
      const next = nextMissing(documentOf(store.state));
      store.update((s) => { documentOf(s).started = true; });
      if (next) goTo(next.id);
    },
    finish: () => { void submit(); },
  });

  const required = context.fields.filter(needsInput).length;
  const title = context.subject ?? t('document.defaultTitle');
  showScreen(title,
    h('div', { class: 'doc-head' },
      h('p', { class: 'eyebrow' }, t('step.of', { step: 3, steps: 3 })),
      h('h1', null, title),
      h('p', null, rich('document.intro', { name: context.signerName, required, strong: (c) => h('strong', null, c) })),
      h('p', { class: 'doc-links' },
        h('a', { href: signingPath(store.state.token, '/document'), target: '_blank', rel: 'noopener' }, t('document.openPdf')),
        h('span', { 'aria-hidden': 'true' }, ' · '),
        h('button', { type: 'button', class: 'button-link', onclick: () => { page.decline(); } }, t('decline.open'))),
      pages.status,
    ),
    pages.element,
    bar.element,
  );
  store.watch((s) => { renderFields(documentOf(s), views); });
  store.watch((s) => { bar.render(documentOf(s)); });
  store.watch(draftKeeper(page));
  pages.load(signingPath(store.state.token, '/document'), (error) => page.handled(error));
}
