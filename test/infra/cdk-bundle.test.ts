/**
 * What the deployed functions are made of: each API function bundled as the CDK construct bundles it stays within
 * its budget (sizes recorded in README, "Deploy to AWS"), and the seal bundle finds its fonts beside it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { routes } from '#infra/routes.ts';
import { copyCommands, ESBUILD, REPO_ROOT, sealFontFiles } from '#infra/constructs/service-function.ts';

/** Minified JavaScript per API function, source map excluded. */
const BUDGET_BYTES = 1.5 * 1024 * 1024;

const options: BuildOptions = {
  bundle: true,
  format: ESBUILD.format,
  platform: ESBUILD.platform,
  target: ESBUILD.target,
  minify: ESBUILD.minify,
  mainFields: [...ESBUILD.mainFields],
  external: [...ESBUILD.external],
  banner: { js: ESBUILD.banner },
  absWorkingDir: REPO_ROOT,
  logLevel: 'silent',
};

const scratch = mkdtempSync(join(tmpdir(), 'esign-bundle-'));
afterAll(() => { rmSync(scratch, { recursive: true, force: true }); });

describe('function bundles', () => {
  it(`every API function is at most ${String(BUDGET_BYTES / 1024 / 1024)} MB minified`, async () => {
    const sizes: { handler: string; bytes: number }[] = [];
    for (const handler of new Set(routes.map((r) => r.handler))) {
      const result = await build({ ...options, entryPoints: [join(REPO_ROOT, handler)], write: false, outfile: 'index.mjs' });
      sizes.push({ handler, bytes: result.outputFiles[0]?.contents.byteLength ?? 0 });
    }
    console.log(sizes.map((s) => `${(s.bytes / 1024).toFixed(0).padStart(6)} KB  ${s.handler}`).join('\n'));
    for (const { handler, bytes } of sizes) expect(bytes, handler).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it('the seal bundle draws with the fonts shipped beside it, not with the repository\'s node_modules', async () => {
    const files = sealFontFiles();
    expect(files.length).toBeGreaterThanOrEqual(3);
    const outdir = join(scratch, 'seal');
    await build({
      ...options,
      stdin: {
        contents: [
          "import { layoutLine } from '#pdf/text/layout.ts';",
          'export async function draw(text) { const line = await layoutLine(text, "regular"); return { text: line.text, glyphs: line.runs.reduce((n, r) => n + r.glyphs.length, 0), uncovered: line.uncovered }; }',
        ].join('\n'),
        resolveDir: REPO_ROOT,
        sourcefile: 'font-check.ts',
        loader: 'ts',
      },
      outfile: join(outdir, 'index.mjs'),
    });
    for (const command of copyCommands(files, REPO_ROOT, outdir)) execFileSync('bash', ['-c', command]);
    const bundle = await import(pathToFileURL(join(outdir, 'index.mjs')).href) as { draw: (text: string) => Promise<{ text: string; glyphs: number; uncovered: string[] }> };
    expect(await bundle.draw('Łukasz 王芳 김민준 नमस्ते')).toMatchObject({ text: 'Łukasz 王芳 김민준 नमस्ते', uncovered: [] });
    expect((await bundle.draw('नमस्ते')).glyphs).toBeLessThan(6); // shaped: conjuncts, not one glyph per character
  });
});
