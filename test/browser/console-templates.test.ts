/** Templates and settings in the console at 1280 px: a template's bulk send with its CSV previewed (errors first), embed origins, webhooks. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.ts';
import { axe, contractPdf, summary, unique, useBrowser } from './support.ts';
import { consoleUrl, shot, tenantOf, useToken } from './console-support.ts';

let page: Page;
let bearer: string;
let errors: string[];
useBrowser({ width: 1280, height: 900 }, 'browser console templates', (session) => {
  page = session.page;
  bearer = session.bearer;
  errors = session.errors;
});

const csv = (rows: string[]) => ({ name: 'recipients.csv', mimeType: 'text/csv', buffer: Buffer.from(`client.name,client.email\n${rows.join('\n')}\n`) });

async function template(tenant: string): Promise<string> {
  const form = new FormData();
  form.append('data', JSON.stringify({
    tenantId: tenant, name: 'Master services agreement', subject: 'Please sign the MSA',
    roles: [{ role: 'client', authMethod: 'none' }], fields: [{ role: 'client', type: 'signature', page: 1, x: 72, y: 72, w: 160, h: 40 }],
  }));
  form.append('file', new Blob([await contractPdf({ pages: 1 })], { type: 'application/pdf' }), 'msa.pdf');
  const created = await call<{ id: string }>('POST', '/v1/templates', { token: bearer, form });
  if (created.status !== 201) throw new Error(`template: ${String(created.status)}`);
  return created.body.id;
}

describe('console templates and settings', () => {
  it('lists a tenant\'s templates, previews a CSV with its errors, then bulk-sends a good one', async () => {
    const tenant = tenantOf('templates');
    await template(tenant);
    await useToken(page, bearer);
    await page.goto(consoleUrl('templates'));
    await page.getByLabel('Tenant').fill(tenant);
    await page.getByRole('button', { name: 'Show templates' }).click();
    await page.getByRole('link', { name: 'Master services agreement' }).click();
    await page.getByRole('heading', { level: 1, name: 'Master services agreement' }).waitFor();

    await page.getByLabel('CSV file', { exact: true }).setInputFiles(csv([`Ann Client,${unique('ann')}`, 'Bob Client,not-an-email']));
    await page.getByText('2 rows, 1 with errors').waitFor();
    expect(await page.locator('tr.row-error').innerText()).toContain('no valid email for client');
    expect(await page.getByRole('button', { name: 'Send 2 envelopes' }).isDisabled()).toBe(true);
    await shot(page, 'bulk-preview-1280');
    expect(summary(await axe(page))).toEqual([]);

    await page.getByLabel('CSV file', { exact: true }).setInputFiles(csv([`Ann Client,${unique('ann')}`, `Bob Client,${unique('bob')}`]));
    await page.getByText('2 rows, no errors').waitFor();
    await page.getByRole('button', { name: 'Send 2 envelopes' }).click();
    await page.getByText('2 envelopes sent, none failed.').waitFor({ timeout: 45_000 });
    const sent = await call<{ total: number }>('GET', `/v1/envelopes?tenantId=${tenant}&status=sent`, { token: bearer });
    expect(sent.body.total).toBe(2);
    expect(errors).toEqual([]);
  });

  it('saves embed origins and lists the webhooks', async () => {
    const hook = await call<{ id: string }>('POST', '/v1/webhooks', { token: bearer, json: { url: 'https://hooks.example.com/esign', events: ['envelope.completed'] } });
    expect(hook.status).toBe(201);
    await page.goto(consoleUrl('settings'));
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    // The field takes input once the settings in force are shown in it
    await expect.poll(() => page.getByLabel('Sites that may show the signing page in a frame').isEnabled()).toBe(true);
    await page.getByLabel('Sites that may show the signing page in a frame').fill('https://app.example.com\nhttps://portal.example.com');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
    expect((await call<{ embedOrigins: string[] }>('GET', '/v1/console/settings', { token: bearer })).body.embedOrigins).toEqual(['https://app.example.com', 'https://portal.example.com']);
    await page.getByText('https://hooks.example.com/esign').click();
    await page.getByText('No failed deliveries.').waitFor();
    await shot(page, 'settings-1280');
    expect(summary(await axe(page))).toEqual([]);
    expect(errors).toEqual([]);
  });
});
