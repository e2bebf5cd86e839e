/**
 * The sender's editor, /author/{ticket} (a chunk of its own, loaded only on this path): opens the one-time URL,
 * which hands it an authoring session for one envelope or template, then shows its documents to place fields on.
 */
import { h as preact, render } from 'preact';
import { asApiError } from '../api-error.ts';
import type { PageBranding } from '../api-types.ts';
import { applyBranding } from '../branding.ts';
import { h, loadingScreen, showScreen } from '../dom.ts';
import { t } from '../i18n/i18n.ts';
import { adoptLocale } from '../i18n/language.ts';
import { AuthorApi, openTicket, type Session } from './author-api.ts';
import { postEvent, returnTo, type Opened } from './author-events.ts';
import { DetailsView } from './author-details.ts';
import { App } from './author-app.ts';
import { Editor } from './author-state.ts';
import { PdfPages, warmWorker } from './author-pdf-pages.ts';
import { basePath, documentUrl, fieldSaver, loadResource, originals, recipientsOf, toEditorField, type Resource } from './author-resource.ts';
import { Store } from './author-store.ts';
import styles from './author-editor.css';

function problem(heading: string, text: string): void {
  showScreen(heading, h('h1', null, heading), h('p', null, text));
}

/** The editor on screen: a language switch starts the page again, which draws it again (the ticket is spent). */
let mounted: { ticket: string; draw: () => void } | null = null;

/** The last screen (saved, sent); shown again after a language switch. */
function finished(heading: () => string, text: () => string): void {
  const show = () => {
    document.body.classList.remove('is-authoring');
    showScreen(heading(), h('h1', null, heading()), h('p', { role: 'status' }, text()));
  };
  if (mounted) mounted.draw = show;
  show();
}

/** `opening`: the ticket's open call, when the page started it before this chunk arrived. */
export async function startAuthoring(ticket: string, opening: Promise<unknown> | null = null): Promise<void> {
  if (mounted?.ticket === ticket) {
    mounted.draw();
    return;
  }
  performance.mark('author:start');
  loadingScreen(t('author.title'), t('author.opening'));
  warmWorker(); // pdf.js and its worker load while the ticket is opened and the draft read
  let opened: Opened & Session & { branding?: PageBranding | null };
  try {
    type Answer = Opened & Session & { branding?: PageBranding | null };
    opened = await (opening ? (opening as Promise<Answer>) : openTicket<Answer>(ticket));
  } catch (error) {
    const e = asApiError(error);
    problem(t('author.openFailed'), e.status === 401 ? t('author.linkUsed') : e.status === 0 ? t('author.noAnswer') : e.message);
    return;
  }
  performance.mark('author:opened');
  applyBranding(opened.branding ?? null); // the header, as the draft's signers will see it
  if (opened.locale) await adoptLocale(opened.locale);
  const api = new AuthorApi(opened);
  for (const type of ['pointerdown', 'keydown']) document.addEventListener(type, () => { api.keepAlive(); }, { passive: true });
  // The first document's bytes are asked for together with the draft: the route answers the first one without an id
  const firstPdf = api.bytes(`${basePath(opened.kind, opened.id)}/document`);
  firstPdf.catch(() => undefined);
  let resource: Resource;
  try {
    resource = await loadResource(api, opened.kind, opened.id);
  } catch (error) {
    postEvent(opened, 'error');
    problem(t('author.openFailed'), asApiError(error).message);
    return;
  }
  performance.mark('author:draft');
  mounted = { ticket, draw: mount(api, opened, resource, firstPdf) };
}

function mount(api: AuthorApi, opened: Opened, first: Resource, firstPdf: Promise<ArrayBuffer>): () => void {
  let resource = first;
  const store = new Store(resource.fields.map(toEditorField), fieldSaver(api, resource), () => { postEvent(opened, 'authoring.saved'); });
  const editor = new Editor(store, resource.fieldOrigin);
  // A refused change is an `error` event for the framing page, once per refusal
  let lastError: string | null = null;
  store.subscribe(() => {
    const error = store.saveState === 'error' ? store.saveError : null;
    if (error && error !== lastError) postEvent(opened, 'error');
    lastError = error;
  });
  let sending = false;
  let prefetchUsed = false;

  const loadDocuments = () => {
    const before = new Map(editor.documents.map((d) => [d.id, d]));
    editor.documents = originals(resource).map((d, i) => before.get(d.id) ?? { id: d.id, name: d.name ?? t('author.documentN', { n: i + 1 }), pages: null, failed: false });
    editor.recipients = recipientsOf(resource);
    if (!editor.recipients.some((r) => r.key === editor.active)) editor.active = editor.recipients[0]?.key ?? '';
    const [firstDoc] = editor.documents;
    if (firstDoc && !editor.documents.some((d) => d.id === editor.current.documentId)) editor.current = { documentId: firstDoc.id, page: 1 };
    // The bytes fetched with the draft are the first original's, which the page shows first when it is also first in order
    const prefetched = resource.documents.find((d) => (d.kind ?? 'original') === 'original')?.id;
    for (const doc of editor.documents) {
      if (doc.pages) continue;
      const pdf = doc === editor.documents[0] && doc.id === prefetched && !prefetchUsed ? firstPdf : api.bytes(documentUrl(resource, doc.id));
      if (doc === editor.documents[0]) prefetchUsed = true;
      void pdf.then((bytes) => {
        if (doc === editor.documents[0]) performance.mark('author:pdf-bytes');
        return PdfPages.open(bytes);
      }).then((pages) => {
        doc.pages = pages;
        pages.onSizes(() => { editor.changed(); });
        if (doc === editor.documents[0]) {
          void pages.firstDrawn.then(() => {
            performance.mark('author:first-page');
            editor.listReady = true;
            editor.changed();
          });
          requestAnimationFrame(() => { performance.mark('author:interactive'); });
        }
        editor.changed();
      }, () => {
        doc.failed = true;
        editor.listReady = true;
        editor.changed();
        postEvent(opened, 'error');
      });
    }
    editor.changed();
  };

  /** The envelope or template again, after its recipients or documents changed. */
  const reload = async () => {
    resource = await loadResource(api, resource.kind, resource.id);
    store.fields = resource.fields.map(toEditorField);
    loadDocuments();
  };

  const done = async () => {
    await store.settled();
    postEvent(opened, 'authoring.saved');
    postEvent(opened, 'authoring.closed');
    if (!returnTo(opened, 'saved')) finished(() => t('author.doneHeading'), () => t('author.doneText'));
  };

  const send = async () => {
    if (sending) return;
    sending = true;
    draw();
    await store.settled();
    try {
      await api.call('POST', `/v1/envelopes/${encodeURIComponent(resource.id)}/send`, {});
    } catch (error) {
      sending = false;
      store.saveState = 'error';
      store.saveError = asApiError(error).message;
      draw();
      postEvent(opened, 'error');
      return;
    }
    postEvent(opened, 'authoring.sent');
    if (!returnTo(opened, 'sent')) finished(() => t('author.sentHeading'), () => t('author.sentText'));
  };

  const root = document.getElementById('main') ?? document.body;
  document.body.classList.add('is-authoring');
  const sheet = document.createElement('style');
  sheet.textContent = styles;
  document.head.append(sheet);
  root.replaceChildren();
  const title = () => (resource.kind === 'template' ? resource.name ?? '' : resource.subject ?? '') || t('author.untitled');
  function draw(): void {
    document.title = t('page.title', { screen: t('author.title') });
    const full = opened.mode === 'full';
    render(preact(App, {
      editor, title: title(), sending,
      onDone: () => { void done(); },
      onSend: full && resource.kind === 'envelope' ? () => { void send(); } : undefined,
      details: full ? () => preact(DetailsView, { api, resource, reload, changed: draw }) : undefined,
    }), root);
  }
  draw();
  loadDocuments();
  postEvent(opened, 'authoring.loaded');
  return draw;
}
