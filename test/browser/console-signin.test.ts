/**
 * Signing in to the console through the local OpenID provider (authorization code with PKCE, by the console's own
 * code): the development admin invites a sender, who signs in with the emailed password and sees no admin sections.
 */
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { call, outboxFor } from '../support/api.ts';
import { axe, summary, unique, useBrowser } from './support.ts';
import { consoleUrl, shot } from './console-support.ts';

let page: Page;
let errors: string[];
useBrowser({ width: 1280, height: 900 }, 'browser console sign-in', (session) => {
  page = session.page;
  errors = session.errors;
});

/** From the console's sign-in screen through the provider's form and back, signed in. */
async function signIn(p: Page, email: string, password: string, newPassword?: string): Promise<void> {
  await p.goto(consoleUrl());
  await p.getByRole('heading', { level: 1, name: 'Sign in to the sender console' }).waitFor();
  await p.getByRole('button', { name: 'Sign in' }).click();
  await p.waitForURL((url) => url.origin === new URL(inject('oidcIssuer')).origin);
  await p.getByLabel('Email').fill(email);
  await p.getByLabel('Password').fill(password);
  await p.getByRole('button', { name: 'Sign in' }).click();
  if (newPassword) {
    // An invited user's first sign-in: their own password in place of the temporary one
    await p.getByRole('heading', { level: 1, name: 'Choose your password' }).waitFor();
    await shot(p, 'new-password-1280');
    expect(summary(await axe(p))).toEqual([]);
    await p.getByLabel('New password', { exact: true }).fill(newPassword);
    await p.getByLabel('New password again').fill(newPassword);
    await p.getByRole('button', { name: 'Save and sign in' }).click();
  }
  await p.waitForURL((url) => url.pathname.startsWith('/app/'));
  await p.getByRole('heading', { level: 1, name: 'Envelopes' }).waitFor();
}

/** Signs out, and forgets the provider's session cookie too, whatever its logout page asks. */
async function signOut(p: Page): Promise<void> {
  await p.getByRole('button', { name: 'Sign out' }).click();
  // The provider's end of session, where its own session ends too
  await p.waitForURL((url) => url.origin === new URL(inject('oidcIssuer')).origin);
  expect(await p.evaluate<string | null>("sessionStorage.getItem('esign.console.session')")).toBeNull();
  await p.context().clearCookies();
}

describe('console sign-in', () => {
  it('signs the admin in with PKCE; an invited sender signs in and cannot see or manage users, settings or API clients', { timeout: 120_000 }, async () => {
    await signIn(page, inject('devAdminEmail'), inject('devAdminPassword'));
    expect(await page.locator('.whoami').innerText()).toContain(`${inject('devAdminEmail')} · Admin`);
    // The token is in this tab's sessionStorage only: no cookie holds it (the provider's own session cookies aside)
    const adminToken = await page.evaluate<string>("JSON.parse(sessionStorage.getItem('esign.console.session')).accessToken");
    expect((await page.context().cookies()).filter((c) => c.value.includes(adminToken.slice(-20)))).toEqual([]);
    await shot(page, 'signed-in-admin-1280');

    const sender = unique('sender');
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await page.getByLabel('Email', { exact: true }).fill(sender);
    await page.getByLabel('Name', { exact: true }).fill('Sam Sender');
    await page.getByLabel('Role', { exact: true }).selectOption('sender');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText(`An invitation was sent to ${sender}.`).waitFor();
    await page.getByRole('cell', { name: 'Sam Sender' }).waitFor();
    await shot(page, 'users-1280');
    expect(summary(await axe(page))).toEqual([]);

    await expect.poll(async () => (await outboxFor(sender)).length).toBeGreaterThan(0);
    const password = /Temporary password: (\S+)/.exec((await outboxFor(sender))[0]?.text ?? '')?.[1] ?? '';
    expect(password).not.toBe('');
    expect(errors).toEqual([]);
    await signOut(page);
    errors.length = 0; // what the provider's own logout page logged is not the console's

    await signIn(page, sender, password, 'Sams-own-password-42');
    expect(await page.locator('.whoami').innerText()).toContain(`${sender} · Sender`);
    const sections = await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link').allInnerTexts();
    expect(sections).toEqual(['Envelopes', 'New envelope', 'Templates']);
    await page.goto(consoleUrl('settings'));
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    // Nor through the API with the sender's own token
    const token = await page.evaluate<string>("JSON.parse(sessionStorage.getItem('esign.console.session')).accessToken");
    const clients = await call<{ error: string; reason?: string }>('GET', '/v1/console/clients', { token });
    expect(clients.status).toBe(403);
    expect((await call('POST', '/v1/console/clients', { token, json: { name: 'Not allowed' } })).status).toBe(403);
    await shot(page, 'signed-in-sender-1280');
    expect(errors).toEqual([]);
  });
});
