/**
 * The editor's full mode against the local stack: documents added and removed (the API's document list after each),
 * and a template role renamed in the details view keeping its fields.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.ts';
import { draftWithEditor, openEditor, type ApiField } from './authoring-support.ts';
import { contractPdf, screenshot, useBrowser } from './support.ts';

let page: Page;
let bearer: string;
useBrowser({ width: 1280, height: 900 }, 'browser authoring details', (session) => {
  page = session.page;
  bearer = session.bearer;
});

interface ApiDocument { id: string; kind: string; name?: string }
const documentsOf = async (envelopeId: string) =>
  (await call<{ documents: ApiDocument[] }>('GET', `/v1/envelopes/${envelopeId}`, { token: bearer })).body.documents.filter((d) => d.kind === 'original');

describe('documents in full mode', () => {
  it('adds a PDF and removes one; the API lists what the page shows, and the pages follow', async () => {
    const draft = await draftWithEditor(bearer, { mode: 'full', pages: 1 });
    await openEditor(page, draft.url);
    const [first] = await documentsOf(draft.id);
    await page.getByRole('button', { name: 'Details', exact: true }).click();
    await page.getByLabel('Add a PDF document').setInputFiles({ name: 'annex.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await contractPdf({ pages: 3 })) });
    await expect.poll(async () => (await documentsOf(draft.id)).length).toBe(2);
    const added = (await documentsOf(draft.id)).find((d) => d.id !== first?.id);
    expect(added?.name).toBe('annex.pdf');
    await page.getByRole('button', { name: 'Remove annex.pdf' }).waitFor();
    await screenshot(page, 'editor-details-documents');

    // The fields view shows both documents' pages: 1 + 3
    await page.getByRole('button', { name: 'Fields', exact: true }).click();
    await expect.poll(() => page.locator('.apage').count()).toBe(4);
    expect(await page.locator(`.apage[data-document-id="${added?.id ?? ''}"]`).count()).toBe(3);

    // The first document removed: the API keeps only the annex, the page only its 3 pages
    await page.getByRole('button', { name: 'Details', exact: true }).click();
    const documents = page.locator('section[aria-labelledby="adetails-documents"]');
    await documents.getByRole('button', { name: 'Remove contract.pdf' }).click();
    await expect.poll(async () => (await documentsOf(draft.id)).map((d) => d.id)).toEqual([added?.id]);
    await expect.poll(() => documents.getByRole('button', { name: /^Remove / }).allInnerTexts()).toEqual(['Remove annex.pdf']);
    await page.getByRole('button', { name: 'Fields', exact: true }).click();
    await expect.poll(() => page.locator('.apage').count()).toBe(3);
  });
});

describe('template roles in full mode', () => {
  it('a role renamed keeps its fields, bound to the new name', async () => {
    const form = new FormData();
    form.append('data', JSON.stringify({
      tenantId: 'browser', name: 'Lease', roles: [{ role: 'tenant', authMethod: 'none' }, { role: 'landlord', routingOrder: 2, authMethod: 'none' }],
      fields: [
        { role: 'tenant', type: 'signature', page: 1, x: 72, y: 72, w: 160, h: 40 },
        { role: 'landlord', type: 'signature', page: 1, x: 300, y: 72, w: 160, h: 40 },
        { role: 'tenant', type: 'text', page: 1, x: 72, y: 200, w: 160, h: 20, label: 'Address' },
      ],
    }));
    form.append('file', new Blob([await contractPdf({ pages: 1 })], { type: 'application/pdf' }), 'lease.pdf');
    const created = await call<{ id: string }>('POST', '/v1/templates', { token: bearer, form });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const issued = await call<{ url: string }>('POST', `/v1/templates/${created.body.id}/authoring-url`, { token: bearer, json: { mode: 'full' } });
    await openEditor(page, issued.body.url);
    await page.getByRole('button', { name: 'Details', exact: true }).click();
    const name = page.getByLabel('Role', { exact: true }).first();
    expect(await name.inputValue()).toBe('tenant');
    await name.fill('Tenant (main)');
    await name.press('Tab');
    const fieldsOf = async () => (await call<{ fields: ApiField[]; roles: { role: string }[] }>('GET', `/v1/templates/${created.body.id}`, { token: bearer })).body;
    await expect.poll(async () => (await fieldsOf()).roles.map((r) => r.role)).toEqual(['Tenant (main)', 'landlord']);
    expect((await fieldsOf()).fields.map((f) => f.role)).toEqual(['Tenant (main)', 'landlord', 'Tenant (main)']);
    // The fields view offers the new name as a recipient, with its two fields
    await page.getByRole('button', { name: 'Fields', exact: true }).click();
    await expect.poll(() => page.locator('.arecipient').allInnerTexts()).toEqual(['Tenant (main)', 'landlord']);
    expect(await page.locator('.afield').count()).toBe(3);
  });
});
