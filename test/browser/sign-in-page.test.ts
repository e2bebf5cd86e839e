/**
 * The local OpenID provider's sign-in page in Chromium at 360 px: no axe findings, usable by keyboard alone, a wrong
 * password said in an alert, the right one back to the console's callback with a code.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axe, launch, screenshot, summary, watchErrors, type Launched } from './support.ts';

let launched: Launched;
let page: Page;
let errors: string[];
beforeAll(async () => {
  launched = await launch({ width: 360, height: 740, mobile: true });
  page = await launched.context.newPage();
  errors = watchErrors(page);
}, 120_000);
afterAll(async () => { await launched.close(); });

const callback = () => `${inject('signingUrl')}/app/callback`;
function authorizeUrl(): string {
  const url = new URL(`${inject('oidcIssuer')}/auth`);
  const verifier = randomBytes(32).toString('base64url');
  for (const [k, v] of Object.entries({
    client_id: inject('oidcClientId'), response_type: 'code', scope: 'openid email profile', redirect_uri: callback(), state: 'browser',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256',
  })) url.searchParams.set(k, v);
  return url.toString();
}

describe('the local sign-in page', () => {
  it('has no accessibility findings and says a wrong password in an alert', async () => {
    await page.goto(authorizeUrl());
    await expect(page.getByRole('heading', { name: 'Sign in' }).isVisible()).resolves.toBe(true);
    expect(summary(await axe(page))).toEqual([]);
    await page.getByLabel('Email').fill(inject('devAdminEmail'));
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').innerText()).resolves.toContain('not correct');
    expect(await page.getByLabel('Email').inputValue()).toBe(inject('devAdminEmail'));
    expect(summary(await axe(page))).toEqual([]);
    await screenshot(page, 'sign-in-wrong-password-360');
  });

  it('signs in by keyboard alone and goes back to the console with a code', async () => {
    await page.goto(authorizeUrl());
    // the email field has the focus on arrival (Chromium applies autofocus at a frame after load: wait for it, then type)
    await expect.poll(() => page.evaluate('document.activeElement?.id ?? null')).toBe('email');
    await page.keyboard.type(inject('devAdminEmail'));
    await page.keyboard.press('Tab');
    await page.keyboard.type(inject('devAdminPassword'));
    await Promise.all([page.waitForURL((url) => url.toString().startsWith(callback())), page.keyboard.press('Enter')]);
    const arrived = new URL(page.url());
    expect(arrived.searchParams.get('state')).toBe('browser');
    expect(arrived.searchParams.get('code')).toBeTruthy();
    // what the console page does with it is the console's; the sign-in pages themselves logged no error
    expect(errors.filter((e) => !e.includes(inject('signingUrl')))).toEqual([]);
  });
});
