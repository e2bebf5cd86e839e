/**
 * What the deployed functions are made of: each API function bundled as the CDK construct bundles it (the same
 * bundleFunction) stays within its budget, and the seal bundle finds its fonts beside it.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { routes } from '#infra/routes.ts';
import { BUNDLE_FILE, BUNDLE_OPTIONS, bundleFunction, sealFontFiles } from '#infra/constructs/bundling.ts';
import { bundleOptionsOf } from '#infra/stacks/functions.ts';

/** Minified JavaScript per API function, source map excluded, AWS SDK clients included. */
const BUDGET_BYTES = 1.5 * 1024 * 1024;

const scratch = mkdtempSync(join(tmpdir(), 'esign-bundle-'));
afterAll(() => { rmSync(scratch, { recursive: true, force: true }); });

describe('function bundles', () => {
  it(`every API function is at most ${String(BUDGET_BYTES / 1024 / 1024)} MB minified`, () => {
    const sizes = [...new Set(routes.map((r) => r.handler))].map((handler) => {
      const outdir = join(scratch, handler);
      bundleFunction(handler, outdir, bundleOptionsOf(handler));
      return { handler, bytes: statSync(join(outdir, BUNDLE_FILE)).size };
    });
    for (const { handler, bytes } of sizes) expect(bytes, handler).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it('the seal bundle ships its fonts, and code bundled beside them draws with them, not with the repository\'s node_modules', async () => {
    const files = sealFontFiles();
    expect(files.length).toBeGreaterThanOrEqual(3);
    const outdir = join(scratch, 'seal');
    bundleFunction('functions/workers/seal.ts', outdir, bundleOptionsOf('functions/workers/seal.ts'));
    for (const file of files) expect(statSync(join(outdir, 'node_modules', file)).size, file).toBeGreaterThan(0);
    await build({
      ...BUNDLE_OPTIONS,
      stdin: {
        contents: [
          "import { PDFDocument } from 'pdf-lib';",
          "import { createFontSet } from '#pdf/fonts.ts';",
          'export async function draw(text) { const fonts = await createFontSet(await PDFDocument.create()); return (await fonts.regular.runs(text)).map((r) => r.text); }',
        ].join('\n'),
        resolveDir: BUNDLE_OPTIONS.absWorkingDir,
        sourcefile: 'font-check.ts',
        loader: 'ts',
      },
      outfile: join(outdir, 'font-check.mjs'),
    });
    const bundle = await import(pathToFileURL(join(outdir, 'font-check.mjs')).href) as { draw: (text: string) => Promise<string[]> };
    expect((await bundle.draw('Łukasz 王芳 김민준')).join('')).toBe('Łukasz 王芳 김민준');
  });
});
