/**
 * The signing page at 360 px with a finger: every control can be hit anywhere in a 44 x 44 px square around its
 * centre (the elements under the points are probed, so enlarged hit areas count and covered ones do not), on every
 * screen from the code to the done screen and in another language. One press of "Start"/"Next field" opens the
 * field's editor; what a screen reader hears counts the fields as the bar shows them; the last signer is told the
 * envelope is completed; the tab has an icon; the local mailbox does not scroll sideways.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiUrl } from '#test/support/api.ts';
import { latestCode } from '#test/support/signing.ts';
import { axe, contractPdf, drawWithTouch, focusedField, screenshot, sendEnvelope, signingUrl, summary, unique, useBrowser } from './support.ts';

let bearer: string;
let page: Page;
let errors: string[];

useBrowser({ width: 360, height: 740, mobile: true }, 'browser tap targets', (session) => { ({ page, bearer, errors } = session); });

/** A tap right after touch input sent through DevTools is sometimes swallowed on a loaded machine: tap again, as a person would. */
async function tapUntilClosed(dialog: Locator, button: Locator): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await button.tap();
    try {
      await dialog.waitFor({ state: 'detached', timeout: 5_000 });
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

/** Wider than the phone: a phone's layout viewport grows with the content, so the width is compared with 360 px itself. */
const overflows = (p: Page) => p.evaluate<boolean>('document.documentElement.scrollWidth > 360');

/**
 * Every visible control whose 44 x 44 px square around its centre is not all its own: a label counts as part of its
 * input, and a control that takes no pointer events is measured by its label.
 */
const PROBE = `(() => {
  const HALF = 21.5;
  // Behind an open dialog the page is inert: only the dialog's controls can be tapped
  const scope = document.querySelector('dialog[open]') ?? document;
  const controls = [...scope.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary')]
    .filter((el) => !el.closest('[hidden], .visually-hidden') && !el.classList.contains('skip-link') && el.getClientRects().length > 0);
  const misses = [];
  for (const el of controls) {
    const labels = el.labels ? [...el.labels] : [];
    const own = getComputedStyle(el).pointerEvents === 'none' ? [] : [el];
    const parts = [...own, ...labels].filter((p) => p.getClientRects().length > 0);
    if (parts.length === 0) continue;
    el.scrollIntoView({ block: 'center', inline: 'center' });
    // The square may be centred on the control or on one of its labels: whichever is the larger target
    let missed = [];
    for (const centre of parts) {
      const r = centre.getBoundingClientRect();
      const cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2;
      const here = [];
      for (const dx of [-HALF, 0, HALF]) for (const dy of [-HALF, 0, HALF]) {
        const hit = document.elementFromPoint(cx + dx, cy + dy);
        if (!hit || !parts.some((p) => p.contains(hit))) here.push(dx + ',' + dy + ':' + (hit ? hit.tagName + '.' + hit.className : 'none'));
      }
      if (here.length === 0) { missed = []; break; }
      if (missed.length === 0 || here.length < missed.length) missed = here;
    }
    if (missed.length > 0) {
      const name = el.getAttribute('aria-label') || el.textContent.trim() || el.dataset.fieldId || el.tagName;
      const r = el.getBoundingClientRect();
      misses.push(name.slice(0, 60) + ' (' + Math.round(r.width) + 'x' + Math.round(r.height) + ') missed ' + missed.join(' '));
    }
  }
  window.scrollTo(0, 0);
  return misses;
})()`;
const smallTargets = (p: Page) => p.evaluate<string[]>(PROBE);
const fieldNames = (p: Page) => p.evaluate<string[]>("[...document.querySelectorAll('.field-button, .field-check')].map((e) => e.getAttribute('aria-label') ?? '')");

/** Small fields, spaced so their enlarged hit areas do not overlap: each is a few millimetres on a phone. */
const TINY_FIELDS = [
  { signerIndex: 0, type: 'text', page: 1, x: 72, y: 660, w: 90, h: 12 },
  { signerIndex: 0, type: 'checkbox', page: 1, x: 300, y: 660, w: 9, h: 9 },
  { signerIndex: 0, type: 'signature', page: 1, x: 72, y: 520, w: 70, h: 16 },
  { signerIndex: 0, type: 'initial', page: 1, x: 300, y: 520, w: 18, h: 12 },
  { signerIndex: 0, type: 'date', page: 1, x: 72, y: 380, w: 60, h: 12 },
  { signerIndex: 0, type: 'text', page: 1, x: 300, y: 380, w: 60, h: 12, required: false },
];

describe('the signing page at 360 px: tap targets, one-tap fields, what is announced', { timeout: 240_000 }, () => {
  it('gives every control a 44 x 44 px target from the code to the done screen, and opens the next field in one tap', async () => {
    const email = unique('thumb');
    const { links } = await sendEnvelope(bearer, {
      tenantId: 'taps', subject: 'Tenancy renewal', signers: [{ name: 'Tomás Oyelaran', email, authMethod: 'email_otp' }], fields: TINY_FIELDS,
    }, await contractPdf({ pages: 1 }));

    await page.goto(links[0] ?? '');
    await page.getByRole('button', { name: 'Email me a code' }).waitFor();
    // The tab's icon comes from the signing host itself
    const icon = await page.evaluate<string>("document.querySelector('link[rel=icon]')?.href ?? ''");
    expect(icon).toBe(`${signingUrl()}/favicon.svg`);
    const served = await fetch(icon);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/svg+xml');
    expect(await served.text()).toMatch(/^<svg /);
    expect(await smallTargets(page)).toEqual([]);
    await page.getByRole('button', { name: 'Email me a code' }).tap();
    const code = page.getByLabel('6-digit code');
    await code.waitFor();
    expect(await smallTargets(page)).toEqual([]);
    await screenshot(page, 't01-code');
    await code.fill(await latestCode(email));
    await page.getByRole('button', { name: 'Verify code' }).tap();

    await page.getByRole('heading', { level: 1, name: 'Agree to sign electronically' }).waitFor();
    expect(await smallTargets(page)).toEqual([]);
    await page.getByText('I agree to use electronic records').tap();
    await page.getByRole('button', { name: 'Continue to the document' }).tap();

    await page.locator('.sheet.is-rendered').waitFor();
    expect(await overflows(page)).toBe(false);
    expect(await smallTargets(page)).toEqual([]);
    await screenshot(page, 't02-document', true);
    expect(summary(await axe(page))).toEqual([]);

    // What is heard agrees with what is shown: the bar counts 4 required fields, and so do the fields' names
    expect(await page.locator('#progress').textContent()).toBe('0 of 4 required fields done');
    const names = await fieldNames(page);
    const required = names.filter((n) => n.includes(', required'));
    expect(required).toHaveLength(4);
    for (const name of required) expect(name).toMatch(/ \d of 4, required/);
    expect(names.filter((n) => n.includes(', optional'))).toEqual([expect.stringMatching(/ 1 of 1, optional/) as unknown]);

    // One tap on Start opens the first field in reading order (the text field at the top) in its dialog
    await page.getByRole('button', { name: /^Start/ }).tap();
    const text = page.getByRole('dialog', { name: 'Fill in the text field' });
    await text.waitFor();
    expect(await smallTargets(page)).toEqual([]);
    await screenshot(page, 't03-text-dialog');
    await text.getByRole('textbox').fill('Flat 3');
    await tapUntilClosed(text, text.getByRole('button', { name: 'Done' }));
    await expect.poll(() => page.locator('#progress').textContent()).toBe('1 of 4 required fields done');
    await expect.poll(() => page.locator('#announcer').textContent()).toBe('Done. Next: checkbox on page 1.');

    // The checkbox is ticked where it is: Next takes focus to it, and a tap on it ticks it
    await page.getByRole('button', { name: /^Next field/ }).tap();
    const box = page.locator('input.field-check');
    await expect.poll(() => focusedField(page)).toBe(await box.getAttribute('data-field-id'));
    await box.tap();
    await expect.poll(() => page.locator('#progress').textContent()).toBe('2 of 4 required fields done');

    // One tap on Next field opens the signature's dialog
    await page.getByRole('button', { name: /^Next field/ }).tap();
    const signature = page.getByRole('dialog', { name: 'Add your signature' });
    await signature.waitFor();
    expect(await smallTargets(page)).toEqual([]);
    await screenshot(page, 't04-signature-dialog');
    await drawWithTouch(page, signature.locator('canvas.pad'));
    await tapUntilClosed(signature, signature.getByRole('button', { name: 'Sign', exact: true }));
    await expect.poll(() => page.locator('#progress').textContent()).toBe('3 of 4 required fields done');

    // By keyboard: one key press on Next field opens the initials' dialog too
    await page.getByRole('button', { name: /^Next field/ }).focus();
    await page.keyboard.press('Enter');
    const initials = page.getByRole('dialog', { name: 'Add your initials' });
    await initials.waitFor();
    await initials.getByText('Type', { exact: true }).tap();
    expect(await smallTargets(page)).toEqual([]);
    await tapUntilClosed(initials, initials.getByRole('button', { name: 'Add initials' }));
    await expect.poll(() => page.locator('#progress').textContent()).toBe('All required fields are done. Select Finish to sign.');
    const filled = await fieldNames(page);
    for (const name of filled.filter((n) => n.includes(', required'))) expect(name).toMatch(/ \d of 4, required/);

    await page.getByRole('button', { name: 'Finish' }).tap();
    await page.locator('[data-done="signed"]').waitFor();
    // The only signer was the last: the envelope is completed for them now, though sealing runs after
    expect(await page.locator('[data-done="signed"]').innerText()).toContain('Completed. Everyone has signed');
    expect(await smallTargets(page)).toEqual([]);
    await screenshot(page, 't05-done');
    expect(summary(await axe(page))).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('keeps the targets in German, and the local mailbox wraps long links at 360 px', async () => {
    const email = unique('daumen');
    const { links } = await sendEnvelope(bearer, {
      tenantId: 'taps', subject: 'Mietvertragsverlängerung', signers: [{ name: 'Jana Müller', email, authMethod: 'none', locale: 'de' }], fields: TINY_FIELDS,
    }, await contractPdf({ pages: 1 }));
    await page.goto(links[0] ?? '');
    await page.getByRole('heading', { level: 1, name: 'Der elektronischen Signatur zustimmen' }).waitFor();
    expect(await smallTargets(page)).toEqual([]);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Weiter zum Dokument' }).tap();
    await page.locator('.sheet.is-rendered').waitFor();
    // The subject is one long compound word: it wraps instead of widening the page
    await expect.poll(() => overflows(page)).toBe(false);
    expect(await smallTargets(page)).toEqual([]);
    await screenshot(page, 't06-document-de', true);
    expect(summary(await axe(page))).toEqual([]);
    await page.locator('.button-next').tap(); // "Start", in German
    await page.getByRole('dialog').waitFor();
    expect(await smallTargets(page)).toEqual([]);
    await screenshot(page, 't07-dialog-de');

    await page.goto(`${apiUrl()}/_local/mailbox?to=${encodeURIComponent(email)}`);
    await page.locator('article').first().waitFor();
    expect(await overflows(page)).toBe(false);
    await screenshot(page, 't08-mailbox', true);
  });
});
