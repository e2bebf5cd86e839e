/** The sender console's envelopes at 1280 px: list, status filter, search, an envelope's detail and voiding it. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axe, summary, unique, useBrowser } from './support.ts';
import { consoleUrl, draftEnvelope, envelopeStatus, sentEnvelope, shot, tenantOf, useToken } from './console-support.ts';

let page: Page;
let bearer: string;
let errors: string[];
useBrowser({ width: 1280, height: 900 }, 'browser console', (session) => {
  page = session.page;
  bearer = session.bearer;
  errors = session.errors;
});

const rows = (p: Page) => p.locator('table.records tbody tr');

describe('console envelopes', () => {
  it('lists a tenant, filters by status, searches and opens an envelope, then voids it', async () => {
    const tenant = tenantOf('console');
    const lease = await sentEnvelope(bearer, tenant, 'Office lease 2027', unique('landlord'));
    await sentEnvelope(bearer, tenant, 'Mutual NDA', unique('partner'));
    await draftEnvelope(bearer, tenant, 'Draft offer', unique('candidate'));
    await useToken(page, bearer);
    await page.goto(consoleUrl(`envelopes?tenant=${tenant}`));
    await page.getByRole('heading', { level: 1, name: 'Envelopes' }).waitFor();
    await expect.poll(() => rows(page).count()).toBe(3);
    await shot(page, 'envelopes-1280');
    expect(summary(await axe(page))).toEqual([]);

    await page.getByLabel('Status').selectOption('sent');
    await expect.poll(() => rows(page).count()).toBe(2);
    expect(page.url()).toContain('status=sent');

    await page.getByLabel('Search').fill('LEASE');
    await page.getByRole('button', { name: 'Show envelopes' }).click();
    await expect.poll(() => rows(page).count()).toBe(1);
    await page.getByRole('link', { name: 'Office lease 2027' }).click();

    await page.getByRole('heading', { level: 1, name: 'Office lease 2027' }).waitFor();
    await expect.poll(() => page.locator('.timeline').innerText()).toContain('Dana Signer was sent a signing link.');
    expect(await page.locator('.signers').innerText()).toContain('Invited');
    await shot(page, 'envelope-detail-1280');
    expect(summary(await axe(page))).toEqual([]);

    await page.getByRole('button', { name: 'Void envelope' }).click();
    const dialog = page.getByRole('dialog', { name: 'Void this envelope?' });
    await dialog.getByLabel('Reason (the signers see it)').fill('Replaced by a new lease.');
    await shot(page, 'void-dialog-1280');
    await dialog.getByRole('button', { name: 'Void envelope' }).click();
    await page.getByText('The envelope is voided.').waitFor();
    await expect.poll(() => page.locator('.timeline').innerText()).toMatch(/voided the envelope\./);
    expect(await envelopeStatus(bearer, lease.id)).toBe('voided');
    expect(errors).toEqual([]);
  });
});
