/**
 * At 360 px: a field appearing when its condition becomes true, a validation message before Finish, and
 * "someone else should sign" handing the place over. Screenshots under /tmp/reassign-conditions/.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call } from '#test/support/api.ts';
import type { EnvelopeBody } from '#test/support/envelopes.ts';
import { axe, contractPdf, sendEnvelope, summary, unique, useBrowser } from './support.ts';

const SHOTS = '/tmp/reassign-conditions';
mkdirSync(SHOTS, { recursive: true });
const shot = (p: Page, name: string) => p.screenshot({ path: `${SHOTS}/${name}.png` });

let bearer: string;
let page: Page;
let errors: string[];
useBrowser({ width: 360, height: 740, mobile: true }, 'browser conditions', (session) => { ({ page, bearer, errors } = session); });

describe('conditional fields, validation and handing over at 360 px', { timeout: 120_000 }, () => {
  it('shows a field when its condition holds, explains a mismatch before Finish, and hands the place to someone else', async () => {
    const [email, colleague] = [unique('cond-phone'), unique('colleague')];
    const { envelope, links } = await sendEnvelope(bearer, {
      tenantId: 'browser-cond', subject: 'Supplier form', allowReassign: true,
      signers: [{ name: 'Ines Ortega', email, authMethod: 'none' }],
      fields: [
        { signerIndex: 0, type: 'checkbox', page: 1, x: 72, y: 700, w: 16, h: 16, label: 'Company', required: false },
        { signerIndex: 0, type: 'text', page: 1, x: 72, y: 660, w: 250, h: 24, label: 'Company name', showIf: { label: 'Company', equals: 'true' } },
        { signerIndex: 0, type: 'text', page: 1, x: 72, y: 620, w: 250, h: 24, label: 'Contact email', validation: { format: 'email' } },
        { signerIndex: 0, type: 'signature', page: 1, x: 72, y: 100, w: 200, h: 60 },
      ],
    }, await contractPdf({ pages: 1 }));
    const [box, name, contact] = envelope.fields.map((f) => f.id);

    await page.goto(links[0] ?? '');
    await page.getByRole('heading', { level: 1, name: 'Agree to sign electronically' }).waitFor();
    await page.getByText('I agree to use electronic records').tap();
    await page.getByRole('button', { name: 'Continue to the document' }).tap();
    await page.locator('.sheet.is-rendered').waitFor();

    const nameBox = page.locator(`[data-field-id="${name ?? ''}"]`).first();
    expect(await nameBox.isHidden()).toBe(true);
    await shot(page, 'c01-condition-false');
    await page.locator(`input[data-field-id="${box ?? ''}"]`).check();
    await nameBox.waitFor({ state: 'visible' });
    expect(await nameBox.getAttribute('aria-label')).toBe('Company name: text field 1 of 3, required, page 1');
    await page.getByText('0 of 3 required fields done').waitFor();
    await nameBox.scrollIntoViewIfNeeded();
    await shot(page, 'c02-condition-true');
    await page.locator(`input[data-field-id="${box ?? ''}"]`).uncheck();
    await nameBox.waitFor({ state: 'hidden' });

    await page.locator(`button[data-field-id="${contact ?? ''}"]`).tap();
    const editor = page.getByRole('dialog', { name: 'Contact email' });
    await editor.waitFor();
    await editor.locator('textarea').fill('not an address');
    await editor.getByRole('button', { name: 'Done' }).tap();
    await editor.getByText('Enter an email address, such as name@example.com.').waitFor();
    expect(await editor.locator('textarea').getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'c03-validation-message');
    expect(summary(await axe(page))).toEqual([]);
    await editor.locator('textarea').fill('ines@example.com');
    await editor.getByRole('button', { name: 'Done' }).tap();
    await editor.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Someone else should sign' }).tap();
    const handover = page.getByRole('dialog', { name: 'Someone else should sign?' });
    await handover.waitFor();
    await handover.getByLabel('Their full name').fill('Tomás Ruiz');
    await handover.getByLabel('Their email address').fill(colleague);
    await handover.getByLabel('Reason (optional)').fill('Tomás manages suppliers');
    await shot(page, 'c04-someone-else');
    expect(summary(await axe(page))).toEqual([]);
    await handover.getByRole('button', { name: 'Send to this person' }).tap();
    await page.locator('[data-done="reassigned"]').waitFor();
    await shot(page, 'c05-handed-over');
    expect(summary(await axe(page))).toEqual([]);

    const after = (await call<EnvelopeBody>('GET', `/v1/envelopes/${envelope.id}`, { token: bearer })).body;
    expect(after.signers[0]).toMatchObject({ email: colleague, status: 'sent' });
    expect(after.auditLog?.find((e) => e.event === 'signer.reassigned')?.detail).toMatchObject({ by: 'signer', reason: 'Tomás manages suppliers' });
    await page.reload();
    await page.locator('[data-problem="replaced"]').waitFor();
    await shot(page, 'c06-old-link');
    expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
  });
});
