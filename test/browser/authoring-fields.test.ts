/**
 * The sender's editor against the local stack: what the page shows and what the API stores agree within half a
 * point, at 100 % and 150 % and on a page turned by /Rotate 90; placing, moving, resizing, deleting and undoing.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dragBy, dragFromPalette, draftWithEditor, fieldsOf, openEditor, pixelsPerPoint, saved, sheet, zoomTo } from './authoring-support.ts';
import { settleFrames, useBrowser } from './support.ts';

let page: Page;
let bearer: string;
useBrowser({ width: 1280, height: 900 }, 'browser authoring fields', (session) => {
  page = session.page;
  bearer = session.bearer;
});

const only = async (envelopeId: string) => {
  const fields = await fieldsOf(bearer, envelopeId);
  expect(fields).toHaveLength(1);
  const [field] = fields;
  if (!field) throw new Error('no field');
  return field;
};

describe('placing fields where the API keeps them', () => {
  for (const [zoom, label] of [['1', '100 %'], ['1.5', '150 %']] as const) {
    it(`a field dragged from the palette at ${label} lands where it was dropped, in PDF points`, async () => {
      const draft = await draftWithEditor(bearer);
      await openEditor(page, draft.url);
      await zoomTo(page, zoom);
      const scale = await pixelsPerPoint(page, 612);
      expect(scale).toBeCloseTo(Number(zoom) * (96 / 72), 2);
      // Dropped with its centre at (250 pt, 300 pt) from the top-left corner: the default signature box is 160 x 40 pt
      await dragFromPalette(page, 'signature', 250 * scale, 300 * scale);
      await expect.poll(async () => (await fieldsOf(bearer, draft.id)).length).toBe(1);
      const field = await only(draft.id);
      expect(field).toMatchObject({ type: 'signature', page: 1, origin: 'bottom-left', signerId: draft.signerIds[0] });
      expect(Math.abs(field.x - 170)).toBeLessThan(0.5);
      expect(Math.abs(field.y - (792 - 300 - 20))).toBeLessThan(0.5);

      // The box on screen is the API's box scaled
      const box = await page.locator(`[data-field-id="${field.id}"]`).boundingBox();
      const origin = await sheet(page).boundingBox();
      if (!box || !origin) throw new Error('no box');
      expect(Math.abs((box.x - origin.x) / scale - field.x)).toBeLessThan(0.5);
      expect(Math.abs(792 - (box.y - origin.y + box.height) / scale - field.y)).toBeLessThan(0.5);
      expect(Math.abs(box.width / scale - field.w)).toBeLessThan(0.5);

      // Moved with the mouse by (60 pt, 30 pt) right and down
      await dragBy(page, page.locator(`[data-field-id="${field.id}"]`), 60 * scale, 30 * scale, [40, 15]);
      await expect.poll(async () => (await only(draft.id)).x).toBeCloseTo(230, 0);
      const moved = await only(draft.id);
      expect(Math.abs(moved.x - 230)).toBeLessThan(0.5);
      expect(Math.abs(moved.y - (field.y - 30))).toBeLessThan(0.5);
      mkdirSync('/tmp/editor-ui', { recursive: true });
      await page.screenshot({ path: `/tmp/editor-ui/editor-1280-zoom-${zoom}.png` });
    });
  }

  it('on a page turned by /Rotate 90 the field is placed on the page as shown (792 x 612 pt)', async () => {
    const draft = await draftWithEditor(bearer, { rotate: 90, pages: 1 });
    await openEditor(page, draft.url);
    await zoomTo(page, '1');
    const box = await sheet(page).boundingBox();
    if (!box) throw new Error('no sheet');
    expect(box.width / box.height).toBeCloseTo(792 / 612, 2);
    const scale = await pixelsPerPoint(page, 792);
    await dragFromPalette(page, 'text', 400 * scale, 200 * scale);
    await expect.poll(async () => (await fieldsOf(bearer, draft.id)).length).toBe(1);
    const field = await only(draft.id);
    // The default text box is 160 x 22 pt
    expect(Math.abs(field.x - (400 - 80))).toBeLessThan(0.5);
    expect(Math.abs(field.y - (612 - 200 - 11))).toBeLessThan(0.5);
  });
});

describe('editing fields', () => {
  it('click to place, move with the keyboard (Shift = 10 pt), resize, delete and undo', async () => {
    const draft = await draftWithEditor(bearer);
    await openEditor(page, draft.url);
    await zoomTo(page, '1');
    const scale = await pixelsPerPoint(page, 612);

    // Click-to-place: the palette item, then the page
    await page.getByRole('button', { name: 'Date', exact: true }).click();
    expect(await page.getByRole('button', { name: 'Date', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await sheet(page).click({ position: { x: 300 * scale, y: 400 * scale } });
    await expect.poll(async () => (await fieldsOf(bearer, draft.id)).length).toBe(1);
    const placed = (await fieldsOf(bearer, draft.id))[0];
    if (!placed) throw new Error('not placed');
    expect(placed.type).toBe('date');
    expect(Math.abs(placed.x - (300 - 55))).toBeLessThan(0.5);

    // The new field has the focus: arrows move it 1 pt, with Shift 10 pt
    const field = page.locator(`[data-field-id="${placed.id}"]`);
    await expect.poll(() => page.evaluate('document.activeElement?.dataset?.fieldId ?? null')).toBe(placed.id);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Shift+ArrowUp');
    await saved(page);
    await expect.poll(async () => (await fieldsOf(bearer, draft.id))[0]?.x).toBeCloseTo(placed.x + 11, 2);
    expect((await fieldsOf(bearer, draft.id))[0]?.y).toBeCloseTo(placed.y + 10, 2);

    // Alt + arrows resize it
    await page.keyboard.press('Alt+Shift+ArrowRight');
    await expect.poll(async () => (await fieldsOf(bearer, draft.id))[0]?.w).toBeCloseTo(placed.w + 10, 2);

    // The handle resizes it with the mouse
    await dragBy(page, field.locator('.afield-handle-se'), 30 * scale, 8 * scale, [6, 6]);
    await expect.poll(async () => (await fieldsOf(bearer, draft.id))[0]?.w).toBeCloseTo(placed.w + 40, 0);

    // Delete, then undo brings it back (with a new id), redo removes it again
    await field.focus();
    await page.keyboard.press('Delete');
    await expect.poll(async () => (await fieldsOf(bearer, draft.id)).length).toBe(0);
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await fieldsOf(bearer, draft.id)).length).toBe(1);
    expect((await fieldsOf(bearer, draft.id))[0]?.type).toBe('date');
    await page.getByRole('button', { name: 'Redo' }).click();
    await expect.poll(async () => (await fieldsOf(bearer, draft.id)).length).toBe(0);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(async () => (await fieldsOf(bearer, draft.id)).length).toBe(1);
    await settleFrames(page);
  });

  it('Enter on a palette item places it in the middle of the page in view, for the chosen recipient', async () => {
    const draft = await draftWithEditor(bearer);
    await openEditor(page, draft.url);
    await page.getByRole('radio', { name: 'Grace Hopper' }).check();
    await page.getByRole('button', { name: 'Checkbox', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await fieldsOf(bearer, draft.id)).length).toBe(1);
    const field = (await fieldsOf(bearer, draft.id))[0];
    expect(field).toMatchObject({ type: 'checkbox', page: 1, signerId: draft.signerIds[1] });
    expect(Math.abs((field?.x ?? 0) + 8 - 306)).toBeLessThan(0.5);
    expect(Math.abs((field?.y ?? 0) + 8 - 396)).toBeLessThan(0.5);
  });

  it('a change the API refuses is taken back on screen and its message shown', async () => {
    const draft = await draftWithEditor(bearer, { fields: [{ signerIndex: 0, type: 'text', page: 1, x: 100, y: 100, w: 120, h: 20 }] });
    await openEditor(page, draft.url);
    const [field] = await fieldsOf(bearer, draft.id);
    if (!field) throw new Error('no field');
    // The service refuses the next change (as it would a concurrent edit), in the API's error shape
    await page.route('**/v1/envelopes/*/fields/*', (route) => route.fulfill({
      status: 409, contentType: 'application/json', body: JSON.stringify({ error: 'conflict', reason: null, message: 'The envelope was changed by another request', errors: {} }),
    }), { times: 1 });
    const box = page.locator(`[data-field-id="${field.id}"]`);
    await box.scrollIntoViewIfNeeded();
    const before = await box.boundingBox();
    await box.focus();
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(() => page.locator('.asave').innerText()).toContain('The envelope was changed by another request');
    await settleFrames(page);
    expect(await box.boundingBox()).toEqual(before);
    expect((await fieldsOf(bearer, draft.id))[0]?.x).toBe(100);
  });
});
