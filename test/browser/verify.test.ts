/**
 * The verification page (/verify) on a 360 px phone and on a desktop: a sealed PDF picked with the keyboard or dropped
 * is checked in the browser, and no request carries it (the only API call is GET /v1/verify/...); a changed byte fails;
 * opened from a certificate's QR address it shows the service's record first; German; axe finds nothing.
 */
import type { Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { PDFName } from 'pdf-lib';
import { appendIncrementalUpdate, openForUpdate } from '#shared/sealing/incremental.ts';
import { call } from '#test/support/api.ts';
import { passGates, settle, signing, valuesFor, type ContextBody } from '#test/support/signing.ts';
import { axe, contractPdf, screenshot, sendEnvelope, signingUrl, summary, unique, useBrowser } from './support.ts';

let bearer: string;
let page: Page;
let errors: string[];
useBrowser({ width: 360, height: 740, mobile: true }, 'browser verify', (session) => { ({ page, bearer, errors } = session); });

let sealed: Uint8Array;
let envelopeId: string;
let originalId: string;
beforeAll(async () => {
  const { envelope, tokens } = await sendEnvelope(bearer, {
    tenantId: 'verify', subject: 'Verified lease', signers: [{ name: 'Vera Fier', email: unique('verify'), authMethod: 'none' }],
    fields: [{ signerIndex: 0, type: 'signature', page: 1, x: 72, y: 72, w: 200, h: 50 }],
  }, await contractPdf({ pages: 1 }));
  const token = tokens[0] ?? '';
  await passGates(token, null);
  const context = (await signing<ContextBody>('GET', token)).body;
  expect((await signing('POST', token, '/sign', { fields: valuesFor(context) })).status).toBe(200);
  await settle();
  envelopeId = envelope.id;
  const original = envelope.documents.find((d) => d.kind === 'original')?.id;
  originalId = typeof original === 'string' ? original : '';
  sealed = (await call('GET', `/v1/envelopes/${envelopeId}/document?kind=sealed`, { token: bearer })).bytes;
  expect(sealed.length).toBeGreaterThan(1000);
}, 120_000);

/** Every request the page makes, with its method and whether it had a body. */
function recordRequests(p: Page): { url: string; method: string; body: number }[] {
  const seen: { url: string; method: string; body: number }[] = [];
  p.on('request', (request: Request) => { seen.push({ url: request.url(), method: request.method(), body: request.postDataBuffer()?.length ?? 0 }); });
  return seen;
}

/** The space between the result's two buttons (Export, Check another file): beside or below each other; 0 or less when they touch. */
async function buttonsGap(p: Page): Promise<number> {
  const [a, b] = await Promise.all([p.locator('[data-export]').boundingBox(), p.getByRole('button', { name: 'Check another file' }).boundingBox()]);
  if (!a || !b) throw new Error('the result buttons are not shown');
  return Math.max(b.x - (a.x + a.width), a.x - (b.x + b.width), b.y - (a.y + a.height), a.y - (b.y + b.height));
}

/** A copy of the screenshot where a person looks at it (the task's folder). */
async function keep(p: Page, name: string): Promise<void> {
  await p.screenshot({ path: `/tmp/verify-finish/${name}.png`, fullPage: true });
}

const overflows = (p: Page) => p.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth');

/** Drops `bytes` on the drop zone as a file, the way a desktop drag does. */
async function drop(p: Page, bytes: Uint8Array, name: string): Promise<void> {
  await p.evaluate(`(() => {
    const bytes = Uint8Array.from(atob(${JSON.stringify(Buffer.from(bytes).toString('base64'))}), (c) => c.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], ${JSON.stringify(name)}, { type: 'application/pdf' }));
    const zone = document.querySelector('[data-drop-zone]');
    zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  })()`);
}

describe('the verification page', { timeout: 180_000 }, () => {
  it('checks a sealed PDF picked with the keyboard at 360 px; the file never leaves the browser', async () => {
    const requests = recordRequests(page);
    await page.goto(`${signingUrl()}/verify`);
    await page.getByRole('heading', { level: 1, name: 'Check a signed PDF' }).waitFor();
    expect(summary(await axe(page))).toEqual([]);
    // keyboard only: Tab to the file input, open the picker with Space
    let focused = '';
    for (let i = 0; i < 10 && focused !== 'verify-file'; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate<string>('document.activeElement?.id ?? ""');
    }
    expect(focused).toBe('verify-file');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Space')]);
    await chooser.setFiles({ name: 'lease.pdf', mimeType: 'application/pdf', buffer: Buffer.from(sealed) });
    await page.getByRole('heading', { level: 1, name: 'Verification result' }).waitFor();
    await page.locator('[data-verdict="TOTAL_PASSED"]').waitFor();
    expect(await page.locator('.verify-signature').count()).toBe(2); // the seal and the document timestamp
    await expect.poll(() => page.locator('[data-service-record]').count()).toBe(1);
    expect(await page.getByText('This service sealed this exact file').count()).toBe(1);
    expect(await overflows(page)).toBe(false);
    expect(await buttonsGap(page)).toBeGreaterThanOrEqual(8);
    await keep(page, 'verify-360');
    await page.locator('.verify-technical summary').first().click();
    expect(summary(await axe(page))).toEqual([]);
    await screenshot(page, 'verify-360', true);

    const api = requests.filter((r) => new URL(r.url).pathname.startsWith('/v1/'));
    const hash = Buffer.from(await crypto.subtle.digest('SHA-256', sealed)).toString('hex');
    expect(api.map((r) => `${r.method} ${new URL(r.url).pathname}`).sort()).toEqual([`GET /v1/verify/${hash}`, 'GET /v1/verify/roots.pem']);
    expect(requests.filter((r) => r.body > 0 || r.method !== 'GET')).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('trusts the root the service publishes for a file it has no record of', async () => {
    // as if the record were gone: the seal still chains to this service's published root
    await page.route('**/v1/verify/*', (route) => (route.request().url().endsWith('/roots.pem')
      ? route.continue()
      : route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ error: { code: 'not_found', message: 'unknown', status: 404 } }) })));
    try {
      await page.goto(`${signingUrl()}/verify`);
      await drop(page, sealed, 'lease.pdf');
      await page.getByRole('heading', { level: 1, name: 'Verification result' }).waitFor();
      await page.locator('[data-verdict="TOTAL_PASSED"]').waitFor();
      expect(await page.locator('[data-service-record]').count()).toBe(0);
    } finally {
      await page.unroute('**/v1/verify/*');
    }
  });

  it('a dropped file with one byte changed fails, in German', async () => {
    await page.goto(`${signingUrl()}/verify`);
    await page.getByRole('combobox', { name: 'Language' }).selectOption('de');
    await page.getByRole('heading', { level: 1, name: 'Signiertes PDF prüfen' }).waitFor();
    const tampered = new Uint8Array(sealed);
    tampered[400] = (tampered[400] ?? 0) ^ 0x01;
    await drop(page, tampered, 'lease.pdf');
    await page.getByRole('heading', { level: 1, name: 'Prüfergebnis' }).waitFor();
    await page.locator('[data-verdict="TOTAL_FAILED"]').waitFor();
    expect(await page.getByText('Dieser Dienst kennt genau diese Datei nicht.').count()).toBe(1);
    expect(summary(await axe(page))).toEqual([]);
    await page.getByRole('combobox', { name: 'Sprache' }).selectOption('en');
  });

  it('a seal whose revocation data was stripped is INDETERMINATE, and the card says why in plain words (German)', async () => {
    const { doc, tracker } = await openForUpdate(sealed);
    doc.catalog.delete(PDFName.of('DSS'));
    const stripped = appendIncrementalUpdate(sealed, doc, tracker);
    await page.goto(`${signingUrl()}/verify`);
    await page.getByRole('combobox', { name: 'Language' }).selectOption('de');
    await drop(page, stripped, 'lease.pdf');
    await page.locator('[data-verdict="INDETERMINATE"]').waitFor();
    expect(await page.locator('.verify-signature[data-indication="INDETERMINATE"] .verify-why').first().textContent()).toBe('Die Datei enthält keine Sperrinformationen zum Zertifikat des Unterzeichners, daher lässt sich nicht prüfen, ob es gesperrt wurde.');
    expect(summary(await axe(page))).toEqual([]);
    await keep(page, 'verify-360-try-later-de');
    await page.getByRole('combobox', { name: 'Sprache' }).selectOption('en');
  });

  it('on a desktop, opened from the certificate address: the record first, then the dropped file matches it', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const requests = recordRequests(page);
    await page.goto(`${signingUrl()}/verify#${envelopeId}.${originalId}`);
    await page.locator('[data-service-record]').waitFor();
    await drop(page, sealed, 'lease.pdf');
    await page.locator('[data-verdict="TOTAL_PASSED"]').waitFor();
    expect(await page.getByText('This service sealed this exact file').count()).toBe(1);
    const api = requests.filter((r) => new URL(r.url).pathname.startsWith('/v1/'));
    // the published root was asked for once already on this page (a change of the hash does not reload it)
    expect(api.map((r) => `${r.method} ${new URL(r.url).pathname}`).filter((r) => !r.endsWith('/roots.pem'))).toEqual([`GET /v1/verify/${envelopeId}/${originalId}`]);
    expect(requests.filter((r) => r.body > 0)).toEqual([]);
    expect(summary(await axe(page))).toEqual([]);
    expect(await buttonsGap(page)).toBeGreaterThanOrEqual(8);
    await screenshot(page, 'verify-desktop', true);
    await keep(page, 'verify-1280');
  });
});
