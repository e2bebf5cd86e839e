/**
 * The pages on a 360 px wide touch phone: a landscape (rotated, cropped) page signed with a finger, the
 * sealed PDF compared with what the page showed; then the download portal (available, purged, invalid).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call, outboxFor } from '#test/support/api.ts';
import type { EnvelopeBody } from '#test/support/envelopes.ts';
import { settle } from '#test/support/signing.ts';
import { axe, contractPdf, drawWithTouch, inkBox, renderPdfPage, screenshot, sealedPdf, sendEnvelope, signingUrl, summary, unique, useBrowser } from './support.ts';

let bearer: string;
let page: Page;
let errors: string[];
let completed: { envelope: EnvelopeBody; email: string; link: string } | null = null;

useBrowser({ width: 360, height: 740, mobile: true }, 'browser mobile', (session) => { ({ page, bearer, errors } = session); });

/** The horizontal scroll width must not exceed the viewport: nothing to pan sideways at 360 px. */
const overflows = (p: Page) => p.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth');

/**
 * Taps a dialog's button until the dialog closes (at most 3 taps). A tap right after touch input dispatched through
 * DevTools is sometimes swallowed on a loaded machine; a person would simply tap again.
 */
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

describe('signing on a 360 px phone', { timeout: 120_000 }, () => {
  it('signs a rotated, cropped page with a finger; the sealed page shows the drawing where the page showed it', async () => {
    const email = unique('phone');
    // Portrait paper turned 90° and cropped: shown 720 x 540 pt (landscape)
    const pdf = await contractPdf({ pages: 1, rotate: 90, cropBox: [36, 36, 540, 720] });
    const { envelope, links } = await sendEnvelope(bearer, {
      tenantId: 'mobile', subject: 'Delivery note', fieldOrigin: 'top-left',
      signers: [{ name: 'Dee Ekwueme', email, authMethod: 'none' }],
      fields: [
        { signerIndex: 0, type: 'signature', page: 1, x: 400, y: 380, w: 200, h: 60 },
        { signerIndex: 0, type: 'text', page: 1, x: 50, y: 460, w: 250, h: 24, origin: 'bottom-left', required: false },
      ],
    }, pdf);
    const [sig, text] = envelope.fields.map((f) => f.id);
    expect(envelope.fields.map((f) => f.origin)).toEqual(['top-left', 'bottom-left']);

    await page.goto(links[0] ?? '');
    await page.getByRole('heading', { level: 1, name: 'Agree to sign electronically' }).waitFor();
    expect(await overflows(page)).toBe(false);
    await screenshot(page, 'm01-consent', true);
    expect(summary(await axe(page))).toEqual([]);
    await page.getByText('I agree to use electronic records').tap();
    await page.getByRole('button', { name: 'Continue to the document' }).tap();

    await page.locator('.sheet.is-rendered').waitFor();
    const sheet = await page.locator('.sheet[data-page="1"]').boundingBox();
    const sigBox = await page.locator(`[data-field-id="${sig ?? ''}"]`).boundingBox();
    const textBox = await page.locator(`[data-field-id="${text ?? ''}"]`).boundingBox();
    if (!sheet || !sigBox || !textBox) throw new Error('no page or fields');
    expect(sheet.width / sheet.height).toBeCloseTo(720 / 540, 2); // shown as landscape
    const k = sheet.width / 720;
    expect(sigBox.x - sheet.x).toBeCloseTo(400 * k, 0);
    expect(sigBox.y - sheet.y).toBeCloseTo(380 * k, 0);
    expect(textBox.y - sheet.y).toBeCloseTo((540 - 460 - 24) * k, 0); // bottom-left origin
    expect(await overflows(page)).toBe(false);
    await screenshot(page, 'm02-document');
    expect(summary(await axe(page))).toEqual([]);

    await page.getByRole('button', { name: 'Start' }).tap(); // one tap opens the signature's editor
    const dialog = page.getByRole('dialog', { name: 'Add your signature' });
    await dialog.waitFor();
    await drawWithTouch(page, dialog.locator('canvas.pad'));
    await screenshot(page, 'm03-signature-touch');
    expect(summary(await axe(page))).toEqual([]);
    await tapUntilClosed(dialog, dialog.getByRole('button', { name: 'Sign', exact: true }));
    await page.locator(`[data-field-id="${sig ?? ''}"] img.mark-image`).waitFor();
    const preview = PNG.sync.read(await page.locator(`[data-field-id="${sig ?? ''}"]`).screenshot());
    await screenshot(page, 'm04-document-signed');
    await page.getByRole('button', { name: 'Finish' }).tap();
    await page.locator('[data-done="signed"]').waitFor();
    expect(await page.getByText('Everyone has signed').count()).toBe(1);
    await screenshot(page, 'm05-done');
    expect(summary(await axe(page))).toEqual([]);

    await settle();
    const done = (await call<EnvelopeBody>('GET', `/v1/envelopes/${envelope.id}`, { token: bearer })).body;
    expect(done.status).toBe('completed');
    completed = { envelope: done, email, link: links[0] ?? '' };
    const dpi = 144;
    const s = dpi / 72;
    const rendered = renderPdfPage(await sealedPdf(bearer, envelope.id), 1, 'm-sealed-page-1', dpi);
    expect(rendered.width).toBeCloseTo(720 * s, -1); // poppler shows the crop box, turned
    const field = { left: 400 * s, top: 380 * s, right: 600 * s - 1, bottom: 440 * s - 1 };
    const ink = inkBox(rendered, { left: field.left - 40, top: field.top - 40, right: field.right + 40, bottom: field.bottom + 40 });
    if (!ink) throw new Error('no ink on the sealed page');
    expect(ink.left).toBeGreaterThanOrEqual(field.left - 1);
    expect(ink.right).toBeLessThanOrEqual(field.right + 1);
    expect(ink.top).toBeGreaterThanOrEqual(field.top - 1);
    expect(ink.bottom).toBeLessThanOrEqual(field.bottom + 1);
    const shown = inkBox(preview);
    if (!shown) throw new Error('no ink in the preview');
    const rel = (v: number, from: number, size: number) => (v - from) / size;
    expect(Math.abs(rel(ink.left, field.left, 200 * s) - shown.left / preview.width)).toBeLessThan(0.05);
    expect(Math.abs(rel(ink.right + 1, field.left, 200 * s) - (shown.right + 1) / preview.width)).toBeLessThan(0.05);
    expect(Math.abs(rel(ink.top, field.top, 60 * s) - shown.top / preview.height)).toBeLessThan(0.06);
    expect(Math.abs(rel(ink.bottom + 1, field.top, 60 * s) - (shown.bottom + 1) / preview.height)).toBeLessThan(0.06);
    expect(errors).toEqual([]);
  }, 120_000);

  it('offers the sealed PDF on the download portal, and explains purged and invalid links', async () => {
    if (!completed) throw new Error('needs the envelope signed above');
    const mail = (await outboxFor(completed.email)).find((m) => m.subject?.startsWith('Completed'));
    const link = /https?:\/\/\S+\/download\/\S+/.exec(mail?.text ?? '')?.[0];
    expect(link).toBeTruthy();
    await page.goto(link ?? '');
    await page.getByRole('heading', { level: 1, name: 'Delivery note' }).waitFor();
    expect(await overflows(page)).toBe(false);
    await screenshot(page, 'm06-download', true);
    expect(summary(await axe(page))).toEqual([]);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download the signed PDF' }).tap()]);
    const file = await download.path();
    expect(createHash('sha256').update(readFileSync(file)).digest('hex')).toBe(completed.envelope.documentHashFinal);
    await page.getByText('Your download has started').waitFor();

    // Purging needs the service clock moved past retention (the clock project's job): the API's answer is replayed.
    await page.route('**/v1/download/*', (route) => route.fulfill({
      status: 410, contentType: 'application/json',
      body: JSON.stringify({ error: 'gone', type: 'gone', title: 'Gone', status: 410, message: 'The document was deleted at the end of its retention period', errors: {}, details: null }),
    }));
    await page.goto(link ?? '');
    await page.getByRole('heading', { level: 1, name: 'This document has been deleted' }).waitFor();
    await screenshot(page, 'm07-download-purged');
    expect(summary(await axe(page))).toEqual([]);
    await page.unrouteAll();

    await page.goto(`${signingUrl()}/download/not-a-token`);
    await page.getByRole('heading', { level: 1, name: 'This download link doesn’t work' }).waitFor();
    await screenshot(page, 'm08-download-invalid');
    expect(errors).toEqual([]);
  }, 60_000);

  it('shows the consent checkbox and Continue on a 360 x 640 phone without scrolling', async () => {
    await page.setViewportSize({ width: 360, height: 640 });
    try {
      const { links } = await sendEnvelope(bearer, {
        tenantId: 'mobile', subject: 'Employment contract with a rather long title for a small screen',
        signers: [{ name: 'Kai Short', email: unique('fold'), authMethod: 'none' }],
        fields: [{ signerIndex: 0, type: 'signature', page: 1, x: 72, y: 120, w: 200, h: 50 }],
      }, await contractPdf({ pages: 1 }));
      await page.goto(links[0] ?? '');
      await page.getByRole('heading', { level: 1, name: 'Agree to sign electronically' }).waitFor();
      expect(await page.evaluate<number>('window.scrollY')).toBe(0);
      /** Inside the viewport and not covered by anything: a tap at its centre hits the element itself (named by id or text). */
      const inView = async (target: Locator, name: string) => {
        const box = await target.boundingBox();
        if (!box) return false;
        const hit = await page.evaluate<string>(`(() => { const el = document.elementFromPoint(${String(box.x + box.width / 2)}, ${String(box.y + box.height / 2)}); return el ? (el.id || el.textContent || '') : ''; })()`);
        return box.y >= 0 && box.y + box.height <= 640 && hit === name;
      };
      const agree = page.getByRole('checkbox', { name: /I agree to use electronic records/ });
      const go = page.getByRole('button', { name: 'Continue to the document' });
      expect(await inView(agree, (await agree.getAttribute('id')) ?? '')).toBe(true);
      expect(await inView(go, 'Continue to the document')).toBe(true);
      expect(await overflows(page)).toBe(false);
      await screenshot(page, 'm10-consent-360x640');
      expect(summary(await axe(page))).toEqual([]);
      await agree.tap();
      await go.tap();
      await page.locator('.sheet.is-rendered').waitFor();
      expect(errors).toEqual([]);
    } finally {
      await page.setViewportSize({ width: 360, height: 740 });
    }
  });

  it('shows a used link’s screen on the phone too', async () => {
    if (!completed) throw new Error('needs the envelope signed above');
    await page.goto(completed.link);
    await page.locator('[data-problem="signed"]').waitFor();
    await screenshot(page, 'm09-used-link');
    expect(summary(await axe(page))).toEqual([]);
  });
});
