/**
 * How a function is bundled, in one place: the CDK construct (service-function.ts) calls `bundleFunction` to build
 * each asset, and the cold-start test and `measureBundles` (test/support/cold-start.ts) call the very same function,
 * so what is tested is what deploys.
 *
 * - ESM for Node 22, minified, with a source map beside it (the functions run with --enable-source-maps) that maps
 *   the project's own code only: the mappings into node_modules are dropped (they were most of each map, over 100 MB
 *   across the functions), so a frame in a dependency shows its place in the bundle.
 * - The AWS SDK is bundled, not taken from the Lambda runtime: the version is the lockfile's, the one the tests ran
 *   (an older runtime SDK silently drops fields it does not know, such as SES v2 attachments), and only the
 *   commands the adapters import are kept. Each client is evaluated on its first use (shared/deps.ts).
 * - Adapters a function's access row does not bind (infra/stacks/environment.ts, `unboundAdapters`) are left out: the
 *   dynamic import shared/deps.ts would make of one becomes a module that fails, saying so. A function that reached
 *   for one would fail on AWS anyway, its role lacking the grant; the IAM trace test catches that locally.
 * - pdf.js (SHIPPED) is not bundled: a function whose code reaches its import (read from the metafile) gets its
 *   minified build as files under node_modules beside the bundle, where Node resolves the bare specifier; any other
 *   function neither holds nor ships it. Counted in the function's size all the same (`codeBytes`).
 * - ESM keeps `import.meta.url` meaningful (shared/sealing/text/catalog.ts resolves its font files from it); the banner gives
 *   CommonJS dependencies a `require`.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decode, encode, type SourceMapSegment } from '@jridgewell/sourcemap-codec';
import { buildSync, type BuildOptions, type Metafile } from 'esbuild';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The file Lambda loads (`index.handler`). */
export const BUNDLE_FILE = 'index.mjs';

export const BUNDLE_OPTIONS = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  mainFields: ['module', 'main'],
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  legalComments: 'none',
  logLevel: 'warning',
  absWorkingDir: REPO_ROOT,
} as const satisfies BuildOptions;

/**
 * Modules left out of every bundle and shipped as node_modules files beside the bundles that import them, as the
 * specifier the code imports -> the file shipped (its minified build: pdf.js's own, smaller than esbuild makes it;
 * decision 55).
 */
export const SHIPPED: Readonly<Record<string, string>> = {
  'pdfjs-dist/legacy/build/pdf.mjs': 'pdfjs-dist/legacy/build/pdf.min.mjs',
  'pdfjs-dist/legacy/build/pdf.worker.mjs': 'pdfjs-dist/legacy/build/pdf.worker.min.mjs',
};
const SHIPPED_FILES = new Set(Object.values(SHIPPED));

/**
 * Modules replaced in every bundle by one of ours: fontkit's brotli decoder, used for WOFF2 fonts only, which the seal
 * never reads (its stand-in says so if one ever is).
 */
export const REPLACED: Readonly<Record<string, string>> = {
  'brotli/decompress.js': join(REPO_ROOT, 'shared', 'sealing', 'text', 'woff2-refused.ts'),
};

export interface BundleOptions {
  /** node_modules files to ship beside the bundle, where the code resolves them at run time (the seal's fonts). */
  files?: readonly string[];
  /** Module specifiers, as shared/deps.ts imports them dynamically, that the function must not get. */
  omit?: readonly string[];
  /** Files made at build time, written beside the bundle (name -> contents): the API description, for one. */
  generated?: Readonly<Record<string, string>>;
  /**
   * What only a dynamic import() reaches goes into chunk files beside index.mjs (the same folder, so import.meta.url
   * still finds the fonts): the cold start neither evaluates nor reads them.
   */
  split?: boolean;
}

/** The JavaScript files of a bundle in `dir`: the entry and its chunks. */
export const bundleFiles = (dir: string) => readdirSync(dir).filter((name) => name === BUNDLE_FILE || /^chunk-\w+\.mjs$/.test(name));

/** The bundle's code in `dir`, in bytes: the entry, its chunks and the modules shipped beside them (SHIPPED). */
export const codeBytes = (dir: string) => [...bundleFiles(dir), ...[...SHIPPED_FILES].map((file) => join('node_modules', file))]
  .reduce((sum, name) => sum + (existsSync(join(dir, name)) ? statSync(join(dir, name)).size : 0), 0);

/**
 * What a bundle was made of: the input files, relative to the repository root, links resolved (esbuild's metafile),
 * and the SHIPPED files its code imports, copied beside it.
 */
export interface BundleResult { inputs: string[]; metafile: Metafile; shipped: string[] }

/**
 * Bundles the handler module `entry` (relative to the repository root) into `outdir`, synchronously (CDK bundles so),
 * and says what went in.
 */
export function bundleFunction(entry: string, outdir: string, options: BundleOptions = {}): BundleResult {
  let inputs: string[] = [];
  let meta: Metafile = { inputs: {}, outputs: {} };
  const stubs = mkdtempSync(join(tmpdir(), 'esign-unbound-'));
  try {
    // Each omitted module becomes a stub that throws when loaded (esbuild's alias: a synchronous build takes no plugins).
    const alias = Object.fromEntries((options.omit ?? []).map((specifier, i) => {
      const stub = join(stubs, `unbound-${String(i)}.js`);
      writeFileSync(stub, `throw new Error(${JSON.stringify(`${specifier} is not in this function's bundle: its access row (infra/stacks/access.ts) does not bind it`)});\n`);
      return [specifier, stub];
    }));
    const output = options.split
      ? { entryPoints: { index: join(REPO_ROOT, entry) }, outdir, splitting: true, chunkNames: 'chunk-[hash]', outExtension: { '.js': '.mjs' } }
      : { entryPoints: [join(REPO_ROOT, entry)], outfile: join(outdir, BUNDLE_FILE) };
    const { metafile } = buildSync({ ...BUNDLE_OPTIONS, ...output, alias: { ...SHIPPED, ...REPLACED, ...alias }, external: ['pdfjs-dist'], metafile: true });
    meta = metafile;
    inputs = Object.keys(metafile.inputs);
    const absolute = inputs.map((input) => join(REPO_ROOT, input));
    const unused = Object.entries(alias).filter(([, stub]) => !absolute.includes(stub)).map(([specifier]) => specifier);
    if (unused.length > 0) throw new Error(`${entry}: nothing imports ${unused.join(', ')}; the list of unbound adapters is out of date`);
  } finally {
    rmSync(stubs, { recursive: true, force: true });
  }
  // The chunks of import() targets whose import() was tree-shaken away: nothing loads them, so nothing ships them.
  const reached = reachedOutputs(meta);
  for (const file of Object.keys(meta.outputs).filter((f) => f.endsWith('.mjs') && !reached.has(f))) {
    rmSync(join(REPO_ROOT, file));
    rmSync(join(REPO_ROOT, `${file}.map`), { force: true });
  }
  for (const name of bundleFiles(outdir)) trimSourceMap(join(outdir, `${name}.map`));
  const shipped = shippedImports(meta);
  copyModuleFiles([...(options.files ?? []), ...shipped], outdir);
  for (const [name, contents] of Object.entries(options.generated ?? {})) writeFileSync(join(outdir, name), contents);
  return { inputs, metafile: meta, shipped };
}

/**
 * The SHIPPED files that the code reached from index.mjs imports. An output's imports are those of the code left after
 * tree shaking; esbuild still writes a chunk for every import() target, also where the import() was dropped, and such
 * a chunk, reached from nowhere, never runs.
 */
function shippedImports(metafile: Metafile): string[] {
  const reached = reachedOutputs(metafile);
  const imported = [...reached].flatMap((file) => (metafile.outputs[file]?.imports ?? []).filter((edge) => edge.external).map((edge) => edge.path));
  const unknown = imported.filter((path) => path.startsWith('pdfjs-dist') && !SHIPPED_FILES.has(path));
  if (unknown.length > 0) throw new Error(`The bundle imports ${unknown.join(', ')}, which is neither bundled nor shipped (SHIPPED)`);
  return [...new Set(imported.filter((path) => SHIPPED_FILES.has(path)))].sort();
}

/** The output files (as the metafile names them) that index.mjs reaches by static or dynamic imports. */
function reachedOutputs(metafile: Metafile): Set<string> {
  const reached = new Set<string>();
  const stack = Object.keys(metafile.outputs).filter((file) => basename(file) === BUNDLE_FILE);
  for (let file = stack.pop(); file !== undefined; file = stack.pop()) {
    if (reached.has(file)) continue;
    reached.add(file);
    for (const edge of metafile.outputs[file]?.imports ?? []) if (!edge.external) stack.push(edge.path);
  }
  return reached;
}

/**
 * Keeps the mappings into the project's code and drops those into node_modules. Where a dropped run begins, a
 * segment without a source ends the mapping before it, so dependency code is never attributed to project code.
 */
export function trimSourceMap(file: string): void {
  const map = JSON.parse(readFileSync(file, 'utf8')) as { sources: string[]; names: string[]; mappings: string };
  // Project code: a path into the repository outside node_modules (a dependency's own map names its sources by URL).
  const own = (source: string) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(source)) return false;
    const path = resolve(dirname(file), source);
    return path.startsWith(`${REPO_ROOT}/`) && !path.includes('/node_modules/');
  };
  const sources: string[] = [];
  const sourceIndex = new Map<number, number>();
  map.sources.forEach((source, i) => {
    if (!own(source)) return;
    sourceIndex.set(i, sources.length);
    sources.push(source);
  });
  const names: string[] = [];
  const nameIndex = new Map<number, number>();
  const nameOf = (i: number) => {
    let kept = nameIndex.get(i);
    if (kept === undefined) {
      kept = names.length;
      nameIndex.set(i, kept);
      names.push(map.names[i] ?? '');
    }
    return kept;
  };
  const lines = decode(map.mappings).map((line) => {
    const kept: SourceMapSegment[] = [];
    let mapped = false;
    for (const segment of line) {
      const source = segment.length === 1 ? undefined : sourceIndex.get(segment[1]);
      if (segment.length === 1 || source === undefined) {
        if (mapped) kept.push([segment[0]]);
        mapped = false;
        continue;
      }
      mapped = true;
      kept.push(segment.length === 5 ? [segment[0], source, segment[2], segment[3], nameOf(segment[4])] : [segment[0], source, segment[2], segment[3]]);
    }
    return kept;
  });
  writeFileSync(file, JSON.stringify({ ...map, sources, names, mappings: encode(lines) }));
}

/** Copies node_modules files, and the package.json and licence of each package they come from, under `outdir`. */
function copyModuleFiles(files: readonly string[], outdir: string): void {
  const packageOf = (file: string) => file.split('/').slice(0, file.startsWith('@') ? 2 : 1).join('/');
  const copy = (file: string) => {
    mkdirSync(dirname(join(outdir, 'node_modules', file)), { recursive: true });
    copyFileSync(join(REPO_ROOT, 'node_modules', file), join(outdir, 'node_modules', file));
  };
  files.forEach(copy);
  // A WebAssembly module is loaded from beside the bundle (new URL('x.wasm', import.meta.url) in the bundled code).
  for (const file of files.filter((f) => f.endsWith('.wasm'))) copyFileSync(join(REPO_ROOT, 'node_modules', file), join(outdir, basename(file)));
  for (const pkg of new Set(files.map(packageOf))) {
    const licences = readdirSync(join(REPO_ROOT, 'node_modules', pkg)).filter((name) => name.startsWith('LICENSE'));
    ['package.json', ...licences].forEach((name) => { copy(`${pkg}/${name}`); });
  }
}

/** The font files (and the shaper's WebAssembly) the seal reads at run time, read from their sources so they cannot drift. */
export function sealFontFiles(): string[] {
  const source = ['catalog.ts', 'shaper.ts'].map((file) => readFileSync(join(REPO_ROOT, 'shared', 'sealing', 'text', file), 'utf8')).join('\n');
  const files = [...source.matchAll(/'((?:@[\w.-]+\/)?[\w.-]+\/[^'\s]+\.(?:ttf|wasm))'/g)].map((m) => m[1] ?? '');
  if (files.length === 0) throw new Error('No font files found in shared/sealing/text/catalog.ts: the seal bundle would lack its fonts');
  return [...new Set(files)];
}

/**
 * The inputs a bundle evaluates when it is imported: the entry and what it reaches by static imports. What only a
 * dynamic `import()` reaches is wrapped by esbuild and evaluated on that import's first run.
 */
export function evaluatedAtInit(metafile: Metafile, entry: string): Set<string> {
  const seen = new Set<string>();
  const stack = [entry];
  for (let file = stack.pop(); file !== undefined; file = stack.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const edge of metafile.inputs[file]?.imports ?? []) if (edge.kind !== 'dynamic-import' && edge.path in metafile.inputs) stack.push(edge.path);
  }
  return seen;
}
