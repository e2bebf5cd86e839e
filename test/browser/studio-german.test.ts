/**
 * The studio in German: chosen from the browser's languages (Accept-Language) as the pages choose theirs, or picked
 * in its switch; at the editor's narrowest width without axe violations; the editor it opens speaks German too.
 * The language rule itself (studioLocale) is checked without a browser.
 */
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { studioLocale } from '../../local/studio.ts';
import { axe, screenshot, summary, useBrowser } from './support.ts';

let page: Page;
useBrowser({ width: 768, height: 1000 }, 'studio german', (session) => { page = session.page; });

describe('the studio\'s language', () => {
  it('is the one picked, else the browser\'s first language with a catalogue, else English', () => {
    expect(studioLocale('fr', 'de-DE,de;q=0.9')).toBe('fr');
    expect(studioLocale(null, 'de-DE,de;q=0.9,en;q=0.8')).toBe('de');
    expect(studioLocale(null, 'sv;q=1, pt-BR;q=0.5, ja;q=0.7')).toBe('ja');
    expect(studioLocale('xx', 'sv, fi')).toBe('en');
    expect(studioLocale(undefined, undefined)).toBe('en');
  });

  it('in German from Accept-Language: the page, a draft made there, and the editor it opens', async () => {
    // A browser set to German (its requests' Accept-Language and navigator.languages)
    const session = await page.context().newCDPSession(page);
    await session.send('Network.enable');
    await session.send('Network.setUserAgentOverride', { userAgent: await page.evaluate<string>('navigator.userAgent'), acceptLanguage: 'de-DE,de;q=0.9,en;q=0.5' });
    const tenantId = `studio-de-${randomUUID().slice(0, 8)}`;
    await page.goto(`${inject('apiUrl')}/_local/studio?tenantId=${tenantId}`);
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    await page.getByRole('heading', { level: 1, name: 'Absender-Studio' }).waitFor();
    expect(await page.locator('body').innerText()).toContain('Noch keine Entwürfe.');
    const violations = summary(await axe(page));
    expect(violations, violations.join('; ')).toEqual([]);
    await screenshot(page, 'studio-768-de', true);
    await page.screenshot({ path: '/tmp/editor/studio-768-de.png', fullPage: true });

    await page.getByLabel('PDF-Datei').setInputFiles({ name: 'miete.pdf', mimeType: 'application/pdf', buffer: readFileSync('test/fixtures/sample.pdf') });
    await page.getByLabel('Betreff').fill('Mietvertrag');
    await page.getByLabel('Name der unterzeichnenden Person').fill('Ana Silva');
    await page.getByLabel('E-Mail der unterzeichnenden Person').fill('ana.studio@example.com');
    await Promise.all([page.waitForURL(/\/author\//), page.getByRole('button', { name: 'Erstellen und den Editor öffnen' }).click()]);
    await page.getByRole('button', { name: 'Fertig', exact: true }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toMatch(/^de\b/);

    // Done comes back to the studio, still in German, and it lists the draft
    await Promise.all([page.waitForURL(/\/_local\/studio/), page.getByRole('button', { name: 'Fertig', exact: true }).click()]);
    await expect.poll(() => page.locator('[role="status"]').innerText()).toBe('Gespeichert.');
    expect(await page.locator('body').innerText()).toContain('Mietvertrag');
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
  }, 90_000);

  it('picked in its switch, over the browser\'s language', async () => {
    await page.goto(`${inject('apiUrl')}/_local/studio?lang=de`);
    await page.getByLabel('Sprache').selectOption('fr');
    await Promise.all([page.waitForURL(/lang=fr/), page.getByRole('button', { name: 'Anzeigen' }).first().click()]);
    expect(await page.locator('html').getAttribute('lang')).toBe('fr');
    await page.getByRole('heading', { level: 1, name: 'Studio d’envoi' }).waitFor();
  });
});
