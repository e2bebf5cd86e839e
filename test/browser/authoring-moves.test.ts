/**
 * Moving a field to another page by dragging it there, and resizing it by each of its four corners (mouse and
 * keyboard): what the API stores matches the page within half a point, and a field never leaves its page.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { draftWithEditor, fieldsOf, openEditor, pixelsPerPoint, saved, sheet, zoomTo, type ApiField } from './authoring-support.ts';
import { settleFrames, useBrowser } from './support.ts';

let page: Page;
let bearer: string;
useBrowser({ width: 1280, height: 1000 }, 'browser authoring moves', (session) => {
  page = session.page;
  bearer = session.bearer;
});

const only = async (envelopeId: string): Promise<ApiField> => {
  const [field, ...rest] = await fieldsOf(bearer, envelopeId);
  if (!field || rest.length > 0) throw new Error('expected one field');
  return field;
};
const near = (a: number, b: number) => { expect(Math.abs(a - b), `${String(a)} vs ${String(b)}`).toBeLessThan(0.5); };

/** Presses the mouse at (x, y), moves to (x + dx, y + dy) in steps, releases. */
async function mouseDrag(x: number, y: number, dx: number, dy: number): Promise<void> {
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + dy, { steps: 12 });
  await page.mouse.up();
  await settleFrames(page);
}

/** A draft of `pages` letter pages with one field, open in the editor at `zoom`: its id, and CSS pixels per point. */
async function opened(pages: number, field: Record<string, unknown>, zoom: string) {
  const draft = await draftWithEditor(bearer, { pages, fields: [{ signerIndex: 0, page: 1, ...field }] });
  await openEditor(page, draft.url);
  await zoomTo(page, zoom);
  return { draft, scale: await pixelsPerPoint(page, 612), field: await only(draft.id) };
}

describe('dragging a field to another page', () => {
  it('the API\'s field gets the new page and the coordinates where it was dropped', async () => {
    const { draft, scale, field } = await opened(2, { type: 'signature', x: 100, y: 100, w: 160, h: 40 }, '0.5');
    const box = await page.locator(`[data-field-id="${field.id}"]`).boundingBox();
    const second = await sheet(page, 2).boundingBox();
    if (!box || !second) throw new Error('no boxes');
    // Grabbed 20 pt in and 10 pt down from its corner, dropped with that point at (300 pt, 200 pt) on page 2
    const grab = { x: box.x + 20 * scale, y: box.y + 10 * scale };
    const drop = { x: second.x + 300 * scale, y: second.y + 200 * scale };
    await mouseDrag(grab.x, grab.y, drop.x - grab.x, drop.y - grab.y);
    await saved(page);
    const moved = await only(draft.id);
    expect(moved.page).toBe(2);
    near(moved.x, 280);
    near(moved.y, 792 - 190 - 40);
    expect([moved.w, moved.h]).toEqual([160, 40]);
    // It is drawn on page 2 where the API has it
    const shown = await page.locator(`.apage[data-page="2"] [data-field-id="${moved.id}"]`).boundingBox();
    const sheet2 = await sheet(page, 2).boundingBox();
    if (!shown || !sheet2) throw new Error('not on page 2');
    near((shown.x - sheet2.x) / scale, moved.x);
    near(792 - (shown.y - sheet2.y + shown.height) / scale, moved.y);
    mkdirSync('/tmp/editor', { recursive: true });
    await page.screenshot({ path: '/tmp/editor/moved-to-page-2.png' });
  });
});

describe('resizing by each corner', () => {
  it('each handle moves its corner and keeps the opposite one; the page\'s edge stops it', async () => {
    const { draft, scale, field: { id } } = await opened(1, { type: 'text', x: 200, y: 400, w: 150, h: 40 }, '1');
    const el = page.locator(`[data-field-id="${id}"]`);
    await el.scrollIntoViewIfNeeded();
    await el.click();
    const corners: [string, number, number][] = [['nw', -20, -10], ['ne', 30, -10], ['sw', -10, 20], ['se', 15, 5]];
    let expected = { left: 200, right: 350, top: 792 - 440, bottom: 792 - 400 };
    for (const [corner, dx, dy] of corners) {
      const handle = await el.locator(`.afield-handle-${corner}`).boundingBox();
      if (!handle) throw new Error(`no ${corner} handle`);
      await mouseDrag(handle.x + handle.width / 2, handle.y + handle.height / 2, dx * scale, dy * scale);
      expected = {
        left: expected.left + (corner.includes('w') ? dx : 0), right: expected.right + (corner.includes('e') ? dx : 0),
        top: expected.top + (corner.includes('n') ? dy : 0), bottom: expected.bottom + (corner.includes('s') ? dy : 0),
      };
      await saved(page);
      const f = await only(draft.id);
      near(f.x, expected.left);
      near(f.w, expected.right - expected.left);
      near(f.y, 792 - expected.bottom);
      near(f.h, expected.bottom - expected.top);
    }
    await page.screenshot({ path: '/tmp/editor/resized-corners.png' });

    // Dragged far past the page's top-left corner, the corner stops at the page's edge
    const nw = await el.locator('.afield-handle-nw').boundingBox();
    if (!nw) throw new Error('no handle');
    const sheetBox = await sheet(page).boundingBox();
    await mouseDrag(nw.x + nw.width / 2, nw.y + nw.height / 2, -(nw.x - (sheetBox?.x ?? 0)) - 200, -(nw.y - (sheetBox?.y ?? 0)) - 200);
    await saved(page);
    const stopped = await only(draft.id);
    near(stopped.x, 0);
    near(stopped.y + stopped.h, 792);
    near(stopped.x + stopped.w, expected.right);
  });

  it('with the keyboard: C picks the next corner, Alt + arrows move it (Shift: 10 pt), never off the page', async () => {
    const draft = await draftWithEditor(bearer, { pages: 1, fields: [{ signerIndex: 0, type: 'text', page: 1, x: 200, y: 400, w: 150, h: 40 }] });
    await openEditor(page, draft.url);
    const { id } = await only(draft.id);
    await page.locator(`[data-field-id="${id}"]`).focus();
    // Bottom-right first: right and down grow it
    await page.keyboard.press('Alt+Shift+ArrowRight');
    await page.keyboard.press('Alt+ArrowDown');
    await saved(page);
    await expect.poll(async () => { const f = await only(draft.id); return [f.x, f.y, f.w, f.h]; }).toEqual([200, 399, 160, 41]);
    // C, C: the top-left corner; left and up grow it from there
    await page.keyboard.press('c');
    await page.keyboard.press('c');
    expect(await page.getByRole('status').filter({ hasText: 'top-left' }).count()).toBe(1);
    await page.keyboard.press('Alt+Shift+ArrowLeft');
    await page.keyboard.press('Alt+Shift+ArrowUp');
    await saved(page);
    await expect.poll(async () => { const f = await only(draft.id); return [f.x, f.y, f.w, f.h]; }).toEqual([190, 399, 170, 51]);
    // Pressed on and on, the top-left corner stops at the page's top edge
    for (let i = 0; i < 40; i++) await page.keyboard.press('Alt+Shift+ArrowUp');
    await saved(page);
    await expect.poll(async () => { const f = await only(draft.id); return f.y + f.h; }).toBe(792);
  });
});
