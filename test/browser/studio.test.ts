/**
 * The studio (/_local/studio) in Chromium, narrow and wide: without axe violations, a draft made from a chosen PDF by
 * keyboard lands in the editor (its /author/ URL on the signing host), and the studio then lists it.
 */
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axe, screenshot, summary, useBrowser } from './support.ts';

for (const viewport of [{ width: 360, height: 740 }, { width: 1280, height: 900 }]) {
  let page: Page;
  let errors: string[] = [];
  useBrowser(viewport, `studio ${String(viewport.width)}`, (session) => { page = session.page; errors = session.errors; });

  describe(`the studio at ${String(viewport.width)} px`, () => {
    it('makes a draft from a PDF with the keyboard, opens the editor on it, and lists it', async () => {
      const tenantId = `studio-${randomUUID().slice(0, 8)}`;
      const subject = `Lease ${String(viewport.width)}`;
      await page.goto(`${inject('apiUrl')}/_local/studio?tenantId=${tenantId}`);
      const violations = summary(await axe(page));
      expect(violations, violations.join('; ')).toEqual([]);
      expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      await page.getByLabel('PDF').setInputFiles({ name: 'lease.pdf', mimeType: 'application/pdf', buffer: readFileSync('test/fixtures/sample.pdf') });
      await page.getByLabel('Subject').focus();
      await page.keyboard.type(subject);
      await page.keyboard.press('Tab');
      await page.keyboard.type('Ana Silva');
      await page.keyboard.press('Tab');
      await page.keyboard.type('ana.browser@example.com');
      await screenshot(page, `studio-${String(viewport.width)}`, true);
      await Promise.all([page.waitForURL(/\/author\//, { waitUntil: 'commit' }), page.keyboard.press('Enter')]);
      expect(page.url().startsWith(`${inject('signingUrl')}/author/`)).toBe(true);

      await page.goto(`${inject('apiUrl')}/_local/studio?tenantId=${tenantId}`);
      await expect.poll(() => page.locator('body').innerText()).toContain(subject);
      await Promise.all([page.waitForURL(/\/author\//, { waitUntil: 'commit' }), page.getByRole('button', { name: 'Open the editor', exact: true }).first().click()]);
      expect(errors.filter((e) => !e.includes('/author/'))).toEqual([]);
    }, 90_000);
  });
}
