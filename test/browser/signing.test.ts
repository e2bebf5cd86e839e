/**
 * The signing page in a desktop-sized Chromium: one-time code, consent, drawing and typing, guided
 * navigation, submit; then the envelope completes and the sealed PDF shows the drawing where it was drawn.
 */
import { PNG } from 'pngjs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call } from '#test/support/api.ts';
import { sigField } from '#test/support/envelopes.ts';
import type { EnvelopeBody } from '#test/support/envelopes.ts';
import { latestCode, passGates, settle, signing } from '#test/support/signing.ts';
import { SIGNATURE_FONTS } from '#shared/sealing/text/catalog.ts';
import { SIGNATURE_FONTS as WEB_FONTS } from '../../web/src/sign/font-labels.ts';
import { axe, contractPdf, drawWithMouse, focusedField, inkBox, renderPdfPage, screenshot, sealedPdf, sendEnvelope, signingUrl, summary, unique, type Box, useBrowser } from './support.ts';

let bearer: string;
let page: Page;
let errors: string[];

useBrowser({ width: 1024, height: 800 }, 'browser signing', (session) => { ({ page, bearer, errors } = session); });

const norm = (box: Box | null, width: number, height: number) =>
  box && { left: box.left / width, top: box.top / height, right: (box.right + 1) / width, bottom: (box.bottom + 1) / height };

const SIGNATURE = { signerIndex: 0, type: 'signature', page: 1, x: 72, y: 120, w: 200, h: 50 };
const TEXT = { signerIndex: 0, type: 'text', page: 1, x: 72, y: 500, w: 260, h: 22 };

/** One signer without a code who has consented already: their link opens on the document. */
async function atTheDocument(subject: string, name: string, fields: object[]) {
  const { envelope, links, tokens } = await sendEnvelope(bearer, {
    tenantId: 'browser', subject, signers: [{ name, email: unique('doc'), authMethod: 'none' }], fields,
  }, await contractPdf({ pages: 1 }));
  const token = tokens[0] ?? '';
  await passGates(token, null);
  return { envelope, link: links[0] ?? '', token, ids: envelope.fields.map((f) => f.id) };
}

describe('the signing page', { timeout: 120_000 }, () => {
  it('offers the typed-signature fonts that sealing embeds', () => {
    expect([...WEB_FONTS]).toEqual([...SIGNATURE_FONTS]);
  });

  it('takes a signer through the code, consent, drawing, typing and fields to a completed, sealed envelope', async () => {
    const email = unique('browser');
    const fields = [
      { signerIndex: 0, type: 'signature', page: 1, x: 72, y: 120, w: 200, h: 50 },
      { signerIndex: 0, type: 'date', page: 1, x: 330, y: 130, w: 120, h: 20 },
      { signerIndex: 0, type: 'text', page: 1, x: 72, y: 500, w: 260, h: 22 },
      { signerIndex: 0, type: 'checkbox', page: 1, x: 72, y: 460, w: 14, h: 14 },
      { signerIndex: 0, type: 'initial', page: 2, x: 480, y: 700, w: 60, h: 40, origin: 'top-left' },
      { signerIndex: 0, type: 'checkbox', page: 2, x: 72, y: 300, w: 14, h: 14, origin: 'top-left', required: false },
    ];
    const { envelope, links } = await sendEnvelope(bearer, {
      tenantId: 'browser', subject: 'Consulting agreement', signers: [{ name: 'Ana Maria Silva', email }], fields,
    }, await contractPdf({ pages: 2 }));
    const [sig, date, text, box, initial, optional] = envelope.fields.map((f) => f.id);

    // Step 1: the code
    const requested: string[] = [];
    page.on('request', (request) => { requested.push(request.url()); });
    await page.goto(links[0] ?? '');
    await expect.poll(() => page.title()).toContain('Confirm it’s you');
    await screenshot(page, '01-otp-request');
    expect(summary(await axe(page))).toEqual([]);
    await page.getByRole('button', { name: 'Email me a code' }).click();
    const code = page.getByLabel('6-digit code');
    await code.waitFor();
    await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe(await code.getAttribute('id'));
    await code.fill('000000' === (await latestCode(email)) ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify code' }).click();
    await page.getByRole('alert').filter({ hasText: 'The code is incorrect' }).waitFor();
    expect(await code.getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, '02-otp-wrong-code');
    expect(summary(await axe(page))).toEqual([]);
    await code.fill(await latestCode(email));
    await page.keyboard.press('Enter');

    // Step 2: consent
    await page.getByRole('heading', { level: 1, name: 'Agree to sign electronically' }).waitFor();
    expect(await page.getByText('By continuing you agree to sign this document electronically').count()).toBe(1);
    expect(await page.getByText('Please sign by Friday. Thank you!').count()).toBe(1);
    await page.getByRole('button', { name: 'Continue to the document' }).click();
    await page.getByRole('alert').filter({ hasText: 'Tick the box' }).waitFor();
    await screenshot(page, '03-consent', true);
    expect(summary(await axe(page))).toEqual([]);
    expect(requested.filter((url) => /\/assets\/(pdf|.*\.ttf)/.test(url))).toEqual([]); // pdf.js and fonts are loaded only when needed
    await page.getByRole('checkbox', { name: /I agree to use electronic records/ }).check();
    await page.getByRole('button', { name: 'Continue to the document' }).click();

    // Step 3: the document with the fields where they were placed
    await page.getByRole('heading', { level: 1, name: 'Consulting agreement' }).waitFor();
    await page.locator('.sheet.is-rendered').first().waitFor();
    const sheet1 = await page.locator('.sheet[data-page="1"]').boundingBox();
    const sigBox = await page.locator(`[data-field-id="${sig ?? ''}"]`).boundingBox();
    expect(sheet1 && sigBox).toBeTruthy();
    if (!sheet1 || !sigBox) return;
    const k = sheet1.width / 612; // CSS pixels per point
    expect(sigBox.x - sheet1.x).toBeCloseTo(72 * k, 0);
    expect(sigBox.y - sheet1.y).toBeCloseTo((792 - 120 - 50) * k, 0);
    expect(sigBox.width).toBeCloseTo(200 * k, 0);
    const sheet2 = await page.locator('.sheet[data-page="2"]').boundingBox();
    const initialBox = await page.locator(`[data-field-id="${initial ?? ''}"]`).boundingBox();
    if (!sheet2 || !initialBox) throw new Error('page 2 missing');
    expect(initialBox.x - sheet2.x).toBeCloseTo(480 * k, 0);
    expect(initialBox.y - sheet2.y).toBeCloseTo(700 * k, 0); // top-left origin
    expect(await page.locator(`[data-field-id="${date ?? ''}"]`).textContent()).toContain(new Date().toISOString().slice(0, 10));
    await expect.poll(() => page.locator('#progress').textContent()).toBe('0 of 4 required fields done');
    await screenshot(page, '04-document');
    expect(summary(await axe(page))).toEqual([]);

    // Guided navigation: Start goes to the first required field in reading order (top to bottom): the text field
    // One press opens the field's editor; closing it puts focus back on the field
    await page.getByRole('button', { name: 'Start' }).click();
    const textDialog = page.getByRole('dialog', { name: 'Fill in the text field' });
    await textDialog.getByLabel('Text for the field on page 1').fill('ACME Corp., Lisbon office');
    await textDialog.getByRole('button', { name: 'Done' }).click();
    await textDialog.waitFor({ state: 'detached' });
    await expect.poll(() => focusedField(page)).toBe(text);

    await page.getByRole('button', { name: 'Next field' }).click();
    await expect.poll(() => focusedField(page)).toBe(box);
    await page.keyboard.press('Space');
    expect(await page.locator(`input[data-field-id="${box ?? ''}"]`).isChecked()).toBe(true);

    await page.getByRole('button', { name: 'Next field' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add your signature' });
    await dialog.waitFor();
    await drawWithMouse(page, dialog.locator('canvas.pad'));
    await screenshot(page, '05-signature-draw');
    expect(summary(await axe(page))).toEqual([]);
    await dialog.getByRole('button', { name: 'Sign', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('#progress').textContent()).toBe('3 of 4 required fields done');
    const preview = await page.locator(`[data-field-id="${sig ?? ''}"]`).screenshot();

    await page.getByRole('button', { name: 'Next field' }).click();
    const initials = page.getByRole('dialog', { name: 'Add your initials' });
    await initials.getByText('Type', { exact: true }).click();
    expect(await initials.getByRole('textbox', { name: 'Your initials' }).inputValue()).toBe('AMS');
    await initials.getByRole('textbox', { name: 'Your initials' }).fill('AS');
    await initials.getByText('Caveat', { exact: true }).click();
    expect(await initials.getByRole('radio', { name: 'Caveat' }).isChecked()).toBe(true);
    await screenshot(page, '06-initials-type');
    expect(summary(await axe(page))).toEqual([]);
    await initials.getByRole('button', { name: 'Add initials' }).click();
    await expect.poll(() => page.locator('#progress').textContent()).toBe('All required fields are done. Select Finish to sign.');
    expect(await page.locator(`input[data-field-id="${optional ?? ''}"]`).isChecked()).toBe(false);
    await screenshot(page, '07-document-filled', true);

    const sent: unknown[] = [];
    page.on('request', (request) => { if (request.url().endsWith('/sign')) sent.push(request.postDataJSON()); });
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.locator('[data-done="signed"]').waitFor();
    await screenshot(page, '08-done');
    expect(summary(await axe(page))).toEqual([]);
    expect(sent[0]).toMatchObject({
      fontLabel: 'Caveat',
      fields: expect.arrayContaining([
        { fieldId: sig, signatureImageBase64: expect.stringMatching(/^iVBORw0KGgo/) as unknown, signatureSource: 'drawn' },
        { fieldId: box, textValue: 'true' },
        { fieldId: text, textValue: 'ACME Corp., Lisbon office' },
        { fieldId: initial, textValue: 'AS' },
        { fieldId: optional, textValue: 'false' },
      ]) as unknown,
    });

    // The envelope completes; the sealed page shows the drawing in the field, placed as the preview showed it
    await settle();
    const done = await call<EnvelopeBody>('GET', `/v1/envelopes/${envelope.id}`, { token: bearer });
    expect(done.body.status).toBe('completed');
    const sealed = await sealedPdf(bearer, envelope.id);
    const dpi = 144;
    const s = dpi / 72;
    const rendered = renderPdfPage(sealed, 1, 'sealed-page-1', dpi);
    const field = { left: 72 * s, top: (792 - 120 - 50) * s, right: 272 * s - 1, bottom: (792 - 120) * s - 1 };
    const around = { left: field.left - 30, top: field.top - 30, right: field.right + 30, bottom: field.bottom + 30 };
    const inkInSealed = inkBox(rendered, around);
    expect(inkInSealed).not.toBeNull();
    if (!inkInSealed) return;
    // Nothing outside the field box
    expect(inkInSealed.left).toBeGreaterThanOrEqual(field.left - 1);
    expect(inkInSealed.right).toBeLessThanOrEqual(field.right + 1);
    expect(inkInSealed.top).toBeGreaterThanOrEqual(field.top - 1);
    expect(inkInSealed.bottom).toBeLessThanOrEqual(field.bottom + 1);
    const fieldPx = { left: inkInSealed.left - field.left, top: inkInSealed.top - field.top, right: inkInSealed.right - field.left, bottom: inkInSealed.bottom - field.top };
    const sealedRel = norm(fieldPx, 200 * s, 50 * s);
    const previewPng = PNG.sync.read(preview);
    const previewRel = norm(inkBox(previewPng), previewPng.width, previewPng.height);
    expect(previewRel).not.toBeNull();
    for (const side of ['left', 'top', 'right', 'bottom'] as const) expect(Math.abs((previewRel?.[side] ?? 0) - (sealedRel?.[side] ?? 1))).toBeLessThan(0.04);
    renderPdfPage(sealed, 2, 'sealed-page-2', 72);

    // The link is used now: opening it again says so
    await page.goto(links[0] ?? '');
    await page.locator('[data-problem="signed"]').waitFor();
    await screenshot(page, '09-used-link');
    expect(summary(await axe(page))).toEqual([]);
    expect(errors).toEqual([]);
  }, 120_000);

  it('shows the wait from a 429 when codes were asked for too often, and still takes the last code', async () => {
    const email = unique('ratelimit');
    const { tokens, links } = await sendEnvelope(bearer, { tenantId: 'browser', subject: 'NDA', signers: [{ name: 'Rui Costa', email }], fields: [sigField(0)] }, await contractPdf({ pages: 1 }));
    for (let i = 0; i < 5; i++) expect((await signing('POST', tokens[0] ?? '', '/otp/request')).status).toBe(200);
    await page.goto(links[0] ?? '');
    await page.getByRole('button', { name: 'Email me a code' }).click();
    await page.getByRole('alert').filter({ hasText: 'You have asked for too many codes' }).waitFor();
    expect(await page.getByText(/You can ask for a new code in \d+ min/).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Send a new code' }).isDisabled()).toBe(true);
    await screenshot(page, '10-otp-rate-limited');
    expect(summary(await axe(page))).toEqual([]);
    await page.getByLabel('6-digit code').fill(await latestCode(email));
    await page.getByRole('button', { name: 'Verify code' }).click();
    await page.getByRole('heading', { level: 1, name: 'Agree to sign electronically' }).waitFor();
  });

  it('declines with a reason; the envelope is declined and the link then says so', async () => {
    const email = unique('decline');
    const { envelope, links } = await sendEnvelope(bearer, {
      tenantId: 'browser', subject: 'Supply contract', signers: [{ name: 'Bo Berg', email, authMethod: 'none' }], fields: [sigField(0)],
    }, await contractPdf({ pages: 1 }));
    await page.goto(links[0] ?? '');
    await page.getByRole('heading', { level: 1, name: 'Agree to sign electronically' }).waitFor();
    await page.getByRole('button', { name: 'Decline to sign' }).click();
    const dialog = page.getByRole('dialog', { name: 'Decline to sign?' });
    await dialog.getByLabel('Reason for declining').fill('The fees in clause 2 are wrong.');
    await screenshot(page, '11-decline-dialog');
    expect(summary(await axe(page))).toEqual([]);
    await dialog.getByRole('button', { name: 'Decline to sign' }).click();
    await page.locator('[data-done="declined"]').waitFor();
    await screenshot(page, '12-declined');
    const after = await call<EnvelopeBody>('GET', `/v1/envelopes/${envelope.id}`, { token: bearer });
    expect(after.body.status).toBe('declined');
    expect(after.body.auditLog?.find((e) => e.event === 'signer.declined')?.detail).toEqual({ reason: 'The fees in clause 2 are wrong.' });
    await page.reload();
    await page.locator('[data-problem="declined"]').waitFor();
  });

  it('can be done with the keyboard alone, in reading order', async () => {
    const { link, token, ids: [sig, , text] } = await atTheDocument('Keyboard lease', 'Eva Lind', [
      SIGNATURE, { signerIndex: 0, type: 'date', page: 1, x: 330, y: 130, w: 120, h: 20 }, TEXT,
    ]);

    // The loading screen, held for a moment
    await page.route(`**/v1/signing/${token}`, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 700));
      await route.continue();
    });
    await page.goto(link);
    await page.getByText('Opening your document…').first().waitFor();
    await screenshot(page, '00-loading');
    await page.getByRole('heading', { level: 1, name: 'Keyboard lease' }).waitFor();
    await page.unrouteAll();
    await page.locator('.sheet.is-rendered').waitFor();

    // Focus order: the links, then the fields top to bottom, then the action bar
    const order: string[] = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      order.push(await page.evaluate<string>('document.activeElement?.dataset?.fieldId ?? document.activeElement?.textContent ?? ""'));
    }
    expect(order).toEqual(['Download the PDF', 'Decline to sign', text, sig, 'Start', 'Finish']);

    // Esc closes a dialog and gives focus back to its field
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Add your signature' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await focusedField(page)).toBe(sig);

    // A typed signature: Draw/Type is a radio group (arrow keys), Enter in the name adopts it
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string>('document.activeElement?.value ?? ""')).toBe('Eva Lind');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.locator(`[data-field-id="${sig ?? ''}"] canvas.mark-typed`).waitFor();

    // Finish with a required field still empty: it says so and takes the signer there
    await page.getByRole('button', { name: 'Finish' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: '1 required field needs your input' }).waitFor();
    await expect.poll(() => focusedField(page)).toBe(text);
    await screenshot(page, '16-missing-field');
    expect(summary(await axe(page))).toEqual([]);
    await page.keyboard.press('Enter');
    await page.keyboard.type('Flat 2, Rua Augusta 10');
    await page.keyboard.press('Tab'); // Cancel
    await page.keyboard.press('Tab'); // Done
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    // Focus is back on the field by the time the dialog is gone, so the next key cannot be pulled away from its target
    expect(await focusedField(page)).toBe(text);

    const sent: unknown[] = [];
    page.on('request', (request) => { if (request.url().endsWith('/sign')) sent.push(request.postDataJSON()); });
    await page.getByRole('button', { name: 'Finish' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('[data-done="signed"]').waitFor();
    expect(sent[0]).toEqual({
      fontLabel: 'Dancing Script',
      fields: [{ fieldId: text, textValue: 'Flat 2, Rua Augusta 10' }, { fieldId: sig, textValue: 'Eva Lind' }],
    });

    await page.goto(`${signingUrl()}/`);
    await page.getByRole('heading', { level: 1, name: 'This page needs the link from your email' }).waitFor();
    await screenshot(page, '17-no-link');
    expect(summary(await axe(page))).toEqual([]);
    // The host's CSP lets pdf.js compile its WebAssembly decoders (JPEG 2000, JBIG2, ICC colour)
    expect(await page.evaluate<string>('WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(() => "ok", (e) => String(e))')).toBe('ok');
    expect(errors).toEqual([]);
  });
});
