/**
 * The signing page in the signer's language (decision 39) on a 360 px phone: a German signer's page opens in German;
 * the switch changes it (Arabic lays out right to left without sideways scrolling) and the choice lasts the session.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axe, contractPdf, screenshot, sendEnvelope, unique, useBrowser } from './support.ts';

let bearer: string;
let page: Page;
let errors: string[];

useBrowser({ width: 360, height: 740, mobile: true }, 'browser language', (session) => { ({ page, bearer, errors } = session); });

const overflows = (p: Page) => p.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth');
const root = (p: Page) => p.evaluate<{ lang: string; dir: string }>('({ lang: document.documentElement.lang, dir: document.documentElement.dir })');

describe('the signing page in the signer’s language', { timeout: 120_000 }, () => {
  it('opens in German for a German signer, switches to Arabic (right to left) and Japanese, and keeps the choice', async () => {
    const { links } = await sendEnvelope(bearer, {
      tenantId: 'language', subject: 'Mietvertrag',
      signers: [{ name: 'Jana Müller', email: unique('de'), authMethod: 'none', locale: 'de' }],
      fields: [{ signerIndex: 0, type: 'signature', page: 1, x: 72, y: 72, w: 200, h: 50 }],
    }, await contractPdf({ pages: 1 }));
    // The browser asks for British English: the signer's locale wins
    await page.goto(links[0] ?? '');
    await page.getByRole('heading', { level: 1, name: 'Der elektronischen Signatur zustimmen' }).waitFor();
    expect(await root(page)).toEqual({ lang: 'de', dir: 'ltr' });
    expect(await page.title()).toContain('Sichere elektronische Signatur');
    await expect.poll(() => page.locator('.skip-link').textContent()).toBe('Zum Inhalt springen');
    const select = page.getByRole('combobox', { name: 'Sprache' });
    expect(await select.inputValue()).toBe('de');
    await screenshot(page, 'language-de-360');

    await select.selectOption('ar');
    await page.getByRole('heading', { level: 1, name: 'الموافقة على التوقيع إلكترونيًا' }).waitFor();
    expect(await root(page)).toEqual({ lang: 'ar', dir: 'rtl' });
    expect(await overflows(page)).toBe(false);
    // Right to left: the header's switch sits at the left edge, the consent button's text is right-aligned
    const box = await page.getByRole('combobox', { name: 'اللغة' }).boundingBox();
    expect(box?.x ?? 999).toBeLessThan(60);
    await screenshot(page, 'language-ar-360');
    expect((await axe(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

    // The document step right to left: the page's own layout mirrors, the PDF page does not; nothing scrolls sideways
    await page.getByRole('checkbox', { name: /أوافق على استخدام السجلات الإلكترونية/ }).check();
    await page.getByRole('button', { name: 'المتابعة إلى المستند' }).click();
    await page.getByRole('heading', { level: 1, name: 'Mietvertrag' }).waitFor();
    await page.locator('.page-canvas').first().waitFor();
    await page.getByRole('button', { name: 'ابدأ' }).waitFor();
    expect(await overflows(page)).toBe(false);
    await screenshot(page, 'language-ar-document-360');

    await page.getByRole('combobox', { name: 'اللغة' }).selectOption('ja');
    await page.getByRole('button', { name: '開始' }).waitFor();
    expect(await root(page)).toEqual({ lang: 'ja', dir: 'ltr' });
    // The choice outlives a reload in the same session, over the signer's own German
    await page.reload();
    await page.getByRole('button', { name: '開始' }).waitFor();
    expect(await page.getByRole('combobox', { name: '言語' }).inputValue()).toBe('ja');
    expect(errors).toEqual([]);
  });
});
