/** Settings → Branding and an envelope's Reassign in the console at 1280 px: what the browser does, then what the API holds. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call } from '../support/api.ts';
import { axe, summary, unique } from './support.ts';
import { consoleBrowser, consoleUrl, draftEnvelope, sentEnvelope, shot, tenantOf, useToken } from './console-support.ts';

const session = consoleBrowser({ width: 1280, height: 900 }, 'browser console branding');

const LOGO = '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40"><rect width="160" height="40" fill="#111"/><text x="10" y="28" fill="#ffd400">ACME</text></svg>';
const file = (name: string, mimeType: string, buffer: Buffer) => ({ name, mimeType, buffer });

/** Waits for the header to name the organisation and show its logo; answers its background and text colours. */
async function brandedHeader(page: Page, selector: string): Promise<string[]> {
  const header = page.locator(selector);
  await expect.poll(() => header.locator('.site-name').innerText()).toBe('Acme Corp');
  await header.locator('img.brand-logo').waitFor();
  return page.evaluate<string[]>(`(() => { const s = getComputedStyle(document.querySelector(${JSON.stringify(selector)})); return [s.backgroundColor, s.color]; })()`);
}

interface Branding { organizationName: string | null; primaryColor: string | null; replyTo: string | null; supportEmail: string | null; logo: { contentType: string } | null; effective: { primaryColor: string; organizationName: string; textColor: string } | null }

describe('console branding and reassignment', () => {
  it('sets the application\'s branding, shows the API\'s refusal of a bad logo, and brands its own header', async () => {
    const { page, bearer, errors } = session;
    await useToken(page, bearer);
    await page.goto(consoleUrl('settings'));
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await expect.poll(() => page.getByLabel('Organisation name').isEnabled()).toBe(true);
    await page.getByLabel('Organisation name').fill('Acme Corp');
    await page.getByLabel('Colour (#rrggbb)').fill('#ffd400');
    await page.getByLabel('Sender name of the emails').fill('Acme Contracts');
    await page.getByLabel('Reply-to address').fill('contracts@acme.example');
    await page.getByLabel('Support address').fill('help@acme.example');
    // A yellow takes black text (the API's rule, shown before saving), and links a darker shade
    expect(await page.getByTestId('contrast').innerText()).toMatch(/^Text on this colour: black \(contrast 1[0-9]\.\d:1\)\. Links on white: #[0-9a-f]{6}\.$/);

    await page.getByLabel('Logo (PNG or SVG, at most 200 KB)').setInputFiles(file('huge.png', 'image/png', Buffer.alloc(210 * 1024, 7)));
    await page.getByRole('button', { name: 'Save branding' }).click();
    await page.getByText('The logo is larger than 200 KB. Choose a smaller file.').waitFor();
    await page.getByLabel('Logo (PNG or SVG, at most 200 KB)').setInputFiles(file('page.svg', 'image/svg+xml', Buffer.from('<html><body>not a drawing</body></html>')));
    await page.getByRole('button', { name: 'Save branding' }).click();
    await page.getByText(/^The logo is not a PNG or SVG file that can be used: /).waitFor();
    expect((await call<Branding>('GET', '/v1/console/branding', { token: bearer })).body.organizationName).toBeNull();

    await page.getByLabel('Logo (PNG or SVG, at most 200 KB)').setInputFiles(file('acme.svg', 'image/svg+xml', Buffer.from(LOGO)));
    await page.getByRole('button', { name: 'Save branding' }).click();
    await page.getByText('The branding was saved. Envelopes created from now on take it.').waitFor();
    const saved = (await call<Branding>('GET', '/v1/console/branding', { token: bearer })).body;
    expect(saved).toMatchObject({ organizationName: 'Acme Corp', primaryColor: '#ffd400', replyTo: 'contracts@acme.example', supportEmail: 'help@acme.example', logo: { contentType: 'image/svg+xml' } });
    expect(saved.effective?.textColor).toBe('#000000');

    // The console's own header takes the application's branding: name, logo, colour and its text colour
    expect(await brandedHeader(page, 'header.console-header')).toEqual(['rgb(255, 212, 0)', 'rgb(0, 0, 0)']);
    await shot(page, 'branding-1280');
    expect(summary(await axe(page))).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('overrides a field for one tenant, the rest staying the application\'s', async () => {
    const { page, bearer, errors } = session;
    const tenant = tenantOf('branded');
    await page.goto(consoleUrl('settings'));
    await page.getByLabel('Tenant', { exact: true }).fill(tenant);
    await page.getByRole('button', { name: 'Show branding' }).click();
    await page.getByText(`The override of tenant ${tenant}: an empty field keeps the value shown in grey.`).waitFor();
    await expect.poll(() => page.getByLabel('Organisation name').getAttribute('placeholder')).toBe('Acme Corp');
    await page.getByLabel('Organisation name').fill('Acme Retail');
    await page.getByRole('button', { name: 'Save branding' }).click();
    await page.getByText('The branding was saved. Envelopes created from now on take it.').waitFor();
    const override = (await call<Branding>('GET', `/v1/console/tenants/${tenant}/branding`, { token: bearer })).body;
    expect(override).toMatchObject({ organizationName: 'Acme Retail', primaryColor: null, effective: { organizationName: 'Acme Retail', primaryColor: '#ffd400' } });
    // The application's own stays as it was
    expect((await call<Branding>('GET', '/v1/console/branding', { token: bearer })).body.organizationName).toBe('Acme Corp');
    expect(errors).toEqual([]);
  });

  it('hands a signer\'s place to someone else from the envelope\'s screen', async () => {
    const { page, bearer, errors } = session;
    const tenant = tenantOf('reassign');
    const envelope = await sentEnvelope(bearer, tenant, 'Supply agreement', unique('dana'));
    const carla = unique('carla');
    await page.goto(consoleUrl(`envelopes/${envelope.id}`));
    await page.getByRole('heading', { level: 1, name: 'Supply agreement' }).waitFor();
    await page.getByRole('button', { name: 'Reassign the place of Dana Signer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Someone else signs for Dana Signer' });
    await dialog.waitFor();
    await dialog.getByLabel('Name of the new signer').fill('Carla Nunes');
    await dialog.getByLabel('Email of the new signer').fill(carla);
    await dialog.getByLabel('Reason (optional)').fill('Dana is on leave');
    expect(summary(await axe(page))).toEqual([]);
    await shot(page, 'reassign-dialog-1280');
    await dialog.getByRole('button', { name: 'Reassign' }).click();
    await page.getByText('Carla Nunes now signs in place of Dana Signer.').waitFor();

    const after = (await call<{ signers: { id: string; name: string; email: string; status: string }[]; auditLog: { event: string; detail: Record<string, unknown> }[] }>('GET', `/v1/envelopes/${envelope.id}`, { token: bearer })).body;
    expect(after.signers).toEqual([expect.objectContaining({ id: envelope.signers[0]?.id, name: 'Carla Nunes', email: carla, status: 'sent' })]);
    expect(after.auditLog.find((e) => e.event === 'signer.reassigned')?.detail).toMatchObject({ to: { name: 'Carla Nunes', email: carla }, by: 'sender', reason: 'Dana is on leave' });
    await page.locator('.signers').getByText(carla).waitFor();
    await page.locator('.timeline').getByText('handed the place of Dana Signer to Carla Nunes.').waitFor();
    expect(errors).toEqual([]);
  });

  it('opens the editor with the draft\'s branding in its header', async () => {
    const { page, bearer, errors } = session;
    const draft = await draftEnvelope(bearer, tenantOf('editor'), 'Branded draft', unique('erin'));
    const issued = await call<{ url: string }>('POST', `/v1/envelopes/${draft.id}/authoring-url`, { token: bearer, json: { mode: 'full' } });
    expect(issued.status).toBe(200);
    await page.goto(issued.body.url);
    expect(await brandedHeader(page, 'header.site-header')).toEqual(['rgb(255, 212, 0)', 'rgb(0, 0, 0)']);
    await shot(page, 'editor-branded-1280');
    expect(errors).toEqual([]);
  });
});
