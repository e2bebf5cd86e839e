/**
 * The editor by touch (DevTools touch events, so the page gets pointer events of type touch), at its narrowest width:
 * a field dragged from the palette onto the page, moved, and resized by a corner; the API agrees within half a point.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { draftWithEditor, fieldsOf, openEditor, pixelsPerPoint, saved, sheet, zoomTo, type ApiField } from './authoring-support.ts';
import { settleFrames, useBrowser } from './support.ts';

let page: Page;
let bearer: string;
useBrowser({ width: 800, height: 1000, mobile: true }, 'browser authoring touch', (session) => {
  page = session.page;
  bearer = session.bearer;
});

/** One finger from (x, y) to (x + dx, y + dy) in steps. */
async function swipe(x: number, y: number, dx: number, dy: number): Promise<void> {
  const session = await page.context().newCDPSession(page);
  const point = (t: number) => ({ x: x + dx * t, y: y + dy * t, id: 1 });
  await session.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point(0)] });
  for (let i = 1; i <= 12; i++) await session.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point(i / 12)] });
  await session.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await session.detach();
  await settleFrames(page);
}

const only = async (envelopeId: string): Promise<ApiField> => {
  const [field, ...rest] = await fieldsOf(bearer, envelopeId);
  if (!field || rest.length > 0) throw new Error('expected one field');
  return field;
};
const near = (a: number, b: number) => { expect(Math.abs(a - b), `${String(a)} vs ${String(b)}`).toBeLessThan(0.5); };

describe('the editor by touch', () => {
  it('places a field from the palette, moves it and resizes it with a finger', async () => {
    const draft = await draftWithEditor(bearer, { pages: 1 });
    await openEditor(page, draft.url);
    await zoomTo(page, '0.75');
    expect(await page.evaluate('matchMedia("(pointer: coarse)").matches')).toBe(true);
    const scale = await pixelsPerPoint(page, 612);
    const item = await page.locator('.apalette-item[data-type="text"]').boundingBox();
    const target = await sheet(page).boundingBox();
    if (!item || !target) throw new Error('no palette or page');
    // Dropped with its centre at (300 pt, 200 pt): the default text box is 160 x 22 pt
    const from = { x: item.x + item.width / 2, y: item.y + item.height / 2 };
    await swipe(from.x, from.y, target.x + 300 * scale - from.x, target.y + 200 * scale - from.y);
    await expect.poll(async () => (await fieldsOf(bearer, draft.id)).length).toBe(1);
    const placed = await only(draft.id);
    near(placed.x, 220);
    near(placed.y, 792 - 200 - 11);

    // Moved 50 pt right and 100 pt down by a finger on the field
    const el = page.locator(`[data-field-id="${placed.id}"]`);
    const box = await el.boundingBox();
    if (!box) throw new Error('no field');
    await swipe(box.x + box.width / 2, box.y + box.height / 2, 50 * scale, 100 * scale);
    await saved(page);
    const moved = await only(draft.id);
    near(moved.x, 270);
    near(moved.y, placed.y - 100);

    // The bottom-left corner dragged 20 pt left and 10 pt down: wider and taller, the top-right corner stays
    const handle = await el.locator('.afield-handle-sw').boundingBox();
    if (!handle) throw new Error('no handle');
    expect(handle.width).toBeGreaterThanOrEqual(22);
    await swipe(handle.x + handle.width / 2, handle.y + handle.height / 2, -20 * scale, 10 * scale);
    await saved(page);
    const resized = await only(draft.id);
    near(resized.x, 250);
    near(resized.w, 180);
    near(resized.h, 32);
    near(resized.y + resized.h, moved.y + moved.h);
    mkdirSync('/tmp/editor', { recursive: true });
    await page.screenshot({ path: '/tmp/editor/touch-800.png' });
  });
});
