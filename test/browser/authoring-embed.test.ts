/**
 * The editor framed by an integrator's page through <esign-author>: its events reach an allowed origin as DOM events;
 * an origin that is not allowed cannot frame it and hears nothing. Not framed, Done goes back to returnUrl?event=saved.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiUrl, call } from '../support/api.ts';
import { draftWithEditor, openEditor, saved } from './authoring-support.ts';
import { signingUrl, useBrowser } from './support.ts';

let page: Page;
let bearer: string;
useBrowser({ width: 1280, height: 900 }, 'browser authoring embed', (session) => {
  page = session.page;
  bearer = session.bearer;
});

const INTEGRATOR = 'https://integrator.test';

/** The integrator's page (served by the test): the custom element and a list of the events it heard. */
async function integratorPage(editorUrl: string): Promise<void> {
  const html = `<!doctype html><html lang="en"><head><title>Integrator</title><script src="${signingUrl()}/esign-author.js"></script></head>
<body><h1>Prepare</h1><esign-author url="${editorUrl}" title="Contract editor"></esign-author><ol id="events"></ol>
<script>
  const list = document.getElementById('events');
  for (const type of ['authoring.loaded', 'authoring.saved', 'authoring.sent', 'authoring.closed', 'error']) {
    document.querySelector('esign-author').addEventListener(type, (event) => {
      const item = document.createElement('li');
      item.dataset.type = type;
      item.textContent = JSON.stringify(event.detail);
      list.append(item);
    });
  }
</script></body></html>`;
  await page.route(`${INTEGRATOR}/**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: html }));
  await page.goto(`${INTEGRATOR}/prepare`);
}

const heard = (p: Page) => p.evaluate<{ type: string; detail: Record<string, unknown> }[]>(
  "[...document.querySelectorAll('#events li')].map((item) => ({ type: item.dataset.type, detail: JSON.parse(item.textContent) }))");

describe('<esign-author> on an integrator page', () => {
  it('re-emits the editor\'s events (loaded, saved, closed) when the origin is allowed', async () => {
    expect((await call('PUT', '/v1/console/settings', { token: bearer, json: { embedOrigins: [INTEGRATOR] } })).status).toBe(200);
    const draft = await draftWithEditor(bearer);
    await integratorPage(draft.url);
    const frame = page.frameLocator('esign-author >> iframe');
    await frame.locator('.apage-canvas[data-drawn]').first().waitFor();
    await expect.poll(async () => (await heard(page)).map((e) => e.type)).toEqual(['authoring.loaded']);
    expect((await heard(page))[0]?.detail).toEqual({ source: 'esign', type: 'authoring.loaded', envelopeId: draft.id });

    await frame.getByRole('button', { name: 'Text', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await heard(page)).map((e) => e.type)).toContain('authoring.saved');
    await frame.getByRole('button', { name: 'Done', exact: true }).click();
    await expect.poll(async () => (await heard(page)).map((e) => e.type).at(-1)).toBe('authoring.closed');
  });

  it('an origin that is not allowed cannot frame the editor and hears nothing', async () => {
    expect((await call('PUT', '/v1/console/settings', { token: bearer, json: { embedOrigins: ['https://app.example.com'] } })).status).toBe(200);
    const draft = await draftWithEditor(bearer);
    const blocked = page.waitForEvent('console', { predicate: (m) => m.text().includes('frame-ancestors'), timeout: 15_000 });
    await integratorPage(draft.url);
    await blocked;
    expect(await page.frameLocator('esign-author >> iframe').locator('.author').count()).toBe(0);
    expect(await heard(page)).toEqual([]);
  });
});

describe('not framed', () => {
  it('Done goes to returnUrl?event=saved once every change is saved', async () => {
    const back = `${apiUrl()}/_local/embed-demo`;
    const draft = await draftWithEditor(bearer, { returnUrl: back });
    await openEditor(page, draft.url);
    await page.getByRole('button', { name: 'Signature', exact: true }).focus();
    await page.keyboard.press('Enter');
    await saved(page);
    await page.getByRole('button', { name: 'Done', exact: true }).click();
    await page.waitForURL(`${back}?event=saved`);
  });
});
