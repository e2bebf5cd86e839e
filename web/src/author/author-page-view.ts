/** The pages with their fields: drawn lazily, fields moved and resized with a pointer (mouse, pen, touch) or the keyboard. */
import { h, type JSX } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { t } from '../i18n/i18n.ts';
import { clampBox, CORNERS, resizeBox, snapMove, snapResize, type Box, type Corner } from './author-geometry.ts';
import type { Editor, EditorDocument } from './author-state.ts';
import type { EditorField } from './author-store.ts';
import { fieldName, typeName } from './author-labels.ts';

/** Snapping reaches this many CSS pixels, whatever the zoom. */
const SNAP_PX = 6;

interface Drag {
  pointer: number; x: number; y: number; start: Box; corner: Corner | null; moved: boolean;
  /** Where the pointer holds the field, in points from its top-left corner. */
  grab: { x: number; y: number };
}

/** Dragging near the top or bottom of the pages' view scrolls it, so a field can be carried to a page out of view. */
const EDGE_PX = 48;

/** The page sheet under a point (another page's, when a field is carried there), with its document and page number. */
function sheetAt(x: number, y: number): { el: HTMLElement; documentId: string; page: number } | null {
  for (const el of document.elementsFromPoint(x, y)) {
    if (!(el instanceof HTMLElement) || !el.classList.contains('asheet')) continue;
    // The dragged field's own page is listed as its parent even where the field is drawn beyond it
    const rect = el.getBoundingClientRect();
    if (x < rect.left || x > rect.right || y < rect.top || y > rect.bottom) continue;
    const section = el.closest<HTMLElement>('.apage');
    if (section) return { el, documentId: section.dataset.documentId ?? '', page: Number(section.dataset.page) };
  }
  return null;
}

function FieldBox({ editor, field, overlapsWith }: { editor: Editor; field: EditorField; overlapsWith: string[] | undefined }) {
  const ref = useRef<HTMLButtonElement>(null);
  const drag = useRef<Drag | null>(null);
  const key = field.key ?? field.id;
  useEffect(() => {
    if (editor.focusRequest === key && ref.current) {
      editor.focusRequest = null;
      ref.current.focus();
    }
  });
  const size = editor.size(field.documentId, field.page);
  const box = editor.boxOf(field);
  const selected = editor.store.selected === field.id;
  const pct = (n: number, of: number) => `${String((n / of) * 100)}%`;

  const down = (event: PointerEvent) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    ref.current?.focus();
    ref.current?.setPointerCapture(event.pointerId);
    const corner = (event.target as HTMLElement).dataset.corner as Corner | undefined;
    const start = editor.boxOf(field);
    const sheetRect = ref.current?.parentElement?.getBoundingClientRect();
    const scale = editor.scale(field.documentId, field.page);
    const grab = sheetRect ? { x: (event.clientX - sheetRect.left) / scale - start.left, y: (event.clientY - sheetRect.top) / scale - start.top } : { x: 0, y: 0 };
    drag.current = { pointer: event.pointerId, x: event.clientX, y: event.clientY, start, corner: corner ?? null, moved: false, grab };
  };
  const move = (event: PointerEvent) => {
    const d = drag.current;
    if (d?.pointer !== event.pointerId) return;
    const dx = event.clientX - d.x;
    const dy = event.clientY - d.y;
    if (!d.moved && Math.hypot(dx, dy) < 3) return;
    d.moved = true;
    const scale = editor.scale(field.documentId, field.page);
    const tolerance = SNAP_PX / scale;
    const others = editor.neighbours(field);
    if (d.corner) {
      const next = resizeBox(d.start, d.corner, dx / scale, dy / scale, size);
      editor.preview = { id: field.id, box: snapResize(next, d.corner, size, others, tolerance) };
    } else {
      const moved = { ...d.start, left: d.start.left + dx / scale, top: d.start.top + dy / scale };
      const over = sheetAt(event.clientX, event.clientY);
      // Over another page the box follows the pointer there (drawn outside its own page until dropped)
      const elsewhere = over && (over.documentId !== (field.documentId ?? over.documentId) || over.page !== field.page);
      editor.preview = { id: field.id, box: elsewhere ? moved : clampBox(snapMove(moved, size, others, tolerance), size) };
    }
    editor.changed();
    const scroller = ref.current?.closest<HTMLElement>('.ascroll');
    const view = scroller?.getBoundingClientRect();
    if (scroller && view && !d.corner) {
      if (event.clientY > view.bottom - EDGE_PX) scroller.scrollTop += EDGE_PX / 2;
      else if (event.clientY < view.top + EDGE_PX) scroller.scrollTop -= EDGE_PX / 2;
    }
  };
  const up = (event: PointerEvent) => {
    const d = drag.current;
    if (d?.pointer !== event.pointerId) return;
    drag.current = null;
    const preview = editor.preview;
    editor.preview = null;
    const over = d.corner || !d.moved ? null : sheetAt(event.clientX, event.clientY);
    if (over && (over.documentId !== (field.documentId ?? over.documentId) || over.page !== field.page) && preview) {
      // Dropped on another page: where the pointer left it, held at the point it was grabbed by, in that page's points
      const rect = over.el.getBoundingClientRect();
      const scale = editor.scale(over.documentId, over.page);
      editor.moveTo(field.id, over.documentId, over.page, {
        left: (event.clientX - rect.left) / scale - d.grab.x, top: (event.clientY - rect.top) / scale - d.grab.y, w: d.start.w, h: d.start.h,
      });
      editor.focusRequest = key;
    } else if (d.moved && preview) editor.setBox(field.id, preview.box);
    editor.store.select(field.id);
  };
  const key_ = (event: KeyboardEvent) => {
    const steps: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const step = steps[event.key];
    if (step) {
      event.preventDefault();
      const n = event.shiftKey ? 10 : 1;
      if (event.altKey) editor.resizeBy(field.id, step[0] * n, step[1] * n);
      else editor.moveBy(field.id, step[0] * n, step[1] * n);
      editor.store.select(field.id);
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      editor.store.remove(field.id);
      editor.focusPage = { documentId: field.documentId ?? '', page: field.page };
    } else if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'd') {
      event.preventDefault();
      editor.duplicate(field.id);
    } else if (event.key.toLowerCase() === 'c' && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      editor.nextCorner();
    } else if (event.key === 'Escape') {
      editor.store.select(null);
    }
  };
  const colour = editor.colour(field.recipient);
  const overlapText = overlapsWith ? t('author.overlaps', { count: overlapsWith.length }) : null;
  return h('button', {
    ref, type: 'button',
    class: `afield${selected ? ' is-selected' : ''}${overlapsWith ? ' is-overlapping' : ''}${field.readOnly ? ' is-readonly' : ''}`,
    'data-field-id': field.id, 'data-type': field.type, 'aria-pressed': selected,
    'aria-label': `${fieldName(editor, field)}${overlapText ? `. ${overlapText}` : ''}`,
    title: overlapText ?? undefined,
    style: { left: pct(box.left, size.width), top: pct(box.top, size.height), width: pct(box.w, size.width), height: pct(box.h, size.height), '--colour': colour },
    onPointerDown: down, onPointerMove: move, onPointerUp: up, onPointerCancel: up, onKeyDown: key_,
    onClick: (event: MouseEvent) => { event.stopPropagation(); editor.store.select(field.id); },
  },
  h('span', { class: 'afield-name', 'aria-hidden': 'true' }, field.label ?? typeName(field.type), field.required ? ' *' : ''),
  overlapsWith ? h('span', { class: 'afield-warn', 'aria-hidden': 'true' }, '!') : null,
  CORNERS.map((corner) => h('span', {
    key: corner, class: `afield-handle afield-handle-${corner}${selected && editor.corner === corner ? ' is-active' : ''}`, 'data-corner': corner, 'aria-hidden': 'true',
  })));
}

function PageSheet({ editor, doc, index, overlaps }: { editor: Editor; doc: EditorDocument; index: number; overlaps: Map<string, string[]> }) {
  const sheet = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const pages = doc.pages;
  useEffect(() => {
    if (!pages || !sheet.current || !canvas.current) return undefined;
    const el = sheet.current;
    return pages.watch(el, index, canvas.current, () => el.clientWidth);
  }, [pages, index]);
  useEffect(() => {
    const wanted = editor.focusPage;
    if (wanted?.documentId === doc.id && wanted.page === index + 1 && sheet.current) {
      editor.focusPage = null;
      sheet.current.focus();
    }
  });
  const page = index + 1;
  const size = editor.size(doc.id, page);
  const scale = editor.scale(doc.id, page);
  const count = pages?.count ?? 1;
  const label = t('author.pageOf', { page, pages: count, document: doc.name });
  const place = (event: MouseEvent) => {
    const armed = editor.armed;
    if (!armed || !sheet.current) {
      editor.store.select(null);
      return;
    }
    const rect = sheet.current.getBoundingClientRect();
    editor.armed = null;
    const field = editor.place(armed, doc.id, page, { left: (event.clientX - rect.left) / scale, top: (event.clientY - rect.top) / scale });
    editor.focusRequest = field.key ?? field.id;
  };
  const fields = editor.store.fields.filter((f) => (f.documentId ?? editor.documents[0]?.id) === doc.id && f.page === page);
  return h('section', { class: 'apage', 'aria-label': label, 'data-document-id': doc.id, 'data-page': String(page) },
    h('p', { class: 'apage-number', 'aria-hidden': 'true' }, label),
    h('div', {
      ref: sheet, class: `asheet${editor.armed ? ' is-armed' : ''}`, tabIndex: -1,
      style: { width: `${String(size.width * scale)}px`, height: `${String(size.height * scale)}px` },
      onClick: place,
    },
    h('canvas', { ref: canvas, class: 'apage-canvas', 'aria-hidden': 'true' }),
    fields.map((f) => h(FieldBox, { key: f.key ?? f.id, editor, field: f, overlapsWith: overlaps.get(f.id) }))));
}

export function DocumentPages({ editor }: { editor: Editor }): JSX.Element {
  const overlaps = editor.overlapping();
  return h('div', { class: 'adocs' }, editor.documents.map((doc) => h('div', { key: doc.id, class: 'adoc' },
    editor.documents.length > 1 ? h('h2', { class: 'adoc-name' }, doc.name) : null,
    doc.failed ? h('p', { class: 'notice notice-error', role: 'alert' }, t('author.documentFailed', { document: doc.name })) : null,
    !doc.pages && !doc.failed ? h('p', { class: 'loading' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), ' ', t('author.loadingDocument')) : null,
    doc.pages ? Array.from({ length: doc.pages.count }, (_, i) => h(PageSheet, { key: i, editor, doc, index: i, overlaps })) : null)));
}
