/**
 * The editor's coordinates: boxes between the API's origin (bottom-left or top-left of the page as shown) and the
 * screen's top-left, kept inside the page, snapped to edges; overlap.
 */
import { describe, expect, it } from 'vitest';
import { clampBox, fromBox, overlaps, resizeBox, snapMove, snapResize, toBox } from '../../web/src/author/author-geometry.ts';

const letter = { width: 612, height: 792 };
const turned = { width: 792, height: 612 }; // a letter page with /Rotate 90, as shown

describe('field boxes', () => {
  it('converts a bottom-left field to a box from the top and back', () => {
    const field = { x: 72, y: 100, w: 160, h: 40, origin: 'bottom-left' as const };
    const box = toBox(field, letter);
    expect(box).toEqual({ left: 72, top: 792 - 100 - 40, w: 160, h: 40 });
    expect(fromBox(box, letter, 'bottom-left')).toEqual({ x: 72, y: 100, w: 160, h: 40 });
  });

  it('keeps a top-left field\'s y, and measures a turned page by its shown height', () => {
    expect(toBox({ x: 10, y: 20, w: 30, h: 40, origin: 'top-left' }, letter)).toEqual({ left: 10, top: 20, w: 30, h: 40 });
    expect(fromBox({ left: 400, top: 189, w: 160, h: 22 }, turned, 'bottom-left')).toEqual({ x: 400, y: 612 - 189 - 22, w: 160, h: 22 });
  });

  it('rounds to a hundredth of a point', () => {
    expect(fromBox({ left: 10.123456, top: 0, w: 20.005, h: 10 }, letter, 'top-left')).toEqual({ x: 10.12, y: 0, w: 20.01, h: 10 });
  });

  it('keeps a box inside the page, moving it back rather than shrinking it', () => {
    expect(clampBox({ left: -5, top: 780, w: 100, h: 40 }, letter)).toEqual({ left: 0, top: 752, w: 100, h: 40 });
    expect(clampBox({ left: 600, top: 0, w: 700, h: 2 }, letter)).toEqual({ left: 0, top: 0, w: 612, h: 4 });
  });
});

describe('snapping', () => {
  it('moves an edge onto a page edge or another box\'s edge within the tolerance, the nearest first', () => {
    expect(snapMove({ left: 3, top: 100, w: 50, h: 20 }, letter, [], 5)).toEqual({ left: 0, top: 100, w: 50, h: 20 });
    const other = { left: 200, top: 300, w: 100, h: 20 };
    expect(snapMove({ left: 202, top: 323, w: 80, h: 20 }, letter, [other], 5)).toEqual({ left: 200, top: 320, w: 80, h: 20 });
    expect(snapMove({ left: 150, top: 150, w: 20, h: 20 }, letter, [other], 5)).toEqual({ left: 150, top: 150, w: 20, h: 20 });
  });

  it('snaps the edges the dragged corner moves, and only those', () => {
    expect(snapResize({ left: 500, top: 700, w: 109, h: 89 }, 'se', letter, [], 5)).toEqual({ left: 500, top: 700, w: 112, h: 92 });
    expect(snapResize({ left: 3, top: 2, w: 100, h: 50 }, 'nw', letter, [], 5)).toEqual({ left: 0, top: 0, w: 103, h: 52 });
    expect(snapResize({ left: 3, top: 2, w: 100, h: 50 }, 'se', letter, [], 5)).toEqual({ left: 3, top: 2, w: 100, h: 50 });
  });
});

describe('resizing by a corner', () => {
  const box = { left: 100, top: 100, w: 100, h: 50 };
  it('moves the dragged corner and keeps the opposite one, for each corner', () => {
    expect(resizeBox(box, 'se', 10, 5, letter)).toEqual({ left: 100, top: 100, w: 110, h: 55 });
    expect(resizeBox(box, 'nw', -10, -5, letter)).toEqual({ left: 90, top: 95, w: 110, h: 55 });
    expect(resizeBox(box, 'ne', 10, -5, letter)).toEqual({ left: 100, top: 95, w: 110, h: 55 });
    expect(resizeBox(box, 'sw', -10, 5, letter)).toEqual({ left: 90, top: 100, w: 110, h: 55 });
  });

  it('stops at the page\'s edges and at 4 points a side', () => {
    expect(resizeBox(box, 'nw', -500, -500, letter)).toEqual({ left: 0, top: 0, w: 200, h: 150 });
    expect(resizeBox(box, 'se', 1000, 1000, letter)).toEqual({ left: 100, top: 100, w: 512, h: 692 });
    expect(resizeBox(box, 'nw', 500, 500, letter)).toEqual({ left: 196, top: 146, w: 4, h: 4 });
  });
});

describe('overlap', () => {
  it('counts shared area, not touching edges', () => {
    const a = { left: 0, top: 0, w: 100, h: 20 };
    expect(overlaps(a, { left: 100, top: 0, w: 50, h: 20 })).toBe(false);
    expect(overlaps(a, { left: 99, top: 19, w: 50, h: 20 })).toBe(true);
  });
});
