/** The console on a 360 px phone, in German, by keyboard: the list, an envelope, and a new envelope made and sent. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axe, contractPdf, summary, unique, useBrowser } from './support.ts';
import { consoleUrl, envelopeStatus, overflow, sentEnvelope, shot, tenantOf, useToken } from './console-support.ts';

let page: Page;
let bearer: string;
let errors: string[];
useBrowser({ width: 360, height: 640, mobile: true }, 'browser console mobile', (session) => {
  page = session.page;
  bearer = session.bearer;
  errors = session.errors;
});

const focusedText = (p: Page) => p.evaluate<string>('(document.activeElement && document.activeElement.textContent || "").trim()');

describe('console at 360 px in German', () => {
  it('reaches an envelope by keyboard alone, with nothing wider than the screen', async () => {
    const tenant = tenantOf('mobile');
    await sentEnvelope(bearer, tenant, 'Arbeitsvertrag Müller', unique('mueller'));
    await useToken(page, bearer);
    await page.addInitScript("sessionStorage.setItem('esign.locale', 'de');");
    await page.goto(consoleUrl(`envelopes?tenant=${tenant}`));
    await page.getByRole('heading', { level: 1, name: 'Umschläge' }).waitFor();
    await page.getByRole('link', { name: 'Arbeitsvertrag Müller' }).waitFor();
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('de');
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await shot(page, 'envelopes-360-de');
    expect(summary(await axe(page))).toEqual([]);

    // The skip link first, then on through the page until the envelope's link, opened with Enter
    await page.keyboard.press('Tab');
    expect(await focusedText(page)).toBe('Zum Inhalt springen');
    for (let i = 0; i < 40 && await focusedText(page) !== 'Arbeitsvertrag Müller'; i++) await page.keyboard.press('Tab');
    expect(await focusedText(page)).toBe('Arbeitsvertrag Müller');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Arbeitsvertrag Müller' }).waitFor();
    // The new screen's heading takes the focus (in an effect, just after the screen is drawn), so a screen reader starts there
    await expect.poll(() => page.evaluate<string>('document.activeElement.tagName')).toBe('H1');
    await expect.poll(() => page.locator('.timeline').innerText()).toContain('hat einen Link zum Unterschreiben erhalten.');
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await shot(page, 'envelope-detail-360-de');
    expect(summary(await axe(page))).toEqual([]);

    // The void dialog opens and closes by keyboard (Escape), focus back in the page
    await page.getByRole('button', { name: 'Umschlag stornieren' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Diesen Umschlag stornieren?' }).waitFor();
    await shot(page, 'void-dialog-360-de');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('makes a new envelope from a PDF, adds signature boxes and sends it', async () => {
    const tenant = tenantOf('mobile-new');
    await page.goto(consoleUrl('envelopes/new'));
    await page.getByRole('heading', { level: 1, name: 'Neuer Umschlag' }).waitFor();
    await page.getByLabel('Mandant').fill(tenant);
    await page.getByLabel('Betreff').fill('Mietvertrag Wohnung 3');
    await page.getByLabel('Dokumente (PDF)').setInputFiles({ name: 'mietvertrag.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await contractPdf({ pages: 2 })) });
    await page.getByLabel('Name von Empfänger 1').fill('Erika Mustermann');
    await page.getByLabel('E-Mail von Empfänger 1').fill(unique('erika'));
    await page.getByRole('button', { name: 'Empfänger hinzufügen' }).click();
    await page.getByLabel('Name von Empfänger 2').fill('Max Mustermann');
    await page.getByLabel('E-Mail von Empfänger 2').fill(unique('max'));
    await page.getByLabel('Schritt von Empfänger 2').fill('2');
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await shot(page, 'new-envelope-360-de');
    expect(summary(await axe(page))).toEqual([]);
    await page.getByRole('button', { name: 'Weiter' }).click();

    await page.getByRole('heading', { level: 1, name: 'Mietvertrag Wohnung 3' }).waitFor();
    await page.getByText('2 Unterzeichner haben noch kein Feld zum Unterschreiben.').waitFor();
    await page.getByRole('button', { name: 'Für jeden Unterzeichner ein Unterschriftsfeld hinzufügen' }).click();
    await page.getByText('Alle Unterzeichner haben ein Feld.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Zur Unterschrift senden' }).click();
    await page.getByText('Der Umschlag wurde gesendet.', { exact: false }).waitFor();
    await shot(page, 'sent-envelope-360-de');
    const id = page.url().split('/').pop() ?? '';
    expect(await envelopeStatus(bearer, id)).toBe('sent');
    expect(errors).toEqual([]);
  });
});
