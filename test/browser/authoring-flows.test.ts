/** The editor's full mode (subject, signers, Send) and templates (fields bound to roles), against the local stack. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiUrl, call } from '../support/api.ts';
import { dragFromPalette, draftWithEditor, openEditor, pixelsPerPoint, saved, sheet, type ApiField } from './authoring-support.ts';
import { contractPdf, unique, useBrowser } from './support.ts';

let page: Page;
let bearer: string;
useBrowser({ width: 1280, height: 900 }, 'browser authoring flows', (session) => {
  page = session.page;
  bearer = session.bearer;
});

const signatureFor = (signerIndex: number, y: number) => ({ signerIndex, type: 'signature', page: 1, x: 72, y, w: 160, h: 40 });

describe('full mode', () => {
  it('changes the subject and the signers, then sends and goes back to returnUrl?event=sent', async () => {
    const back = `${apiUrl()}/_local/embed-demo`;
    const draft = await draftWithEditor(bearer, { mode: 'full', returnUrl: back, fields: [signatureFor(0, 100), signatureFor(1, 200)] });
    await openEditor(page, draft.url);
    await page.getByRole('button', { name: 'Details', exact: true }).click();
    await page.getByLabel('Subject').fill('Service agreement, final');
    await page.getByLabel('Subject').press('Tab');
    await expect.poll(async () => (await call<{ subject: string }>('GET', `/v1/envelopes/${draft.id}`, { token: bearer })).body.subject).toBe('Service agreement, final');

    // A third signer, added and then removed again
    const form = page.locator('form.aadd');
    await form.getByLabel('Name').fill('Alan Turing');
    await form.getByLabel('Email').fill(unique('turing'));
    await form.getByRole('button', { name: 'Add signer' }).click();
    await expect.poll(async () => (await call<{ signers: unknown[] }>('GET', `/v1/envelopes/${draft.id}`, { token: bearer })).body.signers.length).toBe(3);
    await page.getByRole('button', { name: 'Remove Alan Turing' }).click();
    await expect.poll(async () => (await call<{ signers: unknown[] }>('GET', `/v1/envelopes/${draft.id}`, { token: bearer })).body.signers.length).toBe(2);

    // Grace signs together with Ada: her routing order becomes 1
    const grace = page.locator(`[data-signer-id="${draft.signerIds[1] ?? ''}"]`);
    await grace.getByLabel('Signing order').fill('1');
    await grace.getByLabel('Signing order').press('Tab');
    await expect.poll(async () => (await call<{ signers: { id: string; routingOrder: number }[] }>('GET', `/v1/envelopes/${draft.id}`, { token: bearer })).body.signers.find((s) => s.id === draft.signerIds[1])?.routingOrder).toBe(1);

    await page.getByRole('button', { name: 'Fields', exact: true }).click();
    await page.locator('.apage-canvas[data-drawn]').first().waitFor();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.waitForURL(`${back}?event=sent`);
    expect((await call<{ status: string }>('GET', `/v1/envelopes/${draft.id}`, { token: bearer })).body.status).toBe('sent');
  });

  it('in fields mode there is no Send and no details view', async () => {
    const draft = await draftWithEditor(bearer);
    await openEditor(page, draft.url);
    expect(await page.getByRole('button', { name: 'Send', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Details', exact: true }).count()).toBe(0);
    // A spent editor URL does not open twice
    await page.goto(draft.url);
    await page.getByRole('heading', { level: 1, name: 'The editor could not be opened' }).waitFor();
  });
});

describe('templates', () => {
  it('shows the roles as recipients and binds a new field to the chosen role', async () => {
    const form = new FormData();
    form.append('data', JSON.stringify({
      tenantId: 'browser', name: 'Lease', subject: 'Please sign the lease',
      roles: [{ role: 'tenant', authMethod: 'none' }, { role: 'landlord', routingOrder: 2, authMethod: 'none' }],
      fields: [{ role: 'tenant', type: 'signature', page: 1, x: 72, y: 72, w: 160, h: 40 }],
    }));
    form.append('file', new Blob([await contractPdf({ pages: 1 })], { type: 'application/pdf' }), 'lease.pdf');
    const created = await call<{ id: string }>('POST', '/v1/templates', { token: bearer, form });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const issued = await call<{ url: string }>('POST', `/v1/templates/${created.body.id}/authoring-url`, { token: bearer, json: {} });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    await openEditor(page, issued.body.url);
    await expect.poll(() => page.locator('.arecipient').allInnerTexts()).toEqual(['tenant', 'landlord']);
    await page.getByRole('radio', { name: 'landlord' }).check();
    const scale = await pixelsPerPoint(page, 612);
    await sheet(page).scrollIntoViewIfNeeded();
    await dragFromPalette(page, 'initial', 300 * scale, 200 * scale);
    await saved(page);
    const template = await call<{ fields: ApiField[] }>('GET', `/v1/templates/${created.body.id}`, { token: bearer });
    expect(template.body.fields.map((f) => [f.role, f.type])).toEqual([['tenant', 'signature'], ['landlord', 'initial']]);
    const placed = template.body.fields[1];
    expect(Math.abs((placed?.x ?? 0) - (300 - 30))).toBeLessThan(0.5);
    expect(Math.abs((placed?.y ?? 0) - (792 - 200 - 18))).toBeLessThan(0.5);
  });
});
