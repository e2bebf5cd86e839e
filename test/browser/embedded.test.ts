import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiUrl, call } from '#test/support/api.ts';
import { sigField } from '#test/support/envelopes.ts';
import { contractPdf, sendEnvelope, unique, useBrowser } from './support.ts';

let page: Page;
let bearer: string;
useBrowser({ width: 1280, height: 900 }, 'browser embedded', (session) => {
  page = session.page;
  bearer = session.bearer;
});

async function embeddedUrl(returnUrl: string | null = null): Promise<string> {
  const { envelope } = await sendEnvelope(bearer, {
    tenantId: 'browser', subject: 'Embedded contract', signers: [{ name: 'Emma Embed', email: unique('embed'), authMethod: 'none', embedded: true }], fields: [sigField(0)],
  }, await contractPdf({ pages: 1 }));
  const issued = await call<{ url: string }>('POST', `/v1/envelopes/${envelope.id}/signers/${envelope.signers[0]?.id ?? ''}/embedded-url`, { token: bearer, json: { returnUrl } });
  expect(issued.status).toBe(200);
  return issued.body.url;
}

const events = (p: Page) => p.evaluate<string[]>("[...document.querySelectorAll('#events li')].map((item) => item.dataset.type)");

describe('embedded signing in a frame (decision 36)', () => {
  it('on an allowed origin the framed page posts loaded, then declined, to the parent', async () => {
    expect((await call('PUT', '/v1/console/settings', { token: bearer, json: { embedOrigins: [new URL(apiUrl()).origin] } })).status).toBe(200);
    await page.goto(`${apiUrl()}/_local/embed-demo?url=${encodeURIComponent(await embeddedUrl())}`);
    const frame = page.frameLocator('#signer');
    await frame.getByRole('heading', { level: 1, name: 'Agree to sign electronically' }).waitFor();
    await expect.poll(() => events(page)).toEqual(['loaded']);
    await frame.getByRole('button', { name: 'Decline to sign' }).click();
    const dialog = frame.getByRole('dialog', { name: 'Decline to sign?' });
    await dialog.getByLabel('Reason for declining').fill('Not today.');
    await dialog.getByRole('button', { name: 'Decline to sign' }).click();
    await frame.locator('[data-done="declined"]').waitFor();
    await expect.poll(() => events(page)).toEqual(['loaded', 'declined']);
  });

  it('on an origin that is not allowed the page does not render in the frame and posts nothing', async () => {
    expect((await call('PUT', '/v1/console/settings', { token: bearer, json: { embedOrigins: ['https://app.example.com'] } })).status).toBe(200);
    const url = await embeddedUrl();
    const blocked = page.waitForEvent('console', { predicate: (m) => m.text().includes('frame-ancestors'), timeout: 15_000 });
    await page.goto(`${apiUrl()}/_local/embed-demo?url=${encodeURIComponent(url)}`);
    await blocked;
    expect(await page.frameLocator('#signer').locator('.site-header').count()).toBe(0);
    expect(await events(page)).toEqual([]);
    // The URL was never opened, so it still works where it is allowed
    const open = await fetch(`${new URL(url).origin}/v1/embedded/${url.split('/embed/')[1] ?? ''}/open`, { method: 'POST' });
    expect(open.status).toBe(200);
  });

  it('not framed, the page goes to returnUrl with the event when the visit ends', async () => {
    const back = `${apiUrl()}/_local/embed-demo`;
    await page.goto(await embeddedUrl(back));
    await page.getByRole('button', { name: 'Decline to sign' }).click();
    const dialog = page.getByRole('dialog', { name: 'Decline to sign?' });
    await dialog.getByLabel('Reason for declining').fill('Not today.');
    await dialog.getByRole('button', { name: 'Decline to sign' }).click();
    await page.waitForURL(`${back}?event=declined`);
  });
});
