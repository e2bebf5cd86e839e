/**
 * An attachment field on a 360 px phone: the signer picks a file that is not what its name says (refused, explained
 * beside the field), then a real PNG, watches it upload to the end, sees it in the field, signs; the owner's list
 * names the very bytes chosen.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call } from '#test/support/api.ts';
import type { EnvelopeBody } from '#test/support/envelopes.ts';
import { settle } from '#test/support/signing.ts';
import { pngImage } from '#test/support/attachments.ts';
import { axe, contractPdf, drawWithTouch, screenshot, sendEnvelope, summary, unique, useBrowser } from './support.ts';

let bearer: string;
let page: Page;
let errors: string[];

useBrowser({ width: 360, height: 740, mobile: true }, 'browser attachments', (session) => { ({ page, bearer, errors } = session); });

const LOOK = '/tmp/attachments';
const both = async (name: string) => {
  await screenshot(page, name);
  mkdirSync(LOOK, { recursive: true });
  await page.screenshot({ path: `${LOOK}/${name}.png` });
};

describe('an attachment field on a 360 px phone', { timeout: 120_000 }, () => {
  it('refuses a disguised file, uploads a PNG with its progress, and signs naming it', async () => {
    const { envelope, links } = await sendEnvelope(bearer, {
      tenantId: 'mobile', subject: 'Tenancy application',
      signers: [{ name: 'Ines Okafor', email: unique('attach'), authMethod: 'none' }],
      fields: [
        { signerIndex: 0, type: 'signature', page: 1, x: 72, y: 120, w: 200, h: 50 },
        { signerIndex: 0, type: 'attachment', label: 'Proof of income', accept: ['pdf', 'png'], page: 1, x: 72, y: 300, w: 220, h: 30 },
      ],
    }, await contractPdf({ pages: 1 }));
    const attachmentField = envelope.fields[1]?.id ?? '';

    await page.goto(links[0] ?? '');
    await page.getByText('I agree to use electronic records').tap();
    await page.getByRole('button', { name: 'Continue to the document' }).tap();
    await page.locator('.sheet.is-rendered').waitFor();

    await page.getByRole('button', { name: 'Start' }).tap(); // reading order: the attachment field is higher on the page
    const dialog = page.getByRole('dialog', { name: 'Proof of income' });
    await dialog.waitFor();
    expect(await dialog.getByText('PDF, PNG, up to 10 MB').count()).toBe(1);
    await both('a01-attachment-editor');
    expect(summary(await axe(page))).toEqual([]);

    const input = dialog.locator('input[type=file]');
    await input.setInputFiles({ name: 'payslip.png', mimeType: 'image/png', buffer: Buffer.from('not a picture at all\n') });
    await dialog.getByRole('alert').getByText('This file is not a PDF, PNG or JPEG').waitFor();
    await both('a02-attachment-refused');

    const png = pngImage(300, 200);
    await input.setInputFiles({ name: 'payslip-march.png', mimeType: 'image/png', buffer: Buffer.from(png) });
    await dialog.getByText(/^Attached: payslip-march\.png/).waitFor();
    expect(await dialog.locator('progress').evaluate((el) => (el as unknown as { value: number }).value)).toBe(1);
    expect(await dialog.getByRole('alert').count()).toBe(0);
    expect(await page.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth')).toBe(false);
    await both('a03-attachment-uploaded');
    expect(summary(await axe(page))).toEqual([]);
    await dialog.getByRole('button', { name: 'Done' }).tap();
    await dialog.waitFor({ state: 'detached' });
    await page.locator(`[data-field-id="${attachmentField}"]`).getByText('payslip-march.png').waitFor();
    await both('a04-document-with-attachment');

    await page.locator(`button[data-field-id="${envelope.fields[0]?.id ?? ''}"]`).tap();
    const mark = page.getByRole('dialog', { name: 'Add your signature' });
    await mark.waitFor();
    await drawWithTouch(page, mark.locator('canvas.pad'));
    // A tap right after touch input through DevTools is sometimes swallowed on a loaded machine: tap again, as a person would
    for (let attempt = 1; attempt <= 3 && (await mark.count()) > 0; attempt++) {
      await mark.getByRole('button', { name: 'Sign', exact: true }).tap();
      await mark.waitFor({ state: 'detached', timeout: 5_000 }).catch(() => undefined);
    }
    await mark.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Finish' }).tap();
    await page.locator('[data-done="signed"]').waitFor();
    await settle();
    const done = (await call<EnvelopeBody>('GET', `/v1/envelopes/${envelope.id}`, { token: bearer })).body;
    expect(done.status).toBe('completed');
    const list = await call<{ attachments: { name: string; sha256: string; submitted: boolean }[] }>('GET', `/v1/envelopes/${envelope.id}/attachments`, { token: bearer });
    expect(list.body.attachments).toEqual([expect.objectContaining({ name: 'payslip-march.png', sha256: createHash('sha256').update(png).digest('hex'), submitted: true })]);
    expect(errors).toEqual([]);
  });
});
