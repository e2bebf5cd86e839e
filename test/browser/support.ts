/**
 * Browser-test helpers: Debian's Chromium driven by playwright-core, screenshots under test-artifacts/browser,
 * axe-core checks, envelopes to sign, and reading back what sealing drew (pdftoppm).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { degrees, PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { PNG } from 'pngjs';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import { buildWeb } from '../../web/build.ts';
import { call, newApp } from '../support/api.ts';
import { createWithPdf, type EnvelopeBody, type Json } from '../support/envelopes.ts';
import { tokenOf } from '../support/signing.ts';

export const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'browser');
const require = createRequire(import.meta.url);

export const signingUrl = () => inject('signingUrl');
export const unique = (name: string) => `${name}.${String(Date.now())}.${String(Math.random()).slice(2, 8)}@example.com`;

export interface Launched {
  context: BrowserContext;
  close: () => Promise<void>;
}

/** One Chromium per test file, with a fresh profile; the web bundle is built first when it is missing or stale. */
export async function launch(options: { width: number; height: number; mobile?: boolean }): Promise<Launched> {
  await buildWeb({ ifStale: true, quiet: true });
  mkdirSync(ARTIFACTS, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), 'esign-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: options.width, height: options.height },
    ...(options.mobile ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : { deviceScaleFactor: 1 }),
    acceptDownloads: true,
    reducedMotion: 'reduce',
    locale: 'en-GB',
    timezoneId: 'UTC',
  });
  context.setDefaultTimeout(30_000); // the whole suite shares 2 cores: a loaded run is slow, not broken
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface BrowserSession {
  page: Page;
  /** A bearer token of the test file's own application. */
  bearer: string;
  /** Console errors and page exceptions so far (watchErrors). */
  errors: string[];
}

/**
 * The hooks every browser test file needs: Chromium and an application before the tests, a report of what the page
 * showed after a failed test, Chromium closed after all. `ready` hands the page, token and error list to the file.
 */
export function useBrowser(viewport: Parameters<typeof launch>[0], appName: string, ready: (session: BrowserSession) => void): void {
  let launched: Launched | undefined;
  let page: Page | undefined;
  beforeAll(async () => {
    const [browser, app] = await Promise.all([launch(viewport), newApp(appName)]);
    launched = browser;
    page = await browser.context.newPage();
    ready({ page, bearer: app.token, errors: watchErrors(page) });
  }, 120_000);
  afterEach(async ({ task }) => {
    if (page && task.result?.state === 'fail') await failureReport(page, task.name);
  });
  afterAll(async () => {
    await launched?.close();
  });
}

/** Console errors and uncaught exceptions, except the browser's own line for an expected 4xx answer. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    if (/Failed to load resource: the server responded with a status of (401|404|409|410|429|400)/.test(text)) return;
    errors.push(text);
  });
  page.on('pageerror', (error) => { errors.push(`pageerror: ${error.message}`); });
  return errors;
}

/** The field id (data-field-id) of the focused element, if any. */
export const focusedField = (page: Page) => page.evaluate<string | null>('document.activeElement?.dataset?.fieldId ?? null');

/** After a failed test: a screenshot and the page's text, to see what the signer saw. */
export async function failureReport(page: Page, name: string): Promise<void> {
  const file = `FAILED-${name.replace(/[^\w-]+/g, '-').slice(0, 60)}`;
  try {
    await page.screenshot({ path: join(ARTIFACTS, `${file}.png`), fullPage: true });
    const text = `${page.url()}\n\n${await page.locator('body').innerText()}\n`;
    writeFileSync(join(ARTIFACTS, `${file}.txt`), text);
    // CI keeps only the console: say what the page showed when the test failed
    console.error(`page at failure (${name}):\n${text.slice(0, 4000)}`);
  } catch {
    // the page may be gone
  }
}

export async function screenshot(page: Page, name: string, fullPage = false): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage });
}

export interface AxeViolation { id: string; impact: string | null; help: string; nodes: { target: string[]; failureSummary?: string }[] }

/**
 * Runs axe-core (WCAG 2.0/2.1/2.2 A and AA rules) on the page as it is. The script is evaluated through the
 * DevTools protocol, so the page's CSP (no inline scripts) stays in force for everything else.
 */
export async function axe(page: Page): Promise<AxeViolation[]> {
  const source = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(`${source};0`);
  const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
  const violations = await page.evaluate<AxeViolation[]>(`axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(tags)} } }).then((r) => r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
  })))`);
  const report = join(ARTIFACTS, 'axe.log');
  writeFileSync(report, `${page.url()}\n${JSON.stringify(violations, null, 2)}\n\n`, { flag: 'a' });
  return violations;
}

export const summary = (violations: AxeViolation[]) => violations.map((v) => `${v.id} (${String(v.impact)}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);

/** A PDF with readable text on every page (pdf-lib), optionally rotated or cropped like a scanned contract. */
export async function contractPdf(options: { pages?: number; size?: [number, number]; rotate?: 0 | 90 | 180 | 270; cropBox?: [number, number, number, number] } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const [width, height] = options.size ?? [612, 792];
  const pages = options.pages ?? 2;
  for (let n = 1; n <= pages; n++) {
    const page = doc.addPage([width, height]);
    if (options.rotate) page.setRotation(degrees(options.rotate));
    if (options.cropBox) page.setCropBox(...options.cropBox);
    page.drawText(`Service agreement - page ${String(n)}`, { x: 72, y: height - 90, size: 20, font: bold, color: rgb(0, 0, 0) });
    const lines = [
      'This agreement is made between ACME Corp. ("the Client") and the Contractor.',
      'The Contractor will deliver the services described in the schedule, on time',
      'and with due care. Fees are payable within thirty days of each invoice.',
      'Either party may end this agreement with thirty days written notice.',
    ];
    lines.forEach((line, i) => { page.drawText(line, { x: 72, y: height - 130 - i * 18, size: 11, font, color: rgb(0.1, 0.1, 0.1) }); });
  }
  return doc.save();
}

export interface SentEnvelope { envelope: EnvelopeBody; links: string[]; tokens: string[] }

/** Creates (multipart, or by presigned upload beyond a request's 4 MB) and sends an envelope; answers the first group's signing links on the signing host. */
export async function sendEnvelope(bearer: string, data: Json, pdf: Uint8Array): Promise<SentEnvelope> {
  const created = await createWithPdf(bearer, data, pdf);
  if (created.status !== 201) throw new Error(`create: ${String(created.status)} ${JSON.stringify(created.body)}`);
  const sent = await call<EnvelopeBody>('POST', `/v1/envelopes/${created.body.id}/send`, { token: bearer, json: { message: 'Please sign by Friday. Thank you!' } });
  if (sent.status !== 200) throw new Error(`send: ${String(sent.status)} ${JSON.stringify(sent.body)}`);
  const tokens = sent.body.signers.filter((s) => s.signingUrl).map((s) => tokenOf(s.signingUrl));
  return { envelope: sent.body, tokens, links: tokens.map((t) => `${signingUrl()}/sign/${t}`) };
}

/** Draws a looping, signature-like stroke across the element with the mouse (pointer events of type mouse). */
export async function drawWithMouse(page: Page, target: Locator): Promise<void> {
  const box = await target.boundingBox();
  if (!box) throw new Error('nothing to draw on');
  const at = (u: number, v: number): [number, number] => [box.x + u * box.width, box.y + v * box.height];
  const strokes: [number, number][][] = [
    Array.from({ length: 40 }, (_, i) => { const t = i / 39; return at(0.12 + 0.6 * t, 0.55 - 0.25 * Math.sin(t * Math.PI * 3)); }),
    [at(0.25, 0.75), at(0.5, 0.72), at(0.85, 0.68)],
  ];
  for (const stroke of strokes) {
    const [first, ...rest] = stroke;
    if (!first) continue;
    await page.mouse.move(...first);
    await page.mouse.down();
    for (const point of rest) await page.mouse.move(...point, { steps: 2 });
    await page.mouse.up();
  }
  await settleFrames(page);
}

/** The same with real touch input (DevTools Input.dispatchTouchEvent): pointer events of type touch. */
export async function drawWithTouch(page: Page, target: Locator): Promise<void> {
  const box = await target.boundingBox();
  if (!box) throw new Error('nothing to draw on');
  const session = await page.context().newCDPSession(page);
  const at = (u: number, v: number) => ({ x: box.x + u * box.width, y: box.y + v * box.height, id: 1 });
  const points = Array.from({ length: 30 }, (_, i) => { const t = i / 29; return at(0.1 + 0.8 * t, 0.5 - 0.3 * Math.sin(t * Math.PI * 2)); });
  const [first, ...rest] = points;
  if (!first) return;
  await session.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [first] });
  for (const point of rest) await session.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point] });
  await session.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await session.detach();
  await settleFrames(page);
}

/** Waits until the page has painted twice: input dispatched before it has been handled by then. */
export async function settleFrames(page: Page): Promise<void> {
  // A string: this project's types have no DOM (the function runs in the page).
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(null))))');
}

/** One page of a PDF rendered by poppler as a viewer shows it (pdftoppm -cropbox, turned by /Rotate) as decoded PNG; also saved under `name`. */
export function renderPdfPage(pdf: Uint8Array, pageNumber: number, name: string, dpi = 72): PNG {
  const dir = mkdtempSync(join(tmpdir(), 'esign-render-'));
  const file = join(dir, 'doc.pdf');
  writeFileSync(file, pdf);
  execFileSync('pdftoppm', ['-png', '-cropbox', '-r', String(dpi), '-f', String(pageNumber), '-l', String(pageNumber), '-singlefile', file, join(dir, 'page')]);
  const bytes = readFileSync(join(dir, 'page.png'));
  writeFileSync(join(ARTIFACTS, `${name}.png`), bytes);
  rmSync(dir, { recursive: true, force: true });
  return PNG.sync.read(bytes);
}

export interface Box { left: number; top: number; right: number; bottom: number }

/** The bounding box (in pixels) of "ink": the dark blue sealing and the pad draw with, not black text. */
export function inkBox(png: PNG, region: Box = { left: 0, top: 0, right: png.width - 1, bottom: png.height - 1 }): Box | null {
  let box: Box | null = null;
  for (let y = Math.max(0, Math.floor(region.top)); y <= Math.min(png.height - 1, region.bottom); y++) {
    for (let x = Math.max(0, Math.floor(region.left)); x <= Math.min(png.width - 1, region.right); x++) {
      const i = (y * png.width + x) * 4;
      const [r, g, b] = [png.data[i] ?? 0, png.data[i + 1] ?? 0, png.data[i + 2] ?? 0];
      if (b - r > 35 && b - g > 25 && r < 140) {
        box = box ? { left: Math.min(box.left, x), top: Math.min(box.top, y), right: Math.max(box.right, x), bottom: Math.max(box.bottom, y) } : { left: x, top: y, right: x, bottom: y };
      }
    }
  }
  return box;
}

/** The sealed PDF of a completed envelope (bearer API). */
export async function sealedPdf(bearer: string, envelopeId: string): Promise<Uint8Array> {
  const res = await call('GET', `/v1/envelopes/${envelopeId}/document?kind=sealed`, { token: bearer });
  if (res.status !== 200) throw new Error(`sealed: ${String(res.status)}`);
  return res.bytes;
}
