/** The API reference (/docs/ on the API and on the signing host) and the local mailbox render in Chromium without errors. */
import { inject, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { call } from '../support/api.ts';
import { createMultipart, sigField, signer } from '../support/envelopes.ts';
import { unique, useBrowser, watchErrors } from './support.ts';

let page: Page;
let errors: string[] = [];
let bearer = '';
useBrowser({ width: 1280, height: 900 }, 'reference pages', (session) => { page = session.page; errors = session.errors; bearer = session.bearer; });

describe('rendered pages', () => {
  it.each([['the API', () => inject('apiUrl')], ['the signing host', () => inject('signingUrl')]])('renders every operation and the webhooks at /docs/ on %s', async (_where, base) => {
    errors.length = 0;
    await page.goto(`${base()}/docs/`);
    await page.locator('.opblock-summary').first().waitFor();
    expect(await page.locator('.opblock-summary').count()).toBeGreaterThan(30);
    await expect.poll(() => page.locator('body').innerText()).toContain('envelope.completed');
    expect(errors).toEqual([]);
  });

  it('renders the mailbox, whose signing link opens the signing page; GET / leads to the reference', async () => {
    const email = unique('mailbox');
    const created = await createMultipart(bearer, { tenantId: 'mailbox', subject: 'From the mailbox', signers: [signer(email)], fields: [sigField(0)] });
    expect((await call('POST', `/v1/envelopes/${created.body.id}/send`, { token: bearer, json: {} })).status).toBe(200);
    const fresh = await page.context().newPage();
    const freshErrors = watchErrors(fresh);
    await fresh.goto(`${inject('apiUrl')}/_local/mailbox?to=${encodeURIComponent(email)}`);
    await expect.poll(() => fresh.locator('header').innerText()).toMatch(/Local mailbox · [1-9]\d* message/);
    const [signing] = await Promise.all([fresh.context().waitForEvent('page'), fresh.locator('.links a[href*="/sign/"]').first().click()]);
    await signing.waitForURL(/\/sign\//);
    await expect.poll(() => signing.locator('body').innerText()).toContain('From the mailbox');
    await signing.close();
    await fresh.goto(`${inject('apiUrl')}/`);
    expect(fresh.url()).toBe(`${inject('apiUrl')}/docs/`);
    await fresh.close();
    expect(freshErrors).toEqual([]);
  });
});
