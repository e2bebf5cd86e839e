/**
 * The document's pages: one sheet per page at the shown page's aspect ratio, a layer for the fields over it, and
 * the PDF rendered by pdf.js as pages come near the viewport (and given back when they go far from it). The PDF is
 * fetched and pdf.js loaded in parallel.
 */
import { displayedSize } from '#shared/envelopes/field-placement.ts';
import { asApiError } from '../../api.ts';
import type { ApiError } from '../../api.ts';
import type { PageGeometry } from '../../api-types.ts';
import { h, notice } from '../../dom.ts';
import { t } from '../../i18n/i18n.ts';
import { loadPdfjs, openPdf, renderPage, type PDFDocumentProxy } from '../pdf.ts';

export interface Pages {
  /** The pages, in order, each with its number and sheet. */
  element: HTMLElement;
  /** Where loading problems are shown (with a retry). */
  status: HTMLElement;
  /** The layer over page `n` (1-based) that holds its fields. */
  layer(page: number): HTMLElement | undefined;
  /**
   * Fetches the PDF with `bytes` (called again on a retry) and starts rendering; `fatal` gets errors that end the
   * visit (the link stopped working).
   */
  load(bytes: () => Promise<ArrayBuffer>, fatal: (error: ApiError) => boolean): void;
}

export function createPages(geometry: readonly PageGeometry[], pageCount: number): Pages {
  const sheets: HTMLElement[] = [];
  const canvases: HTMLCanvasElement[] = [];
  const notes: HTMLElement[] = [];
  const layers: HTMLElement[] = [];
  const element = h('div', { class: 'pages' });
  const status = h('div', { class: 'doc-status' });

  geometry.forEach((page, i) => {
    const shown = displayedSize(page);
    const label = t('document.pageOf', { page: i + 1, pages: pageCount });
    const canvas = h('canvas', { class: 'page-canvas', role: 'img', 'aria-label': label });
    const note = h('p', { class: 'page-note' }, t('document.pageLoading', { page: i + 1 }));
    const layer = h('div', { class: 'field-layer' });
    const sheet = h('div', { class: 'sheet', 'data-page': String(i + 1), style: { aspectRatio: `${String(shown.width)} / ${String(shown.height)}` } }, canvas, note, layer);
    sheets.push(sheet);
    canvases.push(canvas);
    notes.push(note);
    layers.push(layer);
    element.append(h('section', { class: 'page', 'aria-label': label }, h('p', { class: 'page-number', 'aria-hidden': 'true' }, label), sheet));
  });

  let pdf: PDFDocumentProxy | null = null;
  const rendered = new Map<number, { width: number; cancel: () => void }>();
  const visible = new Set<number>();

  /** --pt: CSS pixels per PDF point on each sheet, for field text sizes and paddings. */
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
      notes[index]?.remove();
      sheet.classList.add('is-rendered');
      // What the signer-page bench and tests wait for (docs/performance.md)
      if (performance.getEntriesByName('sign:first-page').length === 0) performance.mark('sign:first-page');
    } catch (error) {
      if ((error as { name?: string }).name === 'RenderingCancelledException') return;
      if (rendered.get(index) === entry) rendered.delete(index);
      const note = notes[index];
      if (note) note.textContent = t('document.pageFailed', { page: index + 1 });
    }
  };

  const release = (index: number) => {
    // Far from view: give the bitmap back (a long document would otherwise hold every page in memory)
    visible.delete(index);
    rendered.get(index)?.cancel();
    rendered.delete(index);
    const canvas = canvases[index];
    if (canvas) {
      canvas.width = 0;
      canvas.height = 0;
    }
  };

  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      const index = sheets.indexOf(entry.target as HTMLElement);
      if (!entry.isIntersecting) release(index);
      else {
        visible.add(index);
        void render(index);
      }
    }
  }, { rootMargin: '150% 0px' });

  let resizeTimer = 0;
  new ResizeObserver(() => {
    setScale();
    window.clearTimeout(resizeTimer);
    resizeTimer = window.setTimeout(() => { for (const i of visible) void render(i); }, 150);
  }).observe(element);

  const load = async (bytesOf: () => Promise<ArrayBuffer>, fatal: (error: ApiError) => boolean) => {
    status.replaceChildren();
    setScale();
    try {
      const [bytes] = await Promise.all([bytesOf(), loadPdfjs()]);
      pdf = await openPdf(bytes);
      for (const sheet of sheets) observer.observe(sheet);
    } catch (error) {
      if (fatal(asApiError(error))) return;
      const retry = h('button', { type: 'button', class: 'button button-secondary button-small', onclick: () => { void load(bytesOf, fatal); } }, t('action.tryAgain'));
      status.replaceChildren(notice('error', t('document.loadFailed'), ' ', retry));
    }
  };

  return { element, status, layer: (n) => layers[n - 1], load: (bytesOf, fatal) => { void load(bytesOf, fatal); } };
}
