/**
 * The signer's first page load: the signing page asks for the context and the document together, as soon as the
 * link's token is known, and goes from the consent to the document without another read, so a first visit waits for
 * at most two cold functions one after another (docs/performance.md). At 1024 px and on a 360 px phone in German,
 * by keyboard, with axe.
 */
import { mkdirSync } from 'node:fs';
import type { Page, Request, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coldChain, recordSigningCalls, signingFunction } from '#test/support/request-chain.ts';
import { latestCode } from '#test/support/signing.ts';
import { axe, contractPdf, launch, sendEnvelope, summary, unique, useBrowser, type Launched } from './support.ts';

const SHOTS = '/tmp/signer';
mkdirSync(SHOTS, { recursive: true });

let bearer: string;
let page: Page;
let errors: string[];

useBrowser({ width: 1024, height: 800 }, 'browser first page', (session) => { ({ page, bearer, errors } = session); });

const FIELDS = [{ signerIndex: 0, type: 'signature', page: 1, x: 72, y: 120, w: 200, h: 50 }];

/** A sent envelope whose one signer (no code) has not opened the link yet. */
async function firstVisit(subject: string, locale = 'en') {
  const { links, tokens } = await sendEnvelope(bearer, {
    tenantId: 'browser', subject, signers: [{ name: 'Ana Maria Silva', email: unique('first'), authMethod: 'none', locale }], fields: FIELDS,
  }, await contractPdf({ pages: 2 }));
  return { link: links[0] ?? '', token: tokens[0] ?? '' };
}

const firstPageDrawn = (p: Page) => expect.poll(() => p.evaluate<number>("performance.getEntriesByName('sign:first-page').length")).toBe(1);

describe('the signing page on a first visit', { timeout: 120_000 }, () => {
  it('asks for the document before the context has answered', async () => {
    const { link, token } = await firstVisit('Parallel requests');
    const order: string[] = [];
    let documentAsked: () => void = () => undefined;
    const documentSeen = new Promise<void>((resolve) => { documentAsked = resolve; });
    const onRequest = (request: Request) => {
      const fn = signingFunction(request);
      if (!fn) return;
      order.push(`asked ${fn}`);
      if (fn === 'GET document') documentAsked();
    };
    page.on('request', onRequest);
    // The context's answer is held until the page asked for the document (or 10 s went by: the old waterfall never does)
    const isContext = (url: URL) => url.pathname === `/v1/signing/${token}`;
    await page.route(isContext, async (route: Route) => {
      const asked = await Promise.race([documentSeen.then(() => true), new Promise<boolean>((resolve) => { setTimeout(() => { resolve(false); }, 10_000); })]);
      order.push(asked ? 'context answered' : 'context answered (no document asked)');
      await route.continue();
    });
    try {
      await page.goto(link);
      await page.getByRole('heading', { level: 1, name: 'Agree to sign electronically' }).waitFor();
    } finally {
      await page.unroute(isContext);
      page.off('request', onRequest);
    }
    expect(order.slice(0, 3)).toEqual(['asked GET context', 'asked GET document', 'context answered']);
    expect(errors).toEqual([]);
  });

  it('shows the document after the consent without reading the context or the document again', async () => {
    const { link } = await firstVisit('From consent to document');
    const calls = recordSigningCalls(page);
    await page.goto(link);
    await page.getByRole('checkbox', { name: /I agree to use electronic records/ }).check();
    const consentAt = Date.now();
    await page.getByRole('button', { name: 'Continue to the document' }).click();
    await page.getByRole('heading', { level: 1, name: 'From consent to document' }).waitFor();
    await firstPageDrawn(page);
    const drawnAt = await page.evaluate<number>("performance.timeOrigin + performance.getEntriesByName('sign:first-page')[0].startTime");
    const after = calls.filter((c) => c.start >= consentAt && c.start <= drawnAt).map((c) => c.fn);
    expect(after).toEqual(['POST consent']);
    // Context and document side by side, then the consent: two cold functions one after the other
    expect(coldChain(calls, drawnAt).map((c) => c.fn)).toEqual([expect.stringMatching(/^GET (context|document)$/), 'POST consent']);
    expect(await page.locator('.sheet.is-rendered').count()).toBeGreaterThan(0);
    await page.screenshot({ path: `${SHOTS}/first-page-desktop.png` });
    expect(summary(await axe(page))).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('a first visit with a one-time code', { timeout: 120_000 }, () => {
  it('asks for the document once the code is verified, while the signer reads the consent', async () => {
    const email = unique('code');
    const { links } = await sendEnvelope(bearer, {
      tenantId: 'browser', subject: 'With a code', signers: [{ name: 'Ana Maria Silva', email, authMethod: 'email_otp' }], fields: FIELDS,
    }, await contractPdf({ pages: 1 }));
    const calls = recordSigningCalls(page);
    await page.goto(links[0] ?? '');
    await page.getByRole('button', { name: 'Email me a code' }).click();
    const code = page.getByLabel('6-digit code');
    await code.waitFor();
    let sent = '';
    await expect.poll(async () => { sent = await latestCode(email).catch(() => ''); return sent; }).not.toBe('');
    await code.fill(sent);
    await page.getByRole('button', { name: 'Verify code' }).click();
    await page.getByRole('heading', { level: 1, name: 'Agree to sign electronically' }).waitFor();
    // Asked twice: refused (401) before the code, and again once it was verified, before the consent is given
    await expect.poll(() => calls.filter((c) => c.fn === 'GET document').length).toBe(2);
    const consentAt = Date.now();
    await page.getByRole('checkbox', { name: /I agree to use electronic records/ }).check();
    await page.getByRole('button', { name: 'Continue to the document' }).click();
    await firstPageDrawn(page);
    expect(calls.filter((c) => c.start >= consentAt).map((c) => c.fn)).toEqual(['POST consent']);
    expect(errors).toEqual([]);
  });
});

describe('the first visit on a 360 px phone, in German, by keyboard', { timeout: 120_000 }, () => {
  let phone: Launched | undefined;
  let mobile: Page;
  beforeAll(async () => {
    phone = await launch({ width: 360, height: 740, mobile: true });
    mobile = await phone.context.newPage();
  }, 120_000);
  afterAll(async () => { await phone?.close(); });

  it('goes from the consent to the drawn first page with the keys alone', async () => {
    const { link } = await firstVisit('Dienstvertrag', 'de');
    const calls = recordSigningCalls(mobile);
    await mobile.goto(link);
    const agree = mobile.getByRole('checkbox', { name: /Ich bin damit einverstanden/ });
    await agree.waitFor();
    await mobile.screenshot({ path: `${SHOTS}/first-page-consent-360-de.png` });
    expect(summary(await axe(mobile))).toEqual([]);
    await agree.focus();
    await mobile.keyboard.press('Space');
    expect(await agree.isChecked()).toBe(true);
    await mobile.keyboard.press('Tab');
    await mobile.keyboard.press('Enter');
    await mobile.getByRole('heading', { level: 1, name: 'Dienstvertrag' }).waitFor();
    await firstPageDrawn(mobile);
    const drawnAt = await mobile.evaluate<number>("performance.timeOrigin + performance.getEntriesByName('sign:first-page')[0].startTime");
    expect(coldChain(calls, drawnAt).length).toBeLessThanOrEqual(2);
    expect(calls.filter((c) => c.fn === 'GET context')).toHaveLength(1);
    await mobile.screenshot({ path: `${SHOTS}/first-page-document-360-de.png` });
    expect(summary(await axe(mobile))).toEqual([]);
  });
});
