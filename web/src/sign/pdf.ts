/**
 * pdf.js, loaded only when a document is shown: the library is a separate chunk and its worker a separate
 * file, both served from this origin (no CDN); cmaps, standard fonts and decoders are fetched on demand.
 */
import type { PDFDocumentProxy, PDFPageProxy, PDFWorker } from 'pdfjs-dist';

declare const __PDF_WORKER_URL__: string;
declare const __PDFJS_BASE__: string;

export type { PDFDocumentProxy, PDFPageProxy };

let library: Promise<typeof import('pdfjs-dist')> | null = null;

/** Starts loading pdf.js (once); call early to overlap it with the document download. */
export function loadPdfjs(): Promise<typeof import('pdfjs-dist')> {
  library ??= import('pdfjs-dist').then((pdfjs) => {
    pdfjs.GlobalWorkerOptions.workerSrc = __PDF_WORKER_URL__;
    return pdfjs;
  }, (error: unknown) => {
    library = null;
    throw error;
  });
  return library;
}

/** Starts pdf.js's worker before a document is there (it takes a while to start); pass it to openPdf. */
export const startPdfWorker = async (): Promise<PDFWorker> => new (await loadPdfjs()).PDFWorker();

export async function openPdf(data: ArrayBuffer, worker?: PDFWorker): Promise<PDFDocumentProxy> {
  const pdfjs = await loadPdfjs();
  return pdfjs.getDocument({
    data: new Uint8Array(data),
    ...(worker ? { worker } : {}),
    cMapUrl: `${__PDFJS_BASE__}cmaps/`,
    cMapPacked: true,
    standardFontDataUrl: `${__PDFJS_BASE__}standard_fonts/`,
    wasmUrl: `${__PDFJS_BASE__}wasm/`,
    iccUrl: `${__PDFJS_BASE__}iccs/`,
    isEvalSupported: false, // the page's CSP has no 'unsafe-eval'
    enableXfa: false,
  }).promise;
}

/** Renders a page into `canvas` at `cssWidth` CSS pixels wide (sharp on high-density screens); cancellable. */
export function renderPage(page: PDFPageProxy, canvas: HTMLCanvasElement, cssWidth: number): { promise: Promise<void>; cancel: () => void } {
  const base = page.getViewport({ scale: 1 });
  const density = Math.min(window.devicePixelRatio || 1, 2.5);
  let scale = (cssWidth / base.width) * density;
  const maxPixels = 16_000_000;
  if (base.width * base.height * scale * scale > maxPixels) scale = Math.sqrt(maxPixels / (base.width * base.height));
  const viewport = page.getViewport({ scale });
  canvas.width = Math.floor(viewport.width);
  canvas.height = Math.floor(viewport.height);
  const task = page.render({ canvas, viewport });
  return { promise: task.promise, cancel: () => { task.cancel(); } };
}
