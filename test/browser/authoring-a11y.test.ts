/**
 * The editor at its narrowest supported width (768 px): German when the URL asks for it, a keyboard-only flow, no
 * axe violations, long headings that wrap; screenshots under /tmp/editor-ui/ (and test-artifacts/browser/).
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.ts';
import { draftWithEditor, fieldsOf, openEditor, saved } from './authoring-support.ts';
import { axe, screenshot, settleFrames, summary, useBrowser } from './support.ts';

let page: Page;
let bearer: string;
useBrowser({ width: 768, height: 1000 }, 'browser authoring a11y', (session) => {
  page = session.page;
  bearer = session.bearer;
});

const SHOTS = '/tmp/editor-ui';

async function shot(name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
  await screenshot(page, name);
}

describe('the editor at 768 px', () => {
  it('in German: a keyboard-only flow places, moves and labels a field; no axe violations', async () => {
    const draft = await draftWithEditor(bearer, { locale: 'de', fields: [{ signerIndex: 0, type: 'signature', page: 1, x: 72, y: 600, w: 160, h: 40 }] });
    await openEditor(page, draft.url);
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    await page.getByRole('heading', { level: 2, name: 'Felder' }).waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    expect(summary(await axe(page))).toEqual([]);
    await shot('editor-768-de');

    // Tab from the recipients to the palette, Enter places a text field in the middle of the page in view
    await page.getByRole('radio', { name: 'Grace Hopper' }).focus();
    await page.keyboard.press('Space');
    let guard = 0;
    while (await page.evaluate('document.activeElement?.dataset?.type ?? null') !== 'text' && guard++ < 20) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await fieldsOf(bearer, draft.id)).length).toBe(2);
    const placed = (await fieldsOf(bearer, draft.id)).find((f) => f.type === 'text');
    expect(placed?.signerId).toBe(draft.signerIds[1]);
    const name = await page.evaluate<string | null>('document.activeElement?.getAttribute("aria-label") ?? null');
    expect(name).toBe('Text für Grace Hopper, Seite 1, Pflichtfeld');
    await page.keyboard.press('Shift+ArrowDown');
    await saved(page);
    await expect.poll(async () => (await fieldsOf(bearer, draft.id)).find((f) => f.type === 'text')?.y).toBeCloseTo((placed?.y ?? 0) - 10, 2);

    await page.getByLabel('Bezeichnung').fill('Firmenname');
    await page.getByLabel('Bezeichnung').press('Tab');
    await expect.poll(async () => (await fieldsOf(bearer, draft.id)).find((f) => f.type === 'text')?.label).toBe('Firmenname');
    await settleFrames(page);
    expect(summary(await axe(page))).toEqual([]);
    await shot('editor-768-de-selected');
  });

  it('overlapping fields are flagged on the page and in text; the details view is accessible and wraps a long subject', async () => {
    const subject = 'Rahmenvertrag über die Erbringung von Dienstleistungen zwischen der Aktiengesellschaft und dem Auftragnehmer';
    const draft = await draftWithEditor(bearer, { mode: 'full', fields: [
      { signerIndex: 0, type: 'text', page: 1, x: 100, y: 600, w: 150, h: 22 },
      { signerIndex: 1, type: 'text', page: 1, x: 180, y: 610, w: 150, h: 22 },
    ] });
    expect((await call('PATCH', `/v1/envelopes/${draft.id}`, { token: bearer, json: { subject } })).status).toBe(200);
    await openEditor(page, draft.url);
    await expect.poll(() => page.locator('.afield.is-overlapping').count()).toBe(2);
    expect(await page.locator('.aoverlaps').innerText()).toContain('2 fields overlap others');
    const title = await page.getByRole('heading', { level: 1 }).boundingBox();
    expect(title?.width ?? 0).toBeLessThanOrEqual(768);
    expect(summary(await axe(page))).toEqual([]);
    await shot('editor-768-overlap');
    await page.getByRole('button', { name: 'Details', exact: true }).click();
    await page.getByLabel('Subject').waitFor();
    expect(summary(await axe(page))).toEqual([]);
    await shot('editor-768-details');
  });
});
