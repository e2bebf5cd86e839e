/**
 * The signing page's header in the envelope's branding on a 360 px phone: the logo (served by the signing host),
 * the organisation's name, its colour with the text colour picked for contrast; a German signer sees the same.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call } from '#test/support/api.ts';
import { axe, contractPdf, screenshot, sendEnvelope, summary, unique, useBrowser } from './support.ts';

let bearer: string;
let page: Page;
let errors: string[];

useBrowser({ width: 360, height: 740, mobile: true }, 'browser branding', (session) => { ({ page, bearer, errors } = session); });

const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 40"><rect width="120" height="40" rx="8" fill="#1f2937"/>
<circle cx="20" cy="20" r="12" fill="#ffd400"/><text x="40" y="27" font-family="sans-serif" font-size="18" font-weight="700" fill="#ffffff">ACME</text></svg>`;
const OUT = '/tmp/branding';

interface Shown { background: string; color: string; name: string | null; logoLoaded: boolean; logoHeight: number; overflow: boolean }

/** What the header shows, read in the page (a script string: the test's own types know no DOM). */
const header = (p: Page) => p.evaluate<Shown>(`(() => {
  const el = document.querySelector('.site-header');
  const logo = document.querySelector('.site-header img.brand-logo');
  const style = getComputedStyle(el);
  return {
    background: style.backgroundColor, color: style.color, name: document.querySelector('.site-name')?.textContent ?? null,
    logoLoaded: Boolean(logo && logo.complete && logo.naturalWidth > 0), logoHeight: logo ? logo.getBoundingClientRect().height : 0,
    overflow: document.documentElement.scrollWidth > window.innerWidth,
  };
})()`);

describe('the branded signing page header at 360 px', { timeout: 120_000 }, () => {
  it('shows the logo, the organisation and its colour with readable text, in English and in German', async () => {
    mkdirSync(OUT, { recursive: true });
    const put = await call('PUT', '/v1/console/branding', { token: bearer, json: {
      organizationName: 'Acme Corp', primaryColor: '#ffd400', emailFromName: 'Acme Corp', logo: `data:image/svg+xml;base64,${Buffer.from(LOGO).toString('base64')}`,
    } });
    expect(put.status).toBe(200);
    for (const locale of ['en', 'de'] as const) {
      const { links } = await sendEnvelope(bearer, {
        tenantId: 'branded', subject: 'Supply agreement', sender: { name: 'Jane Doe', email: 'jane@acme.example' },
        signers: [{ name: 'Sam Signer', email: unique(`brand-${locale}`), authMethod: 'none', locale }],
        fields: [{ signerIndex: 0, type: 'signature', page: 1, x: 72, y: 72, w: 180, h: 40 }],
      }, await contractPdf({ pages: 1 }));
      await page.goto(links[0] ?? '');
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.locator('img.brand-logo').waitFor();
      await expect.poll(async () => (await header(page)).logoLoaded).toBe(true);
      const shown = await header(page);
      expect(shown).toMatchObject({ background: 'rgb(255, 212, 0)', color: 'rgb(0, 0, 0)', name: 'Acme Corp', logoLoaded: true, overflow: false });
      expect(shown.logoHeight).toBe(32);
      expect(await page.locator('html').getAttribute('lang')).toMatch(new RegExp(`^${locale}`));
      await page.screenshot({ path: `${OUT}/signing-header-360-${locale}.png` });
      await screenshot(page, `branding-header-360-${locale}`);
      const violations = summary(await axe(page));
      expect(violations, violations.join("; ")).toEqual([]);
    }
    expect(errors).toEqual([]);
  });
});
