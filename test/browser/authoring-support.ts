/**
 * Helpers of the editor's browser tests: a draft (or template) with its editor URL, the editor opened in the page,
 * a field type dragged from the palette, and the fields as the API answers them.
 */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { call } from '../support/api.ts';
import { createWithPdf } from '../support/envelopes.ts';
import { contractPdf, settleFrames, unique } from './support.ts';

export interface ApiField {
  id: string; signerId?: string; role?: string; documentId?: string; type: string; page: number; x: number; y: number; w: number; h: number; origin: string;
  label: string | null; required: boolean; readOnly: boolean; value: string | null;
  showIf?: { label: string; equals?: string | null; notEmpty?: boolean } | null; validation?: Record<string, unknown> | null; accept?: string[]; maxBytes?: number;
}
export interface Draft { id: string; url: string; signerIds: string[] }

export interface DraftOptions { pages?: number; rotate?: 0 | 90 | 180 | 270; mode?: 'fields' | 'full'; returnUrl?: string; locale?: string; fields?: Record<string, unknown>[]; signers?: number }

/** A draft envelope of a letter-size PDF (612 x 792 pt) with its editor URL. */
export async function draftWithEditor(bearer: string, options: DraftOptions = {}): Promise<Draft> {
  const pdf = await contractPdf({ pages: options.pages ?? 2, ...(options.rotate ? { rotate: options.rotate } : {}) });
  const signers = Array.from({ length: options.signers ?? 2 }, (_, i) => ({ name: ['Ada Lovelace', 'Grace Hopper', 'Alan Turing'][i] ?? `Signer ${String(i)}`, email: unique(`author${String(i)}`), routingOrder: i + 1, authMethod: 'none' }));
  const created = await createWithPdf(bearer, { tenantId: 'browser', subject: 'Service agreement', signers, fields: options.fields ?? [] }, pdf);
  if (created.status !== 201) throw new Error(`create: ${String(created.status)} ${JSON.stringify(created.body)}`);
  const issued = await call<{ url: string }>('POST', `/v1/envelopes/${created.body.id}/authoring-url`, {
    token: bearer, json: { mode: options.mode ?? 'fields', ...(options.returnUrl ? { returnUrl: options.returnUrl } : {}), ...(options.locale ? { locale: options.locale } : {}) },
  });
  if (issued.status !== 200) throw new Error(`authoring-url: ${String(issued.status)} ${JSON.stringify(issued.body)}`);
  return { id: created.body.id, url: issued.body.url, signerIds: created.body.signers.map((s) => s.id) };
}

export async function fieldsOf(bearer: string, envelopeId: string): Promise<ApiField[]> {
  const res = await call<{ fields: ApiField[] }>('GET', `/v1/envelopes/${envelopeId}`, { token: bearer });
  if (res.status !== 200) throw new Error(`get: ${String(res.status)}`);
  return res.body.fields;
}

/** Opens the editor and waits for its first page to be drawn. */
export async function openEditor(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.locator('.apage-canvas[data-drawn]').first().waitFor();
}

/** Picks a zoom in the bar ("1" is 100 %, "fit" the page's width) and waits for the pages to take it. */
export async function zoomTo(page: Page, value: string): Promise<void> {
  await page.getByLabel('Zoom').selectOption(value);
  await settleFrames(page);
}

export const sheet = (page: Page, n = 1) => page.locator(`.apage[data-page="${String(n)}"] .asheet`);

/** CSS pixels per point on page n, from the sheet's width and the page's width as shown (`shownWidth` pt). */
export async function pixelsPerPoint(page: Page, shownWidth: number, n = 1): Promise<number> {
  const box = await sheet(page, n).boundingBox();
  if (!box) throw new Error('no sheet');
  return box.width / shownWidth;
}

/** Drags a palette item with the mouse and drops it at (px, py) CSS pixels from page n's top-left corner. */
export async function dragFromPalette(page: Page, type: string, px: number, py: number, n = 1): Promise<void> {
  const item = page.locator(`.apalette-item[data-type="${type}"]`);
  const from = await item.boundingBox();
  await sheet(page, n).scrollIntoViewIfNeeded();
  const to = await sheet(page, n).boundingBox();
  if (!from || !to) throw new Error('nothing to drag');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + px, to.y + py, { steps: 8 });
  await page.mouse.up();
  await settleFrames(page);
}

/** Drags a locator by (dx, dy) CSS pixels, grabbing it at (gx, gy) from its top-left corner. */
export async function dragBy(page: Page, target: Locator, dx: number, dy: number, grab: [number, number] = [10, 10]): Promise<void> {
  const box = await target.boundingBox();
  if (!box) throw new Error('nothing to drag');
  await page.mouse.move(box.x + grab[0], box.y + grab[1]);
  await page.mouse.down();
  await page.mouse.move(box.x + grab[0] + dx, box.y + grab[1] + dy, { steps: 8 });
  await page.mouse.up();
  await settleFrames(page);
}

/** Waits until every change is saved. */
export async function saved(page: Page): Promise<void> {
  await expect.poll(() => page.locator('.asave').getAttribute('class')).toContain('asave-saved');
}
