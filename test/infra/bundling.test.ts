/**
 * What each function's asset is made of: one copy of each AWS SDK client, and a source map of the project's own code
 * (the dependencies' mappings were most of every map). One S3 function is bundled as CDK bundles it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { decode, encode } from '@jridgewell/sourcemap-codec';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleFiles, bundleFunction, BUNDLE_FILE, REPO_ROOT, SHIPPED, trimSourceMap } from '#infra/constructs/bundling.ts';
import type { TextIndex } from '#shared/pdf/text-anchors.ts';
import { bundleOptionsOf } from '#infra/stacks/functions.ts';

const scratch = mkdtempSync(join(tmpdir(), 'esign-bundling-'));
afterAll(() => { rmSync(scratch, { recursive: true, force: true }); });

/** The package an input file comes from: `node_modules/@aws-sdk/client-s3/dist-es/x.js` -> that folder. */
const packageDirs = (inputs: string[], name: string) =>
  [...new Set(inputs.flatMap((input) => {
    const at = input.lastIndexOf(`node_modules/${name}/`);
    return at < 0 ? [] : [input.slice(0, at + `node_modules/${name}`.length)];
  }))];

describe('function bundles', () => {
  it('a function that presigns uploads bundles one @aws-sdk/client-s3, and its source map names no dependency', () => {
    const handler = 'functions/api/create-upload-url.ts';
    const outdir = join(scratch, 'upload-url');
    const { inputs } = bundleFunction(handler, outdir, bundleOptionsOf(handler));
    expect(packageDirs(inputs, '@aws-sdk/s3-presigned-post')).toHaveLength(1);
    expect(packageDirs(inputs, '@aws-sdk/client-s3')).toHaveLength(1);
    const map = JSON.parse(readFileSync(join(outdir, `${BUNDLE_FILE}.map`), 'utf8')) as { sources: string[] };
    expect(map.sources.length).toBeGreaterThan(10);
    expect(map.sources.filter((source) => source.includes('node_modules') || source.includes('://'))).toEqual([]);
    // Well under the code it maps (the map of every node_modules line was larger than the code).
    const sizes = (suffix: string) => bundleFiles(outdir).reduce((sum, name) => sum + statSync(join(outdir, `${name}${suffix}`)).size, 0);
    expect(sizes('.map')).toBeLessThan(sizes('') / 4);
  });

  it('trimming keeps the project\'s mappings as they were, and ends each mapping where dependency code begins', () => {
    const file = join(scratch, 'synthetic.js.map');
    const own = join(REPO_ROOT, 'shared', 'a.ts');
    writeFileSync(file, JSON.stringify({
      version: 3, sources: [own, join(REPO_ROOT, 'node_modules', 'dep', 'index.js'), 'webpack://lib/src/x.js'], names: ['keep', 'drop'],
      mappings: encode([[[0, 0, 1, 0, 0], [10, 1, 5, 0, 1], [20, 2, 3, 0], [30, 0, 2, 4], [40]], [[0, 1, 0, 0]]]),
    }));
    trimSourceMap(file);
    const trimmed = JSON.parse(readFileSync(file, 'utf8')) as { sources: string[]; names: string[]; mappings: string };
    expect(trimmed.sources).toEqual([own]);
    expect(trimmed.names).toEqual(['keep']);
    expect(decode(trimmed.mappings)).toEqual([[[0, 0, 1, 0, 0], [10], [30, 0, 2, 4], [40]], []]);
  });

  it('pdf.js ships beside the bundles whose code reaches its import, and runs from there; other bundles neither hold nor ship it', () => {
    const pdfjs = Object.values(SHIPPED);
    for (const handler of ['functions/api/create-envelope.ts', 'functions/api/get-template.ts']) {
      const outdir = join(scratch, handler.replace(/\W/g, '-'));
      const { inputs, shipped } = bundleFunction(handler, outdir, bundleOptionsOf(handler));
      expect(inputs.filter((input) => input.includes('node_modules/pdfjs-dist/')), handler).toEqual([]);
      expect(shipped, handler).toEqual(handler.endsWith('create-envelope.ts') ? [...pdfjs].sort() : []);
      for (const file of pdfjs) expect(existsSync(join(outdir, 'node_modules', file)), `${handler}: ${file}`).toBe(handler.endsWith('create-envelope.ts'));
    }
    // Bundled outside the repository and run by Node as Lambda runs it, so pdf.js is found beside the bundle or nowhere.
    const pdf = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'sample.pdf')).toString('base64');
    const script = 'const { extractTextIndex } = await import(process.argv[1]); console.log(JSON.stringify(await extractTextIndex(Buffer.from(process.argv[2], "base64"))));';
    const read = (outdir: string, withFiles: boolean) => {
      bundleFunction('test/fixtures/pdf-text-entry.ts', outdir, { split: true });
      if (!withFiles) rmSync(join(outdir, 'node_modules'), { recursive: true });
      return spawnSync(process.execPath, ['--input-type=module', '-e', script, pathToFileURL(join(outdir, BUNDLE_FILE)).href, pdf], { encoding: 'utf8', cwd: outdir });
    };
    const shipped = read(join(scratch, 'text'), true);
    expect(shipped.status, shipped.stderr).toBe(0);
    expect((JSON.parse(shipped.stdout) as TextIndex).pages.flat().map((line) => line.t).join(' ')).toMatch(/\w{3}/);
    expect(read(join(scratch, 'text-bare'), false).stderr).toMatch(/Cannot find (package|module) 'pdfjs-dist/);
  }, 120_000);
});
