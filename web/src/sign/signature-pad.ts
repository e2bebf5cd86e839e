/**
 * A drawing pad: pointer events (mouse, pen, touch) with touch and mouse events as a fallback for browsers
 * without them. Strokes are kept as points in pad units (the pad is 1000 units wide) so they survive a
 * resize; the PNG is cropped to the ink, so sealing (which fits the image into the field, centred, aspect
 * kept) places exactly the drawn strokes.
 */
import { INK } from './fonts.ts';
import type { Strokes } from './values.ts';

type Point = [number, number];

const UNITS = 1000;
const LINE = 9; // stroke width in pad units

export class SignaturePad {
  readonly canvas: HTMLCanvasElement;
  private strokes: Strokes = [];
  private current: Point[] | null = null;
  private readonly aspect: number;
  private readonly onChange: () => void;

  constructor(canvas: HTMLCanvasElement, aspect: number, onChange: () => void) {
    this.canvas = canvas;
    this.aspect = aspect;
    this.onChange = onChange;
    canvas.style.touchAction = 'none';
    const supportsPointer = typeof (window as { PointerEvent?: unknown }).PointerEvent === 'function';
    if (supportsPointer) {
      canvas.addEventListener('pointerdown', (e) => {
        if (e.button !== 0 && e.pointerType === 'mouse') return;
        e.preventDefault();
        canvas.setPointerCapture(e.pointerId);
        this.begin(e);
      });
      canvas.addEventListener('pointermove', (e) => {
        if (!this.current) return;
        e.preventDefault();
        const events = typeof e.getCoalescedEvents === 'function' ? e.getCoalescedEvents() : [];
        for (const ev of events.length > 0 ? events : [e]) this.extend(ev);
      });
      const end = () => { this.end(); };
      canvas.addEventListener('pointerup', end);
      canvas.addEventListener('pointercancel', end);
      canvas.addEventListener('lostpointercapture', end);
    } else {
      canvas.addEventListener('touchstart', (e) => {
        e.preventDefault();
        const t = e.changedTouches[0];
        if (t) this.begin(t);
      }, { passive: false });
      canvas.addEventListener('touchmove', (e) => {
        e.preventDefault();
        for (const t of Array.from(e.changedTouches)) this.extend(t);
      }, { passive: false });
      canvas.addEventListener('touchend', () => { this.end(); });
      canvas.addEventListener('touchcancel', () => { this.end(); });
      canvas.addEventListener('mousedown', (e) => { this.begin(e); });
      canvas.addEventListener('mousemove', (e) => { if (this.current) this.extend(e); });
      window.addEventListener('mouseup', () => { this.end(); });
    }
  }

  get isEmpty(): boolean {
    return this.strokes.length === 0;
  }

  get value(): Strokes {
    return this.strokes.map((s) => s.map((p): Point => [p[0], p[1]]));
  }

  set value(strokes: Strokes) {
    this.strokes = strokes.map((s) => s.map((p): Point => [p[0], p[1]]));
    this.redraw();
  }

  clear(): void {
    this.strokes = [];
    this.current = null;
    this.redraw();
    this.onChange();
  }

  /** Sizes the bitmap to the element (call when shown or resized), then redraws. */
  resize(): void {
    const rect = this.canvas.getBoundingClientRect();
    const density = Math.min(window.devicePixelRatio || 1, 3);
    this.canvas.width = Math.max(1, Math.round(rect.width * density));
    this.canvas.height = Math.max(1, Math.round(rect.width / this.aspect * density));
    this.redraw();
  }

  private at(e: { clientX: number; clientY: number }): Point {
    const rect = this.canvas.getBoundingClientRect();
    const k = UNITS / Math.max(rect.width, 1);
    return [(e.clientX - rect.left) * k, (e.clientY - rect.top) * k];
  }

  private begin(e: { clientX: number; clientY: number }): void {
    this.current = [this.at(e)];
    this.strokes.push(this.current);
    this.redraw();
  }

  private extend(e: { clientX: number; clientY: number }): void {
    if (!this.current) return;
    const p = this.at(e);
    const last = this.current[this.current.length - 1];
    if (last && Math.hypot(p[0] - last[0], p[1] - last[1]) < 1.5) return;
    this.current.push(p);
    this.redraw();
  }

  private end(): void {
    if (!this.current) return;
    this.current = null;
    this.onChange();
  }

  private redraw(): void {
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    const k = this.canvas.width / UNITS;
    ctx.setTransform(k, 0, 0, k, 0, 0);
    paint(ctx, this.strokes);
  }

  /** The strokes as a PNG (base64, no data: prefix), cropped to the ink plus half a line; null when empty. */
  toPng(): string | null {
    return strokesToPng(this.strokes);
  }
}

function paint(ctx: CanvasRenderingContext2D, strokes: Strokes): void {
  ctx.strokeStyle = INK;
  ctx.fillStyle = INK;
  ctx.lineWidth = LINE;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  for (const stroke of strokes) {
    const [first] = stroke;
    if (!first) continue;
    if (stroke.length === 1) {
      ctx.beginPath();
      ctx.arc(first[0], first[1], LINE / 2, 0, Math.PI * 2);
      ctx.fill();
      continue;
    }
    // Quadratic curves through the midpoints: smooth lines from sampled points.
    ctx.beginPath();
    ctx.moveTo(first[0], first[1]);
    for (let i = 1; i < stroke.length - 1; i++) {
      const p = stroke[i];
      const q = stroke[i + 1];
      if (!p || !q) continue;
      ctx.quadraticCurveTo(p[0], p[1], (p[0] + q[0]) / 2, (p[1] + q[1]) / 2);
    }
    const last = stroke[stroke.length - 1];
    if (last) ctx.lineTo(last[0], last[1]);
    ctx.stroke();
  }
}

export function strokesToPng(strokes: Strokes): string | null {
  const points = strokes.flat();
  if (points.length === 0) return null;
  const margin = LINE;
  const minX = Math.min(...points.map((p) => p[0])) - margin;
  const minY = Math.min(...points.map((p) => p[1])) - margin;
  const maxX = Math.max(...points.map((p) => p[0])) + margin;
  const maxY = Math.max(...points.map((p) => p[1])) + margin;
  const scale = 0.8; // pixels per pad unit: a full-width signature is 800 px wide
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.ceil((maxX - minX) * scale));
  canvas.height = Math.max(1, Math.ceil((maxY - minY) * scale));
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  ctx.setTransform(scale, 0, 0, scale, -minX * scale, -minY * scale);
  paint(ctx, strokes);
  return canvas.toDataURL('image/png').replace(/^data:image\/png;base64,/, '');
}
