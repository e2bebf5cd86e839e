/** The editor's side panel: recipient switch, field palette, page list and the selected field's properties. */
import { h, type JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { FIELD_TYPES, type FieldType } from '#shared/kernel/model.ts';
import { t } from '../i18n/i18n.ts';
import type { Editor } from './author-state.ts';
import { fieldName, typeName } from './author-labels.ts';
import type { EditorField } from './author-store.ts';
import { Rules } from './author-rules.ts';
import { Entry } from './author-entry.ts';

export function Recipients({ editor }: { editor: Editor }): JSX.Element {
  return h('fieldset', { class: 'apanel arecipients' },
    h('legend', null, t('author.recipients')),
    editor.recipients.map((r) => h('label', { key: r.key, class: 'arecipient', style: { '--colour': r.colour } },
      h('input', { type: 'radio', name: 'recipient', value: r.key, checked: editor.active === r.key, onChange: () => { editor.active = r.key; editor.changed(); } }),
      h('span', { class: 'aswatch', 'aria-hidden': 'true' }), h('span', null, r.name))));
}

interface PaletteDrag { type: FieldType; pointer: number; x: number; y: number; moving: boolean }

export function Palette({ editor }: { editor: Editor }): JSX.Element {
  const drag = useRef<PaletteDrag | null>(null);
  const suppress = useRef(false);
  const [ghost, setGhost] = useState<{ type: FieldType; x: number; y: number } | null>(null);
  const placeAt = (type: FieldType, x: number, y: number) => {
    const sheet = document.elementFromPoint(x, y)?.closest<HTMLElement>('.asheet');
    const section = sheet?.closest<HTMLElement>('.apage');
    if (!sheet || !section) return;
    const documentId = section.dataset.documentId ?? '';
    const page = Number(section.dataset.page);
    const rect = sheet.getBoundingClientRect();
    const scale = editor.scale(documentId, page);
    const field = editor.place(type, documentId, page, { left: (x - rect.left) / scale, top: (y - rect.top) / scale });
    editor.focusRequest = field.key ?? field.id;
  };
  const down = (type: FieldType) => (event: PointerEvent) => {
    if (event.button !== 0) return;
    (event.currentTarget as HTMLElement).setPointerCapture(event.pointerId);
    drag.current = { type, pointer: event.pointerId, x: event.clientX, y: event.clientY, moving: false };
  };
  const move = (event: PointerEvent) => {
    const d = drag.current;
    if (d?.pointer !== event.pointerId) return;
    if (!d.moving && Math.hypot(event.clientX - d.x, event.clientY - d.y) < 5) return;
    d.moving = true;
    setGhost({ type: d.type, x: event.clientX, y: event.clientY });
  };
  const up = (event: PointerEvent) => {
    const d = drag.current;
    if (d?.pointer !== event.pointerId) return;
    drag.current = null;
    setGhost(null);
    if (!d.moving) return;
    suppress.current = true;
    placeAt(d.type, event.clientX, event.clientY);
  };
  const click = (type: FieldType) => (event: MouseEvent) => {
    if (suppress.current) {
      suppress.current = false;
      return;
    }
    if (event.detail === 0) {
      // The keyboard: Enter or Space places the field at the middle of the page in view
      const field = editor.place(type, editor.current.documentId, editor.current.page);
      editor.focusRequest = field.key ?? field.id;
      return;
    }
    editor.armed = editor.armed === type ? null : type;
    editor.changed();
  };
  return h('div', { class: 'apanel apalette', role: 'group', 'aria-labelledby': 'apalette-title' },
    h('h2', { id: 'apalette-title', class: 'apanel-title' }, t('author.palette')),
    h('p', { class: 'ahint', id: 'apalette-hint' }, t('author.paletteHint')),
    FIELD_TYPES.map((type) => h('button', {
      key: type, type: 'button', class: 'apalette-item', 'data-type': type, 'aria-pressed': editor.armed === type,
      'aria-describedby': 'apalette-hint', style: { '--colour': editor.colour(editor.active) },
      onPointerDown: down(type), onPointerMove: move, onPointerUp: up, onPointerCancel: up, onClick: click(type),
    }, h('span', { class: `aicon aicon-${type}`, 'aria-hidden': 'true' }), typeName(type))),
    ghost ? h('div', { class: 'aghost', 'aria-hidden': 'true', style: { left: `${String(ghost.x)}px`, top: `${String(ghost.y)}px` } }, typeName(ghost.type)) : null);
}

function NumberInput({ label, value, onCommit }: { label: string; value: number; onCommit: (n: number) => void }) {
  return h('label', { class: 'anumber' }, h('span', null, label),
    h(Entry, {
      type: 'number', step: '0.01', value: String(value), inputMode: 'decimal',
      onCommit: (typed) => {
        const n = Number(typed);
        if (typed.trim() !== '' && Number.isFinite(n)) onCommit(n);
      },
    }));
}

export function Properties({ editor }: { editor: Editor }): JSX.Element | null {
  const field = editor.store.field(editor.store.selected);
  if (!field) return h('div', { class: 'apanel aprops' }, h('h2', { class: 'apanel-title' }, t('author.properties')), h('p', { class: 'ahint' }, t('author.noSelection')));
  const set = (patch: Partial<EditorField>) => { editor.store.update(field.id, patch); };
  const box = editor.boxOf(field);
  return h('div', { class: 'apanel aprops' },
    h('h2', { class: 'apanel-title' }, t('author.properties')),
    h('p', { class: 'aselected' }, fieldName(editor, field)),
    h('label', { class: 'afield-row' }, h('span', null, t('author.recipient')),
      h('select', { value: field.recipient, onChange: (e: Event) => { set({ recipient: (e.target as HTMLSelectElement).value }); } },
        editor.recipients.map((r) => h('option', { key: r.key, value: r.key }, r.name)))),
    h('label', { class: 'afield-row' }, h('span', null, t('author.label')),
      h(Entry, { type: 'text', maxLength: 100, value: field.label ?? '', placeholder: typeName(field.type), onCommit: (label) => { set({ label: label.trim() || null }); } })),
    field.type === 'checkbox'
      ? h('label', { class: 'acheck' }, h('input', { type: 'checkbox', checked: field.value === 'true', onChange: (e: Event) => { set({ value: (e.target as HTMLInputElement).checked ? 'true' : null }); } }), t('author.prefillChecked'))
      : field.type === 'text' || field.type === 'date'
        ? h('label', { class: 'afield-row' }, h('span', null, t('author.value')),
          h(Entry, { type: 'text', maxLength: 1000, value: field.value ?? '', onCommit: (value) => { set({ value: value || null }); } }))
        : null,
    h('label', { class: 'acheck' }, h('input', { type: 'checkbox', checked: field.required, onChange: (e: Event) => { set({ required: (e.target as HTMLInputElement).checked }); } }), t('author.required')),
    field.type === 'signature' || field.type === 'initial' ? null
      : h('label', { class: 'acheck' }, h('input', { type: 'checkbox', checked: field.readOnly, onChange: (e: Event) => { set({ readOnly: (e.target as HTMLInputElement).checked }); } }), t('author.readOnly')),
    h(Rules, { editor, field }),
    h('fieldset', { class: 'aplacement' }, h('legend', null, t('author.placement')),
      h(NumberInput, { label: 'x', value: field.x, onCommit: (x) => { editor.moveBy(field.id, x - field.x, 0); } }),
      h(NumberInput, { label: 'y', value: field.y, onCommit: (y) => { editor.moveBy(field.id, 0, field.origin === 'top-left' ? y - field.y : field.y - y); } }),
      h(NumberInput, { label: t('author.width'), value: field.w, onCommit: (w) => { editor.setBox(field.id, { ...box, w }); } }),
      h(NumberInput, { label: t('author.height'), value: field.h, onCommit: (hh) => { editor.setBox(field.id, { ...box, h: hh }); } })),
    h('div', { class: 'abuttons' },
      h('button', { type: 'button', class: 'button button-secondary button-small', onClick: () => { editor.duplicate(field.id); } }, t('author.duplicate')),
      h('button', { type: 'button', class: 'button button-secondary button-small', onClick: () => { editor.store.remove(field.id); } }, t('author.delete'))));
}

/** Every page as a link (a number, and the page drawn small when the list shows it). */
export function PageList({ editor }: { editor: Editor }): JSX.Element {
  return h('nav', { class: 'apanel apagelist', 'aria-label': t('author.pages') },
    h('h2', { class: 'apanel-title' }, t('author.pages')),
    editor.documents.map((doc) => h('ol', { key: doc.id, class: 'athumbs', 'aria-label': doc.name },
      // The list is drawn once the first page is: a long document's page pictures never delay it
      Array.from({ length: doc.pages && editor.listReady ? doc.pages.count : 0 }, (_, i) => h(Thumb, { key: i, editor, documentId: doc.id, index: i })))));
}

function Thumb({ editor, documentId, index }: { editor: Editor; documentId: string; index: number }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const item = useRef<HTMLLIElement>(null);
  const pages = editor.documents.find((d) => d.id === documentId)?.pages;
  useEffect(() => {
    const [el, picture] = [item.current, canvas.current];
    if (!pages || !picture || !el) return undefined;
    // Small pictures wait for the first page: it is drawn first
    let stop: (() => void) | null = null;
    let gone = false;
    void pages.firstDrawn.then(() => { if (!gone) stop = pages.watch(el, index, picture, () => 64); });
    return () => { gone = true; stop?.(); };
  }, [pages, index]);
  const current = editor.current.documentId === documentId && editor.current.page === index + 1;
  const go = () => {
    const section = document.querySelector<HTMLElement>(`.apage[data-document-id="${documentId}"][data-page="${String(index + 1)}"]`);
    section?.scrollIntoView({ block: 'start' });
    section?.querySelector<HTMLElement>('.asheet')?.focus({ preventScroll: true });
  };
  return h('li', { ref: item, class: 'athumb' },
    h('button', { type: 'button', class: 'athumb-button', 'aria-current': current ? 'page' : undefined, onClick: go },
      h('canvas', { ref: canvas, 'aria-hidden': 'true' }), h('span', null, t('author.pageNumber', { page: index + 1 }))));
}
