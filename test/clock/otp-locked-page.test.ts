/**
 * The signing page's locked screen on a 360 px phone: a link one wrong code short of its budget (spent over HTTP, the
 * service clock moving past the rate windows: a clock test) is locked by the signer's next wrong code on the page,
 * which then explains it in plain words, in English and, through the language switch, in German, also on reload.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { guessWrongCodes, latestCode, settle } from '#test/support/signing.ts';
import { axe, contractPdf, screenshot, sendEnvelope, unique, useBrowser } from '../browser/support.ts';

let bearer: string;
let page: Page;
let errors: string[];

useBrowser({ width: 360, height: 740, mobile: true }, 'browser otp lock', (session) => { ({ page, bearer, errors } = session); });

const overflows = (p: Page) => p.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth');

describe('a signing link locked after too many one-time codes', { timeout: 180_000 }, () => {
  it('shows the locked screen when the last wrong code is entered, in English and in German', async () => {
    const email = unique('locked');
    const { tokens, links } = await sendEnvelope(bearer, {
      tenantId: 'otp-lock', subject: 'Tenancy agreement', createdBy: unique('sender'),
      signers: [{ name: 'Lee Park', email }], fields: [{ signerIndex: 0, type: 'signature', page: 1, x: 72, y: 72, w: 200, h: 50 }],
    }, await contractPdf({ pages: 1 }));
    const spent = await guessWrongCodes(tokens[0] ?? '', email, 49);
    expect(spent).toEqual({ wrong: 49, refused: null });
    await settle(601, false);

    await page.goto(links[0] ?? '');
    await page.getByRole('heading', { level: 1, name: 'Confirm it’s you' }).waitFor();
    await page.getByRole('button', { name: 'Email me a code' }).tap();
    await page.getByText(/We sent a 6-digit code/).waitFor();
    const right = await latestCode(email);
    await page.getByRole('textbox', { name: '6-digit code' }).fill(String((Number(right) + 1) % 1_000_000).padStart(6, '0'));
    await page.getByRole('button', { name: 'Verify code' }).tap();

    await page.getByRole('heading', { level: 1, name: 'This signing link is locked' }).waitFor();
    const problem = page.locator('[data-problem="locked"]');
    expect(await problem.innerText()).toContain('Ask the sender to send you a new signing link');
    expect(await page.title()).toContain('Link locked');
    expect(await overflows(page)).toBe(false);
    expect((await axe(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await screenshot(page, 'otp-locked-en-360', true);

    await page.getByRole('combobox', { name: 'Language' }).selectOption('de');
    await page.getByRole('heading', { level: 1, name: 'Dieser Signaturlink ist gesperrt' }).waitFor();
    expect(await problem.innerText()).toContain('Bitten Sie den Absender, Ihnen einen neuen Signaturlink zu senden');
    expect(await overflows(page)).toBe(false);
    await screenshot(page, 'otp-locked-de-360', true);

    // Opening the link again: the context itself answers otp_locked, the chosen language stays
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Dieser Signaturlink ist gesperrt' }).waitFor();
    expect(errors).toEqual([]);
  });
});
