/**
 * Step 3: the document, page by page, with this signer's fields laid over it where they are placed; guided
 * navigation from one required field to the next; Finish submits. This module puts the parts together: the
 * state (model.ts), the pages (pages.ts), the fields (field-view.ts, fill.ts), the bar and Finish.
 */
import { fetchBytes, signingPath } from '../../api.ts';
import type { PageGeometry } from '../../api-types.ts';
import { h, prefersReducedMotion, showScreen } from '../../dom.ts';
import { rich, t } from '../../i18n/i18n.ts';
import { loadDraft, saveDraft, fits } from '../draft.ts';
import { SIGNATURE_FONTS } from '../fonts.ts';
import { takeDocument } from '../prefetch.ts';
import { contextOf, documentOf, type DocumentState, type Page, type SigningState } from '../state.ts';
import { createActionBar } from './action-bar.ts';
import { createFieldView, renderFields, type FieldView } from './field-view.ts';
import { editField, setChecked } from './fill.ts';
import { documentOrder, initialValues, nextMissing, progressOf, type DocumentGeometry } from './model.ts';
import { createPages, type Pages } from './pages.ts';
import { completedView, readOnlyView } from './shown-field.ts';
import { createSubmit } from './submit.ts';

/** The document state for the context, with what a draft kept for this envelope and signer (draft.ts). */
function initialState(page: Page): DocumentState {
  const context = contextOf(page.store.state);
  // Read-only fields are shown, never filled in: they are not the signer's to enter (shown-field.ts)
  const fields = documentOrder(context.fields.filter((f) => !f.readOnly), documentsOf(page));
  const documents = documentsOf(page);
  // Conditions are evaluated live on the page as the service evaluates them on Finish (shared/envelopes/field-conditions.ts)
  const conditional = context.fields.some((f) => f.showIf);
  const doc: DocumentState = {
    fields, values: initialValues(fields, context.attachments), font: SIGNATURE_FONTS[0], adopted: {}, cursor: -1, started: false, finishAttempts: 0, submit: { status: 'idle' },
    ...(conditional ? { conditions: { readOnly: context.fields.filter((f) => f.readOnly), others: context.conditionValues } } : {}),
    ...(documents.length > 1 ? { documentNames: Object.fromEntries(documents.map((d) => [d.id, d.name ?? ''])) } : {}),
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

/** The documents to show, in order; a context without `documents` has its one `document`. */
function documentsOf(page: Page): (DocumentGeometry & { name: string | null; pageCount: number })[] {
  const context = contextOf(page.store.state);
  if (context.documents.length > 0) return context.documents.map((d) => ({ id: d.id, name: d.name, pageCount: d.pageCount, pages: d.pages as PageGeometry[] }));
  const only = context.document;
  return only ? [{ id: only.id, name: null, pageCount: only.pageCount, pages: only.pages }] : [];
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
  const documents = documentsOf(page);
  const several = documents.length > 1;
  const firstId = documents[0]?.id ?? null;
  const sections = documents.map((d, i) => {
    const pages = createPages(d.pages, d.pageCount);
    const url = signingPath(store.state.token, several ? `/document?documentId=${encodeURIComponent(d.id)}` : '/document');
    const head = several
      ? h('div', { class: 'document-head' },
        h('h2', null, t('document.heading', { number: i + 1, total: documents.length, name: d.name ?? '' })),
        h('a', { href: url, target: '_blank', rel: 'noopener' }, t('document.openThisPdf')))
      : null;
    return { document: d, pages, url, element: h('section', { class: 'document', 'data-document-id': d.id, 'aria-label': d.name ?? undefined }, head, pages.status, pages.element) };
  });
  const pagesOf = (documentId: string | null): Pages | undefined => sections.find((x) => x.document.id === (documentId ?? firstId))?.pages;
  const geometryOf = (documentId: string | null, n: number) => documents.find((d) => d.id === (documentId ?? firstId))?.pages[n - 1];

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

  // What is only shown goes under the signer's own fields: earlier signers' entries, then read-only values
  for (const done of context.completedFields) {
    const shown = geometryOf(done.documentId, done.page);
    const layer = pagesOf(done.documentId)?.layer(done.page);
    if (shown && layer) layer.append(completedView(done, shown));
  }
  for (const field of context.fields.filter((f) => f.readOnly)) {
    const shown = geometryOf(field.documentId, field.page);
    const layer = pagesOf(field.documentId)?.layer(field.page);
    if (shown && layer) layer.append(readOnlyView(field, shown));
  }

  const open = new Map<string, () => void>();
  documentOf(store.state).fields.forEach((field, index) => {
    const shown = geometryOf(field.documentId, field.page);
    const layer = pagesOf(field.documentId)?.layer(field.page);
    if (!shown || !layer) return;
    const edit = () => { void editField(store, field, () => { view.control.focus({ preventScroll: true }); }); };
    if (field.type !== 'checkbox' && field.type !== 'date') open.set(field.id, edit);
    const view = createFieldView(field, shown, {
      onActivate: edit,
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
      if (!next) return;
      goTo(next.id);
      // One tap fills the next field: its editor opens at once (a checkbox is there to tick)
      open.get(next.id)?.();
    },
    finish: () => { void submit(); },
  });

  // Counted as the page first shows them: a field its condition hides is not one to fill in
  const required = progressOf(documentOf(store.state)).total;
  const title = context.subject ?? t('document.defaultTitle');
  showScreen(title,
    h('div', { class: 'doc-head' },
      h('p', { class: 'eyebrow' }, t('step.of', { step: 3, steps: 3 })),
      h('h1', null, title),
      h('p', null, rich('document.intro', { name: context.signerName, required, strong: (c) => h('strong', null, c) })),
      several ? h('p', null, t('document.several', { count: documents.length })) : null,
      h('p', { class: 'doc-links' },
        several ? null : h('a', { href: signingPath(store.state.token, '/document'), download: '' }, t('document.downloadPdf')),
        several ? null : h('span', { 'aria-hidden': 'true' }, ' · '),
        h('button', { type: 'button', class: 'button-link', onclick: () => { page.decline(); } }, t('decline.open')),
        context.allowReassign ? h('span', { 'aria-hidden': 'true' }, ' · ') : null,
        context.allowReassign ? h('button', { type: 'button', class: 'button-link', 'data-action': 'reassign', onclick: () => { page.reassign(); } }, t('reassign.open')) : null),
    ),
    h('div', { class: 'documents' }, sections.map((x) => x.element)),
    bar.element,
  );
  store.watch((s) => { renderFields(documentOf(s), views); });
  store.watch((s) => { bar.render(documentOf(s)); });
  store.watch(draftKeeper(page));
  // The first document's bytes were fetched with the context (prefetch.ts); a retry asks again
  sections.forEach((x, i) => {
    let first = i === 0;
    x.pages.load(() => {
      const bytes = first ? takeDocument(store.state.token, x.url) : fetchBytes(x.url);
      first = false;
      return bytes;
    }, (error) => page.handled(error));
  });
}
