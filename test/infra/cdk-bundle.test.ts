/**
 * What the deployed functions are made of, and that they start: every manifest function is bundled as CDK bundles
 * it and started in a fresh Node process with only its template's environment (test/support/cold-start.ts); it must
 * initialise and answer a first event, so a cold-start failure is a test failure. The seal bundle finds its fonts.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { routes } from '#infra/routes.ts';
import { BUNDLE_OPTIONS, bundleFunction, REPLACED, sealFontFiles } from '#infra/constructs/bundling.ts';
import { manifestHandlers } from '#infra/stacks/environment.ts';
import { bundleOptionsOf } from '#infra/stacks/functions.ts';
import { measureBundles, type ColdStart } from '#test/support/cold-start.ts';

/** Minified JavaScript per API function (entry, chunks, pdf.js where shipped), source maps excluded, the AWS SDK clients it uses included. */
const BUDGET_BYTES = 1.5 * 1024 * 1024;
/**
 * The routes that take a PDF in inspect it (pdf-lib) and index its text for anchors (pdf.js, 1.7 MB): stated apart,
 * like the seal function. No other route bundles either (shared/envelopes/upload-actions.ts is where both are used).
 */
const PDF_INTAKE = new Set([
  'functions/api/create-envelope.ts', 'functions/api/upload-document.ts', 'functions/api/complete-upload.ts',
  'functions/api/create-template.ts', 'functions/api/upload-template-document.ts',
]);
// 3.25 MB: every function that commits a change can dispatch its outbox, so it carries the email catalogues of the
// 11 locales (~50 KB) and the ICU formatter (~40 KB) since the signer's language (decision 39); the PDF intake functions were within 3 MB before
const PDF_INTAKE_BUDGET_BYTES = 3.25 * 1024 * 1024;

/** Serves the signing host's own index.html, fetched from the signing host, which the cold-start harness does not run. */
const NEEDS_SIGNING_HOST = new Set(['functions/api/embedded-page.ts', 'functions/api/authoring-page.ts']);

/** Workflow tasks given an envelope that does not exist answer as their state machine expects: not ready, retry. */
const NOT_READY = new Set(['functions/workers/seal.ts', 'functions/workers/finalize.ts']);

const scratch = mkdtempSync(join(tmpdir(), 'esign-bundle-'));
afterAll(() => { rmSync(scratch, { recursive: true, force: true }); });

let results: ColdStart[];
beforeAll(async () => {
  results = await measureBundles({ dynamodbEndpoint: inject('dynamodbEndpoint') });
  console.log(results.map((r) => `${(r.bytes / 1024).toFixed(0).padStart(6)} KB ${r.initMs.toFixed(0).padStart(5)} ms init ${r.firstEventMs.toFixed(0).padStart(5)} ms first event  ${r.handler}`).join('\n'));
}, 900_000);

describe('function bundles', () => {
  it('every manifest function initialises from its template\'s environment and answers a first event', () => {
    expect(results.map((r) => r.handler).sort()).toEqual(manifestHandlers().sort());
    for (const { handler, answer } of results) {
      const route = routes.find((r) => r.handler === handler);
      if (NOT_READY.has(handler)) expect(answer.ok ? 'answered' : answer.error, handler).toMatch(/^EnvelopeNotReady: /);
      else expect(answer, handler).toMatchObject({ ok: true });
      if (route && answer.ok && !NEEDS_SIGNING_HOST.has(handler)) expect((answer.value as { statusCode: number }).statusCode, handler).toBeLessThan(500);
    }
  });

  it(`every API function is at most ${String(BUDGET_BYTES / 1024 / 1024)} MB minified, but those that take PDFs in`, () => {
    for (const { handler, bytes } of results.filter((r) => routes.some((route) => route.handler === r.handler))) {
      expect(bytes, handler).toBeLessThanOrEqual(PDF_INTAKE.has(handler) ? PDF_INTAKE_BUDGET_BYTES : BUDGET_BYTES);
    }
  });

  it('the seal bundle ships its fonts, and code bundled beside them draws with them, not with the repository\'s node_modules', async () => {
    const files = sealFontFiles();
    expect(files.length).toBeGreaterThanOrEqual(3);
    const outdir = join(scratch, 'seal');
    bundleFunction('functions/workers/seal.ts', outdir, bundleOptionsOf('functions/workers/seal.ts'));
    for (const file of files) expect(statSync(join(outdir, 'node_modules', file)).size, file).toBeGreaterThan(0);
    await build({
      ...BUNDLE_OPTIONS,
      alias: { ...REPLACED }, // as the functions are bundled: fontkit without its WOFF2 decoder
      stdin: {
        contents: [
          "import { layoutLine } from '#shared/sealing/text/layout.ts';",
          'export async function draw(text) { const line = await layoutLine(text, "regular"); return { text: line.text, glyphs: line.runs.reduce((n, r) => n + r.glyphs.length, 0), uncovered: line.uncovered }; }',
        ].join('\n'),
        resolveDir: BUNDLE_OPTIONS.absWorkingDir,
        sourcefile: 'font-check.ts',
        loader: 'ts',
      },
      outfile: join(outdir, 'font-check.mjs'),
    });
    const bundle = await import(pathToFileURL(join(outdir, 'font-check.mjs')).href) as { draw: (text: string) => Promise<{ text: string; glyphs: number; uncovered: string[] }> };
    expect(await bundle.draw('Łukasz 王芳 김민준 नमस्ते')).toMatchObject({ text: 'Łukasz 王芳 김민준 नमस्ते', uncovered: [] });
    expect((await bundle.draw('नमस्ते')).glyphs).toBeLessThan(6); // shaped: conjuncts, not one glyph per character
  });
});
