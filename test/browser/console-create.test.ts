/** A new envelope from the console at 1280 px: PDF and recipients, fields placed in the editor (full mode), sent there, back in the console. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { saved } from './authoring-support.ts';
import { axe, contractPdf, summary, unique, useBrowser } from './support.ts';
import { consoleUrl, envelopeStatus, shot, tenantOf, useToken } from './console-support.ts';

let page: Page;
let bearer: string;
let errors: string[];
useBrowser({ width: 1280, height: 900 }, 'browser console create', (session) => {
  page = session.page;
  bearer = session.bearer;
  errors = session.errors;
});

describe('console: a new envelope through the editor', () => {
  it('uploads a PDF, names a recipient, places a signature in the editor, sends, and comes back to the console', async () => {
    const tenant = tenantOf('create');
    await useToken(page, bearer);
    await page.goto(consoleUrl('envelopes'));
    await page.getByRole('link', { name: 'New envelope' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'New envelope' }).waitFor();
    await page.getByLabel('Tenant').fill(tenant);
    await page.getByLabel('Subject').fill('Consulting agreement');
    await page.getByLabel('Documents (PDF)').setInputFiles({ name: 'consulting.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await contractPdf({ pages: 1 })) });
    await page.getByLabel('Name of recipient 1').fill('Ada Lovelace');
    await page.getByLabel('Email of recipient 1').fill(unique('ada'));
    await shot(page, 'new-envelope-1280');
    expect(summary(await axe(page))).toEqual([]);
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.getByRole('heading', { level: 1, name: 'Consulting agreement' }).waitFor();
    const id = new URL(page.url()).pathname.split('/').pop() ?? '';
    await shot(page, 'draft-1280');
    await page.getByRole('button', { name: 'Place fields in the editor' }).click();
    await page.waitForURL(/\/author\//);
    await page.locator('.apage-canvas[data-drawn]').first().waitFor();
    // The editor places a chosen field in the middle of the page in view on Enter
    await page.locator('.apalette-item[data-type="signature"]').focus();
    await page.keyboard.press('Enter');
    await saved(page);
    await page.getByRole('button', { name: 'Send', exact: true }).click();

    await page.waitForURL(consoleUrl(`envelopes/${id}?event=sent`));
    await page.getByRole('heading', { level: 1, name: 'Consulting agreement' }).waitFor();
    await expect.poll(() => page.locator('.title-row .status').innerText()).toBe('Sent');
    await expect.poll(() => page.locator('.timeline').innerText()).toContain('Ada Lovelace was sent a signing link.');
    expect(await envelopeStatus(bearer, id)).toBe('sent');
    await shot(page, 'sent-from-editor-1280');
    expect(errors).toEqual([]);
  });
});
