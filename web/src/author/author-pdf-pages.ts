/**
 * One document's pages for the editor: pdf.js (the signing page's lazy chunk) opens the PDF; each page's shown size
 * (crop box turned by /Rotate) is read as the page comes near, and the page is drawn when it comes near the viewport
 * and given back when it goes far (an IntersectionObserver), so a 500-page document stays fluid.
 */
import { openPdf, renderPage, type PDFDocumentProxy } from '../sign/pdf.ts';
import type { Size } from './author-geometry.ts';

interface Slot { index: number; canvas: HTMLCanvasElement; width: () => number; drawn: number; cancel: (() => void) | null }

export class PdfPages {
  readonly sizes: Size[];
  private readonly slots = new Map<Element, Slot>();
  private readonly observer: IntersectionObserver;
  private readonly sizeListeners = new Set<() => void>();
  firstDrawn: Promise<void>;
  private markDrawn: () => void = () => undefined;

  private constructor(private readonly pdf: PDFDocumentProxy, first: Size) {
    this.sizes = Array.from({ length: pdf.numPages }, () => ({ ...first }));
    this.firstDrawn = new Promise((resolve) => { this.markDrawn = resolve; });
    this.observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        const slot = this.slots.get(entry.target);
        if (!slot) continue;
        if (entry.isIntersecting) void this.draw(slot);
        else this.release(slot);
      }
    }, { rootMargin: '100% 0px' });
  }

  static async open(bytes: ArrayBuffer): Promise<PdfPages> {
    const pdf = await openPdf(bytes);
    const page = await pdf.getPage(1);
    const { width, height } = page.getViewport({ scale: 1 });
    const pages = new PdfPages(pdf, { width, height });
    void pages.readSizes();
    return pages;
  }

  get count(): number { return this.pdf.numPages; }

  onSizes(listener: () => void): () => void {
    this.sizeListeners.add(listener);
    return () => { this.sizeListeners.delete(listener); };
  }

  /** Every page's shown size, read in the background in batches (pages after the first start with its size). */
  private async readSizes(): Promise<void> {
    let changed = false;
    for (let i = 1; i < this.pdf.numPages; i++) {
      const page = await this.pdf.getPage(i + 1);
      const { width, height } = page.getViewport({ scale: 1 });
      const size = this.sizes[i];
      if (size && (size.width !== width || size.height !== height)) {
        this.sizes[i] = { width, height };
        changed = true;
      }
      if (changed && (i % 50 === 0 || i === this.pdf.numPages - 1)) {
        changed = false;
        for (const listener of this.sizeListeners) listener();
      }
    }
  }

  /** Draws page `index` (0-based) into `canvas` whenever its sheet `el` comes near the viewport. */
  watch(el: Element, index: number, canvas: HTMLCanvasElement, width: () => number): () => void {
    const slot: Slot = { index, canvas, width, drawn: 0, cancel: null };
    this.slots.set(el, slot);
    this.observer.observe(el);
    return () => {
      this.observer.unobserve(el);
      this.release(slot);
      this.slots.delete(el);
    };
  }

  /** Draws again the pages on screen (after a zoom). */
  redraw(): void {
    for (const slot of this.slots.values()) if (slot.drawn > 0 || slot.cancel) void this.draw(slot);
  }

  private async draw(slot: Slot): Promise<void> {
    const width = slot.width();
    if (Math.abs(slot.drawn - width) < 1 || width <= 0) return;
    slot.cancel?.();
    const run = { cancelled: false };
    slot.cancel = () => { run.cancelled = true; };
    slot.drawn = width;
    try {
      const page = await this.pdf.getPage(slot.index + 1);
      if (run.cancelled) return;
      const task = renderPage(page, slot.canvas, width);
      slot.cancel = task.cancel;
      await task.promise;
      slot.cancel = null;
      slot.canvas.dataset.drawn = 'true';
      if (slot.index === 0) this.markDrawn();
    } catch {
      slot.drawn = 0; // cancelled or failed: drawn again when it comes back into view
    }
  }

  private release(slot: Slot): void {
    slot.cancel?.();
    slot.cancel = null;
    slot.drawn = 0;
    slot.canvas.width = 0;
    slot.canvas.height = 0;
    delete slot.canvas.dataset.drawn;
  }
}
