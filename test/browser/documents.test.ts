/**
 * A contract and its annex in one envelope on a 360 px phone (decision 9, decision 17): both documents under their
 * names, the guide walking the required fields across them, fields named by their labels, a prefill kept, a
 * read-only value shown but not offered; the second signer sees what the first entered; the download page
 * offers each sealed document.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call, outboxFor } from '#test/support/api.ts';
import { settle, tokenOf } from '#test/support/signing.ts';
import { axe, contractPdf, drawWithMouse, focusedField, screenshot, signingUrl, summary, unique, useBrowser } from './support.ts';

let bearer: string;
let page: Page;
let errors: string[];

useBrowser({ width: 360, height: 740 }, 'browser documents', (session) => { ({ page, bearer, errors } = session); });

const overflows = (p: Page) => p.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth');

interface Created { id: string; signers: { id: string; signingUrl?: string | null }[]; fields: { id: string; label: string | null }[]; documents: { id: string; kind: string; name: string; sha256: string }[] }

async function createAndSend(ana: string, ben: string): Promise<{ envelope: Created; anaLink: string }> {
  const form = new FormData();
  form.append('data', JSON.stringify({
    tenantId: 'documents', subject: 'Supply agreement',
    signers: [{ name: 'Ana Silva', email: ana, routingOrder: 1, authMethod: 'none' }, { name: 'Ben Okafor', email: ben, routingOrder: 2, authMethod: 'none' }],
    fields: [
      { signerIndex: 0, documentIndex: 0, type: 'text', page: 1, x: 72, y: 500, w: 250, h: 24, label: 'Company', value: 'Acme Ltd' },
      { signerIndex: 0, documentIndex: 0, type: 'text', page: 1, x: 72, y: 440, w: 250, h: 24, label: 'Contract number', value: 'C-2026-42', readOnly: true },
      { signerIndex: 0, documentIndex: 1, type: 'text', page: 1, x: 72, y: 500, w: 250, h: 24, label: 'Job title' },
      { signerIndex: 0, documentIndex: 1, type: 'checkbox', page: 1, x: 72, y: 440, w: 24, h: 24, label: 'Annex read', required: false },
      { signerIndex: 0, documentIndex: 1, type: 'signature', page: 1, x: 72, y: 300, w: 200, h: 60, label: 'Supplier signature' },
      { signerIndex: 1, documentIndex: 1, type: 'signature', page: 1, x: 330, y: 300, w: 200, h: 60, label: 'Buyer signature' },
    ],
  }));
  form.append('file', new Blob([await contractPdf({ pages: 2 })], { type: 'application/pdf' }), 'contract.pdf');
  form.append('file', new Blob([await contractPdf({ pages: 1 })], { type: 'application/pdf' }), 'annex.pdf');
  const created = await call<Created>('POST', '/v1/envelopes', { token: bearer, form });
  if (created.status !== 201) throw new Error(`create: ${String(created.status)} ${JSON.stringify(created.body)}`);
  const sent = await call<Created>('POST', `/v1/envelopes/${created.body.id}/send`, { token: bearer });
  if (sent.status !== 200) throw new Error(`send: ${String(sent.status)} ${JSON.stringify(sent.body)}`);
  return { envelope: sent.body, anaLink: `${signingUrl()}/sign/${tokenOf(sent.body.signers[0]?.signingUrl)}` };
}

async function consent(): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'Agree to sign electronically' }).waitFor();
  await page.getByText('I agree to use electronic records').click();
  await page.getByRole('button', { name: 'Continue to the document' }).click();
  await page.locator('.sheet.is-rendered').first().waitFor();
}

async function sign(fieldId: string, dialogName: string): Promise<void> {
  await page.locator(`[data-field-id="${fieldId}"]`).click();
  const dialog = page.getByRole('dialog', { name: dialogName });
  await dialog.waitFor();
  await drawWithMouse(page, dialog.locator('canvas.pad'));
  await dialog.getByRole('button', { name: 'Sign', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('a contract and its annex on a 360 px phone', { timeout: 180_000 }, () => {
  it('walks both documents by label, then shows the second signer the first one’s entries, then offers both sealed documents', async () => {
    const [ana, ben] = [unique('ana'), unique('ben')];
    const { envelope, anaLink } = await createAndSend(ana, ben);
    const id = (label: string) => envelope.fields.find((f) => f.label === label)?.id ?? '';

    // The first signer: both documents, in order, under their names
    await page.goto(anaLink);
    await consent();
    expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual(['contract.pdf (document 1 of 2)', 'annex.pdf (document 2 of 2)']);
    expect(await page.evaluate<number[]>("[...document.querySelectorAll('section.document')].map((s) => s.querySelectorAll('.sheet').length)")).toEqual([2, 1]);
    // Labels on the page and in the names; the prefill shown and counted; the read-only value shown, not offered
    const jobTitle = page.locator(`[data-field-id="${id('Job title')}"]`);
    expect(await jobTitle.innerText()).toBe('Job title');
    expect(await jobTitle.getAttribute('aria-label')).toMatch(/^Job title: text field/);
    expect(await page.locator(`[data-field-id="${id('Company')}"]`).getAttribute('aria-label')).toMatch(/^Company: “Acme Ltd”/);
    expect(await page.locator(`[data-field-id="${id('Company')}"] .text-value`).innerText()).toBe('Acme Ltd');
    expect(await page.locator(`[data-field-id="${id('Supplier signature')}"]`).innerText()).toBe('Supplier signature');
    expect(await page.getByRole('checkbox', { name: /^Annex read: Checkbox/ }).count()).toBe(1);
    const fixed = page.locator(`[data-shown-id="${id('Contract number')}"]`);
    expect(await fixed.locator('.text-value').innerText()).toBe('C-2026-42');
    expect(await fixed.locator('.visually-hidden').innerText()).toBe('Contract number: C-2026-42 (filled in for you, cannot be changed)');
    expect(await page.locator(`[data-field-id="${id('Contract number')}"], [data-shown-id="${id('Contract number')}"] button, [data-shown-id="${id('Contract number')}"] input`).count()).toBe(0);
    expect(await page.locator('#progress').innerText()).toBe('1 of 3 required fields done');
    expect(await overflows(page)).toBe(false);
    await screenshot(page, 'd01-two-documents', true);
    await fixed.scrollIntoViewIfNeeded();
    await screenshot(page, 'd01-contract-fields');
    await jobTitle.scrollIntoViewIfNeeded();
    await page.locator('section.document').nth(1).locator('.sheet.is-rendered').waitFor();
    await screenshot(page, 'd01-annex-fields');
    expect(summary(await axe(page))).toEqual([]);

    // The guide goes across documents by label: past the prefilled Company, to the annex
    const start = page.getByRole('button', { name: 'Start: Job title, annex.pdf, page 1' });
    await start.click();
    await expect.poll(() => focusedField(page)).toBe(id('Job title'));
    await jobTitle.click();
    const textDialog = page.getByRole('dialog', { name: 'Job title' });
    await textDialog.getByRole('textbox').fill('Director');
    await textDialog.getByRole('button', { name: 'Done' }).click();
    await textDialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('#announcer').textContent()).toBe('Done. Next: Supplier signature in annex.pdf, page 1.');
    await page.getByRole('button', { name: 'Next field: Supplier signature, annex.pdf, page 1' }).click();
    await expect.poll(() => focusedField(page)).toBe(id('Supplier signature'));
    await sign(id('Supplier signature'), 'Supplier signature');
    expect(await page.locator('#progress').innerText()).toBe('All required fields are done. Select Finish to sign.');
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.locator('[data-done="signed"]').waitFor();

    // The second signer sees the first one's entries in place, read-only
    await settle();
    const benLink = /https?:\/\/\S+\/sign\/\S+/.exec((await outboxFor(ben)).at(-1)?.text ?? '')?.[0];
    await page.goto(`${signingUrl()}/sign/${tokenOf(benLink)}`);
    await consent();
    const entered = (label: string) => page.locator(`[data-shown-id="${id(label)}"]`);
    expect(await entered('Company').locator('.text-value').innerText()).toBe('Acme Ltd');
    expect(await entered('Job title').locator('.visually-hidden').innerText()).toBe('Job title: Director (entered by Ana Silva)');
    expect(await entered('Supplier signature').locator('img.mark-image').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(await entered('Annex read').locator('.visually-hidden').innerText()).toBe('Annex read: not ticked (entered by Ana Silva)');
    expect(await page.locator('.field-shown').count()).toBeGreaterThanOrEqual(4);
    expect(await page.locator('.field-shown button, .field-shown input, .field-shown [tabindex]').count()).toBe(0);
    expect(await page.locator('#progress').innerText()).toBe('0 of 1 required field done');
    await entered('Supplier signature').scrollIntoViewIfNeeded();
    expect(await overflows(page)).toBe(false);
    await page.locator('section.document').nth(1).locator('.sheet.is-rendered').waitFor();
    await screenshot(page, 'd02-second-signer');
    expect(summary(await axe(page))).toEqual([]);
    await sign(id('Buyer signature'), 'Buyer signature');
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.locator('[data-done="signed"]').waitFor();

    // The download page: one link per sealed document, under its name, each the sealed document's bytes
    await settle();
    const done = (await call<Created & { status: string }>('GET', `/v1/envelopes/${envelope.id}`, { token: bearer })).body;
    expect(done.status).toBe('completed');
    const sealed = done.documents.filter((d) => d.kind === 'sealed');
    expect(sealed.map((d) => d.name)).toEqual(['contract.pdf', 'annex.pdf']);
    const mail = (await outboxFor(ana)).find((m) => m.subject?.startsWith('Completed'));
    const link = /https?:\/\/\S+\/download\/\S+/.exec(mail?.text ?? '')?.[0];
    await page.goto(link ?? '');
    await page.getByRole('heading', { level: 1, name: 'Supply agreement' }).waitFor();
    const links = page.getByRole('link', { name: /^Download / });
    expect(await links.allTextContents()).toEqual(['Download contract.pdf', 'Download annex.pdf']);
    expect(await overflows(page)).toBe(false);
    await screenshot(page, 'd03-download-two', true);
    expect(summary(await axe(page))).toEqual([]);
    for (const [i, doc] of sealed.entries()) {
      const [download] = await Promise.all([page.waitForEvent('download'), links.nth(i).click()]);
      expect(createHash('sha256').update(readFileSync(await download.path())).digest('hex')).toBe(doc.sha256);
    }
    expect(errors).toEqual([]);
  }, 180_000);
});
