/**
 * Figure 4: every function of the manifest bundled as CDK bundles it (esbuild with ESBUILD from
 * infra/constructs/service-function.ts, a linked source map as `sourceMap: true` writes), its size (JavaScript
 * only, map excluded) and its cold init: the time to import the bundle in a fresh Node process started as Lambda
 * starts it (`--enable-source-maps`, the placeholder environment CDK gives a function before binding), beside
 * importing an empty module. Secrets are read at first invocation, so import is the whole of init here.
 *
 * `measureBundles` is the small stand-in for the shared module another branch adds; swap it in when it lands.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { ESBUILD, REPO_ROOT, unboundSecret, UNBOUND } from '#infra/constructs/service-function.ts';
import { fallbackRoute, routes, workers, workflows } from '#infra/routes.ts';
import { ACCESS } from '#infra/stacks/access.ts';
import { fmt, median, type Row, type RunSize } from './lib.ts';

/** ServiceFunction's memory when an access row names none (infra/constructs/service-function.ts). */
export const DEFAULT_MEMORY_MB = 512;
export const memoryOf = (handler: string) => ACCESS[handler]?.memorySize ?? DEFAULT_MEMORY_MB;

export interface BundleMeasure { handler: string; bytes: number; initMs: number[] }

export function manifestHandlers(): string[] {
  return [...new Set([
    ...routes.map((r) => r.handler), fallbackRoute.handler, ...workers.map((w) => w.handler),
    ...workflows.flatMap((w) => Object.values(w.tasks).map((t) => t.handler)),
  ])].sort();
}

/** The environment a function starts with before any bind helper fills it (service-function.ts), plus Lambda's own. */
const PLACEHOLDER_ENV: Record<string, string> = {
  BASE_URL: 'https://api.example.com', SIGNING_URL: 'https://sign.example.com', TABLE_NAME: UNBOUND, BUCKET_NAME: UNBOUND, JOBS_QUEUE_URL: UNBOUND,
  JWT_SECRET: unboundSecret('JWT_SECRET'), LINK_SECRET: unboundSecret('LINK_SECRET'), DATA_KEY: unboundSecret('DATA_KEY'),
  AWS_REGION: 'us-east-1', AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '512', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

/** Import time of `file` in a fresh process, in ms. */
function coldImport(file: string): number {
  const script = 'const t = performance.now(); await import(process.env.BENCH_BUNDLE); console.log(JSON.stringify(performance.now() - t));';
  const run = spawnSync(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', script], {
    encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...PLACEHOLDER_ENV, BENCH_BUNDLE: pathToFileURL(file).href },
  });
  if (run.status !== 0) throw new Error(`importing ${file} failed: ${run.stderr.slice(-1500)}`);
  return Number(run.stdout.trim().split('\n').at(-1));
}

/** Builds every handler as the construct does, into `outdir` (inside the repository: the bundles resolve the AWS SDK, external as the Lambda runtime provides it, from node_modules). */
export async function buildBundles(handlers: readonly string[], outdir: string): Promise<void> {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: handlers.map((h) => join(REPO_ROOT, h)),
    outdir, outbase: REPO_ROOT, outExtension: { '.js': '.mjs' },
    bundle: true, format: ESBUILD.format, platform: ESBUILD.platform, target: ESBUILD.target, minify: ESBUILD.minify,
    mainFields: [...ESBUILD.mainFields], external: [...ESBUILD.external], banner: { js: ESBUILD.banner },
    sourcemap: 'linked', sourcesContent: false, absWorkingDir: REPO_ROOT, logLevel: 'silent',
  });
}

/** Sizes and cold inits of bundles built by buildBundles, beside an empty module's. */
export function measureBundles(handlers: readonly string[], outdir: string, coldStarts: number): { bundles: BundleMeasure[]; emptyMs: number[] } {
  const fileOf = (h: string) => join(outdir, h.replace(/\.ts$/, '.mjs'));
  const empty = join(outdir, 'empty.mjs');
  writeFileSync(empty, 'export {};\n');
  const bundles = handlers.map((handler) => ({ handler, bytes: statSync(fileOf(handler)).size, initMs: [] as number[] }));
  const emptyMs: number[] = [];
  // Rounds over every bundle, so a burst of load on the shared machine spreads over all of them.
  for (let round = 0; round < coldStarts; round++) {
    emptyMs.push(coldImport(empty));
    for (const b of bundles) b.initMs.push(coldImport(fileOf(b.handler)));
  }
  return { bundles, emptyMs };
}

export const BUNDLE_DIR = join(REPO_ROOT, 'node_modules', '.cache', 'esign-bench-bundles');

/** Measures the bundles `build` (a buildBundles into BUNDLE_DIR, perhaps started earlier) makes. */
export async function bundleFigure(size: RunSize, built: Promise<void>): Promise<Row[]> {
  await built;
  const { bundles, emptyMs } = measureBundles(manifestHandlers(), BUNDLE_DIR, size.coldStarts);
  rmSync(BUNDLE_DIR, { recursive: true, force: true });
  const n = `median of ${String(size.coldStarts)} fresh processes`;
  const api = bundles.filter((b) => b.handler.startsWith('functions/api/'));
  const worst = (list: BundleMeasure[], by: (b: BundleMeasure) => number) => list.reduce((a, b) => (by(b) > by(a) ? b : a));
  const biggest = worst(api, (b) => b.bytes);
  const slowest = worst(api, (b) => median(b.initMs));
  const rows: Row[] = [{
    figure: '4 Bundles',
    what: `API functions (${String(api.length)}): largest, slowest cold init (${n})`,
    ours: `${fmt.kb(biggest.bytes)} (${relative('functions/api', biggest.handler)}); ${fmt.ms(median(slowest.initMs))} (${relative('functions/api', slowest.handler)})`,
    other: `empty module ${fmt.ms(median(emptyMs))}`,
    note: 'target: under 300 KB and 60 ms',
  }];
  for (const b of bundles) {
    rows.push({ figure: '4 Bundles', what: b.handler, ours: `${fmt.kb(b.bytes)}, init ${fmt.ms(median(b.initMs))}`, note: `${String(memoryOf(b.handler))} MB` });
  }
  return rows;
}
