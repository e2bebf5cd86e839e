/** The editor's screen: a bar (save state, undo, redo, zoom, Done, Send), the side panel and the pages. */
import { h, type ComponentChildren, type JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { formatNumber, t } from '../i18n/i18n.ts';
import { ZOOMS, type Editor } from './author-state.ts';
import { fieldName } from './author-labels.ts';
import { DocumentPages } from './author-page-view.ts';
import { PageList, Palette, Properties, Recipients } from './author-panels.ts';

export interface AppProps {
  editor: Editor;
  title: string;
  onDone: () => void;
  /** Full mode: the details view (subject, message, recipients, documents) and Send. */
  details?: (() => ComponentChildren) | undefined;
  onSend?: (() => void) | undefined;
  sending?: boolean;
}

const typing = (target: EventTarget | null) => target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

function SaveState({ editor }: { editor: Editor }) {
  const { saveState, saveError } = editor.store;
  const text = saveState === 'saving' ? t('author.saving') : saveState === 'saved' ? t('author.saved') : saveState === 'error' ? t('author.saveFailed') : '';
  return h('div', { class: `asave asave-${saveState}`, role: 'status' }, text,
    saveState === 'error' && saveError ? h('span', { class: 'asave-error' }, ` ${saveError}`) : null);
}

function Overlaps({ editor }: { editor: Editor }) {
  const found = editor.overlapping();
  if (found.size === 0) return null;
  const fields = editor.store.fields.filter((f) => found.has(f.id));
  return h('div', { class: 'apanel aoverlaps notice notice-error' },
    h('p', null, t('author.overlapSummary', { count: fields.length })),
    h('ul', null, fields.map((f) => h('li', { key: f.id }, fieldName(editor, f)))));
}

export function App(props: AppProps): JSX.Element {
  const { editor } = props;
  const [, setTick] = useState(0);
  const rerender = () => { setTick((n) => n + 1); };
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState<'fields' | 'details'>('fields');
  useEffect(() => editor.store.subscribe(rerender), [editor]);

  // Undo and redo from anywhere but a text box (which has its own)
  useEffect(() => {
    const keys = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || typing(event.target)) return;
      const key = event.key.toLowerCase();
      if (key === 'z' && !event.shiftKey) editor.store.undo();
      else if ((key === 'z' && event.shiftKey) || key === 'y') editor.store.redo();
      else return;
      event.preventDefault();
    };
    document.addEventListener('keydown', keys);
    return () => { document.removeEventListener('keydown', keys); };
  }, [editor]);

  // The page in view (the keyboard places fields on it) and the width a fitted page takes
  useEffect(() => {
    const el = scroller.current;
    if (!el) return undefined;
    let frame = 0;
    const track = () => {
      frame = 0;
      const middle = el.getBoundingClientRect().top + el.clientHeight / 3;
      for (const section of el.querySelectorAll<HTMLElement>('.apage')) {
        const rect = section.getBoundingClientRect();
        if (rect.bottom < middle) continue;
        const next = { documentId: section.dataset.documentId ?? '', page: Number(section.dataset.page) };
        if (next.documentId !== editor.current.documentId || next.page !== editor.current.page) {
          editor.current = next;
          editor.changed();
        }
        break;
      }
    };
    const onScroll = () => { frame ||= requestAnimationFrame(track); };
    const resize = new ResizeObserver(() => {
      const width = Math.max(200, el.clientWidth - 32);
      if (Math.abs(width - editor.fitWidth) < 1) return;
      editor.fitWidth = width;
      editor.changed();
      for (const doc of editor.documents) doc.pages?.redraw();
    });
    resize.observe(el);
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => { el.removeEventListener('scroll', onScroll); resize.disconnect(); };
  }, [editor, view]);

  const zoom = (value: string) => {
    editor.zoom = value === 'fit' ? null : Number(value);
    editor.changed();
    requestAnimationFrame(() => { for (const doc of editor.documents) doc.pages?.redraw(); });
  };
  const { store } = editor;
  const details = props.details && view === 'details';
  const toggle = (to: 'fields' | 'details') => () => { setView(to); };
  return h('div', { class: 'author' },
    h('div', { class: 'abar' },
      h('h1', { class: 'atitle' }, props.title),
      h(SaveState, { editor }),
      h('div', { class: 'abar-actions' },
        props.details ? h('div', { class: 'atabs', role: 'group', 'aria-label': t('author.view') },
          h('button', { type: 'button', class: 'button button-secondary button-small', 'aria-pressed': !details, onClick: toggle('fields') }, t('author.fieldsView')),
          h('button', { type: 'button', class: 'button button-secondary button-small', 'aria-pressed': Boolean(details), onClick: toggle('details') }, t('author.detailsView'))) : null,
        h('button', { type: 'button', class: 'button button-secondary button-small', disabled: !store.canUndo, onClick: () => { store.undo(); }, 'aria-keyshortcuts': 'Control+Z' }, t('author.undo')),
        h('button', { type: 'button', class: 'button button-secondary button-small', disabled: !store.canRedo, onClick: () => { store.redo(); }, 'aria-keyshortcuts': 'Control+Shift+Z' }, t('author.redo')),
        h('label', { class: 'azoom' }, h('span', null, t('author.zoom')),
          h('select', { value: editor.zoom === null ? 'fit' : String(editor.zoom), onChange: (e: Event) => { zoom((e.target as HTMLSelectElement).value); } },
            h('option', { value: 'fit' }, t('author.fitWidth')),
            ZOOMS.map((z) => h('option', { key: z, value: String(z) }, formatNumber(z, { style: 'percent' }))))),
        h('button', { type: 'button', class: 'button button-secondary button-small', onClick: props.onDone }, t('author.done')),
        props.onSend ? h('button', { type: 'button', class: 'button button-primary button-small', disabled: props.sending, onClick: props.onSend }, t('author.send')) : null)),
    details && props.details ? h('div', { class: 'adetails' }, props.details()) : h('div', { class: 'abody' },
      h('div', { class: 'aside' }, h(Recipients, { editor }), h(Palette, { editor }), h(Overlaps, { editor }), h(Properties, { editor }), h(PageList, { editor })),
      h('p', { class: 'visually-hidden', role: 'status' }, editor.announcement),
      h('div', { ref: scroller, class: 'ascroll', role: 'region', 'aria-label': t('author.documentArea'), tabIndex: 0 }, h(DocumentPages, { editor }))));
}
