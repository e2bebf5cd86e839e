/**
 * Console test helpers: a page signed in with a token (before the provider's sign-in exists, the test file's own
 * client-credential token is put where the console keeps its session), screenshots under /tmp/console, and
 * envelopes made through the API in a tenant of the test's own.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { call } from '../support/api.ts';
import { sigField, signer, type EnvelopeBody } from '../support/envelopes.ts';
import { contractPdf, sendEnvelope, signingUrl, useBrowser, type BrowserSession } from './support.ts';
import { createWithPdf } from '../support/envelopes.ts';

export const SHOTS = '/tmp/console';

export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** Keeps `token` as this tab's console session for every page the context opens from now on. */
export async function useToken(page: Page, token: string): Promise<void> {
  const session = JSON.stringify({ accessToken: token, expiresAt: Date.now() + 50 * 60_000 });
  await page.addInitScript(`sessionStorage.setItem('esign.console.session', ${JSON.stringify(session)});`);
}

export const consoleUrl = (path = '') => `${signingUrl()}/app/${path}`;

/** How far the page is wider than the screen (0 or less: nothing scrolls sideways). */
export const overflow = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');

/** The focused control's label, else its text: where the keyboard is. */
export const focusedLabel = (page: Page) => page.evaluate<string>('(() => { const e = document.activeElement; return (e && (e.labels && e.labels[0] ? e.labels[0].textContent : e.textContent) || "").trim(); })()');

export const tenantOf = (name: string) => `${name}-${String(Date.now())}-${String(Math.random()).slice(2, 6)}`;

/** A sent envelope with one signer (email authentication off) in `tenant`. */
export async function sentEnvelope(bearer: string, tenant: string, subject: string, email: string): Promise<EnvelopeBody> {
  const { envelope } = await sendEnvelope(bearer, { tenantId: tenant, subject, signers: [{ ...signer(email), name: 'Dana Signer', authMethod: 'none' }], fields: [sigField(0)] }, await contractPdf({ pages: 1 }));
  return envelope;
}

export async function draftEnvelope(bearer: string, tenant: string, subject: string, email: string): Promise<EnvelopeBody> {
  const made = await createWithPdf(bearer, { tenantId: tenant, subject, signers: [signer(email)], fields: [sigField(0)] }, await contractPdf({ pages: 1 }));
  if (made.status !== 201) throw new Error(`create: ${String(made.status)}`);
  return made.body;
}

export async function envelopeStatus(bearer: string, id: string): Promise<string> {
  return (await call<EnvelopeBody>('GET', `/v1/envelopes/${id}`, { token: bearer })).body.status;
}

/** A test file's browser and application (support.ts useBrowser), its page, token and errors read once the file starts. */
export function consoleBrowser(viewport: Parameters<typeof useBrowser>[0], appName: string): BrowserSession {
  const session: BrowserSession = { page: undefined as unknown as Page, bearer: '', errors: [] };
  useBrowser(viewport, appName, (ready) => { Object.assign(session, ready); });
  return session;
}
