/**
 * The editor sets a field's rules through the field routes: when it is shown (a condition naming another field by its
 * label), a text field's validation, an attachment field's formats and largest file. A rule the API refuses shows the
 * API's message and is taken back on screen; screenshots under /tmp/editor/.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { draftWithEditor, fieldsOf, openEditor, saved, type ApiField } from './authoring-support.ts';
import { settleFrames, useBrowser } from './support.ts';

let page: Page;
let bearer: string;
useBrowser({ width: 1280, height: 1000 }, 'browser authoring rules', (session) => {
  page = session.page;
  bearer = session.bearer;
});

const at = (type: string, label: string, y: number, extra: Record<string, unknown> = {}) => ({ signerIndex: 0, type, page: 1, x: 72, y, w: 150, h: 20, label, required: false, ...extra });
const byLabel = async (envelopeId: string, label: string): Promise<ApiField> => {
  const found = (await fieldsOf(bearer, envelopeId)).find((f) => f.label === label);
  if (!found) throw new Error(`no field ${label}`);
  return found;
};
const rules = (kind: string) => page.locator(`[data-rules="${kind}"]`);
const refused = async (text: string) => { await expect.poll(() => page.locator('.asave').innerText()).toContain(text); };

async function select(id: string): Promise<void> {
  await page.locator(`[data-field-id="${id}"]`).scrollIntoViewIfNeeded();
  await page.locator(`[data-field-id="${id}"]`).click();
  await settleFrames(page);
}

describe('a field\'s rules in the editor', () => {
  it('a condition names another field by its label; a label two fields carry is refused with the API\'s message and undone', async () => {
    const draft = await draftWithEditor(bearer, { fields: [
      at('checkbox', 'Company', 700, { w: 14, h: 14 }), at('text', 'Company name', 650), at('text', 'Twin', 600), at('text', 'Twin', 550),
    ] });
    await openEditor(page, draft.url);
    await select((await byLabel(draft.id, 'Company name')).id);
    await rules('condition').getByLabel('Field').selectOption('Company');
    await saved(page);
    expect((await byLabel(draft.id, 'Company name')).showIf).toMatchObject({ label: 'Company', equals: 'true' });
    // A checkbox is read as ticked or not
    await rules('condition').getByLabel('When it').selectOption('unticked');
    await expect.poll(async () => (await byLabel(draft.id, 'Company name')).showIf?.equals).toBe('false');

    // "Twin" is the label of two fields: the API refuses, the bar says why, the condition on screen is the saved one
    await rules('condition').getByLabel('Field').selectOption('Twin');
    await refused('must be unique');
    expect(await rules('condition').getByLabel('Field').inputValue()).toBe('Company');
    expect((await byLabel(draft.id, 'Company name')).showIf?.label).toBe('Company');
    mkdirSync('/tmp/editor', { recursive: true });
    await page.screenshot({ path: '/tmp/editor/rules-condition-refused.png' });

    // On a text field: equals a typed value; back to always shown
    await select((await byLabel(draft.id, 'Twin')).id);
    await rules('condition').getByLabel('Field').selectOption('Company name');
    await rules('condition').getByLabel('When it').selectOption('equals');
    await rules('condition').getByLabel('Value').fill('Acme');
    await rules('condition').getByLabel('Value').press('Tab');
    await expect.poll(async () => (await fieldsOf(bearer, draft.id)).find((f) => f.showIf?.label === 'Company name')?.showIf?.equals).toBe('Acme');
    await rules('condition').getByLabel('Field').selectOption('');
    await expect.poll(async () => (await fieldsOf(bearer, draft.id)).filter((f) => f.showIf).length).toBe(1);
  });

  it('a text field\'s format, lengths and pattern; an unsafe pattern is refused and undone', async () => {
    const draft = await draftWithEditor(bearer, { fields: [at('text', 'VAT number', 650)] });
    await openEditor(page, draft.url);
    const { id } = await byLabel(draft.id, 'VAT number');
    await select(id);
    const panel = rules('validation');
    await panel.getByLabel('Format').selectOption('email');
    await expect.poll(async () => (await byLabel(draft.id, 'VAT number')).validation).toEqual({ format: 'email' });
    await panel.getByLabel('Format').selectOption('');
    await panel.getByLabel('Fewest characters').fill('8');
    await panel.getByLabel('Most characters').fill('14');
    await panel.getByLabel('Pattern').fill('[A-Z]{2}[0-9A-Z]{8,12}');
    await panel.getByLabel('Pattern').press('Tab');
    await saved(page);
    await expect.poll(async () => (await byLabel(draft.id, 'VAT number')).validation).toEqual({ minLength: 8, maxLength: 14, pattern: '[A-Z]{2}[0-9A-Z]{8,12}' });

    await panel.getByLabel('Pattern').fill('(a)\\1');
    await panel.getByLabel('Pattern').press('Tab');
    await refused('validation.pattern');
    expect(await panel.getByLabel('Pattern').inputValue()).toBe('[A-Z]{2}[0-9A-Z]{8,12}');
    expect((await byLabel(draft.id, 'VAT number')).validation?.pattern).toBe('[A-Z]{2}[0-9A-Z]{8,12}');
    await page.screenshot({ path: '/tmp/editor/rules-validation-refused.png' });
    // Only text fields take a validation
    expect(await page.locator('[data-rules="validation"]').count()).toBe(1);
  });

  it('an attachment field\'s formats and largest file; over 10 MB is refused and undone', async () => {
    const draft = await draftWithEditor(bearer, { fields: [at('attachment', 'Proof of address', 650, { h: 30 })] });
    await openEditor(page, draft.url);
    const { id } = await byLabel(draft.id, 'Proof of address');
    await select(id);
    const panel = rules('attachment');
    expect(await page.locator('[data-rules="validation"]').count()).toBe(0);
    await panel.getByLabel('PNG').uncheck();
    await expect.poll(async () => (await byLabel(draft.id, 'Proof of address')).accept).toEqual(['pdf', 'jpeg']);
    const size = panel.getByLabel(/Largest file/);
    await size.fill('2');
    await size.press('Tab');
    await expect.poll(async () => (await byLabel(draft.id, 'Proof of address')).maxBytes).toBe(2 * 1024 * 1024);
    await size.fill('20');
    await size.press('Tab');
    await refused('maxBytes');
    expect(await size.inputValue()).toBe('2');
    expect((await byLabel(draft.id, 'Proof of address')).maxBytes).toBe(2 * 1024 * 1024);
    await page.screenshot({ path: '/tmp/editor/rules-attachment.png' });
  });
});
