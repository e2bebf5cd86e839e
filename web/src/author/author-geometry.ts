/**
 * Field boxes between the API's coordinates (PDF points on the page as shown: crop box turned by /Rotate, origin at
 * the bottom-left or top-left corner) and the editor's (points from the shown page's top-left corner). pdf.js draws
 * the page as shown, so the screen is the shown page scaled: one factor, whatever the zoom and rotation.
 */
import type { FieldOrigin } from '#shared/kernel/model.ts';

export interface Size { width: number; height: number }
/** A box in points from the shown page's top-left corner. */
export interface Box { left: number; top: number; w: number; h: number }
export interface Placed { x: number; y: number; w: number; h: number; origin: FieldOrigin }

export const toBox = (f: Placed, page: Size): Box =>
  ({ left: f.x, top: f.origin === 'top-left' ? f.y : page.height - f.y - f.h, w: f.w, h: f.h });

/** The API's x/y for a box (rounded to 1/100 pt, which the API keeps as sent). */
export function fromBox(box: Box, page: Size, origin: FieldOrigin): Pick<Placed, 'x' | 'y' | 'w' | 'h'> {
  const r = (n: number) => Math.round(n * 100) / 100;
  const w = r(box.w);
  const h = r(box.h);
  return { x: r(box.left), y: r(origin === 'top-left' ? box.top : page.height - box.top - box.h), w, h };
}

/** The box moved or shrunk so that it lies inside the page. */
export function clampBox(box: Box, page: Size): Box {
  const w = Math.min(Math.max(box.w, 4), page.width);
  const h = Math.min(Math.max(box.h, 4), page.height);
  return { w, h, left: Math.min(Math.max(box.left, 0), page.width - w), top: Math.min(Math.max(box.top, 0), page.height - h) };
}

/** Snaps a moved box's edges to the page's edges and to other boxes' edges within `tolerance` points. */
export function snapMove(box: Box, page: Size, others: readonly Box[], tolerance: number): Box {
  const xs = [0, page.width, ...others.flatMap((o) => [o.left, o.left + o.w])];
  const ys = [0, page.height, ...others.flatMap((o) => [o.top, o.top + o.h])];
  const shift = (edges: number[], targets: number[]) => {
    let best = 0;
    let distance = tolerance;
    for (const edge of edges) {
      for (const target of targets) {
        const d = Math.abs(target - edge);
        if (d < distance) { distance = d; best = target - edge; }
      }
    }
    return best;
  };
  return { ...box, left: box.left + shift([box.left, box.left + box.w], xs), top: box.top + shift([box.top, box.top + box.h], ys) };
}

/** A corner of a box: the one a handle (or Alt + arrow keys) moves while the opposite one stays. */
export type Corner = 'nw' | 'ne' | 'sw' | 'se';
/** The order the keyboard steps through them, the bottom-right one first. */
export const CORNERS: readonly Corner[] = ['se', 'sw', 'nw', 'ne'];
/** The smallest side of a field, in points. */
const MIN_SIDE = 4;

/** The box with `corner` moved by (dx, dy) points, the opposite corner fixed, kept on the page and at least 4 pt a side. */
export function resizeBox(start: Box, corner: Corner, dx: number, dy: number, page: Size): Box {
  let [left, top, right, bottom] = [start.left, start.top, start.left + start.w, start.top + start.h];
  if (corner === 'nw' || corner === 'sw') left = Math.min(Math.max(0, left + dx), right - MIN_SIDE);
  else right = Math.max(Math.min(page.width, right + dx), left + MIN_SIDE);
  if (corner === 'nw' || corner === 'ne') top = Math.min(Math.max(0, top + dy), bottom - MIN_SIDE);
  else bottom = Math.max(Math.min(page.height, bottom + dy), top + MIN_SIDE);
  return { left, top, w: right - left, h: bottom - top };
}

/** Snaps the edges a resize by `corner` moves to the page's edges and other boxes' edges within `tolerance` points. */
export function snapResize(box: Box, corner: Corner, page: Size, others: readonly Box[], tolerance: number): Box {
  const near = (edge: number, targets: number[]) => {
    let best = edge;
    let distance = tolerance;
    for (const target of targets) {
      const d = Math.abs(target - edge);
      if (d < distance) { distance = d; best = target; }
    }
    return best;
  };
  const xs = [0, page.width, ...others.flatMap((o) => [o.left, o.left + o.w])];
  const ys = [0, page.height, ...others.flatMap((o) => [o.top, o.top + o.h])];
  let [left, top, right, bottom] = [box.left, box.top, box.left + box.w, box.top + box.h];
  if (corner === 'nw' || corner === 'sw') left = Math.min(near(left, xs), right - MIN_SIDE);
  else right = Math.max(near(right, xs), left + MIN_SIDE);
  if (corner === 'nw' || corner === 'ne') top = Math.min(near(top, ys), bottom - MIN_SIDE);
  else bottom = Math.max(near(bottom, ys), top + MIN_SIDE);
  return { left, top, w: right - left, h: bottom - top };
}

export const overlaps = (a: Box, b: Box) =>
  a.left < b.left + b.w - 0.01 && b.left < a.left + a.w - 0.01 && a.top < b.top + b.h - 0.01 && b.top < a.top + a.h - 0.01;

/** A new field's size by type, in points. */
export const DEFAULT_SIZE: Record<string, { w: number; h: number }> = {
  signature: { w: 160, h: 40 }, initial: { w: 60, h: 36 }, date: { w: 110, h: 22 }, text: { w: 160, h: 22 }, checkbox: { w: 16, h: 16 },
};
