/**
 * Builds the signer-facing pages (web/src) into static files under web/dist with esbuild.
 *
 *   tsx web/build.ts             build now
 *   tsx web/build.ts --if-stale  build only when web/src, this script or the bundled packages changed
 *
 * Output (every asset name carries a content hash, index.html does not):
 *   index.html                        the single page; the signing host answers every unknown path with it
 *   assets/main-*.js, assets/*.css     the app (loaded first)
 *   assets/pdf-*.js                   pdf.js, imported lazily once the document is shown
 *   assets/pdf.worker-*.mjs           pdf.js's worker, started by pdf.js from our origin
 *   assets/pdfjs-<version>/           cmaps, standard fonts, wasm decoders, ICC profiles: fetched on demand
 *   assets/*.ttf                      the typed-signature fonts (the same files sealing embeds)
 *   build-report.json                 sizes, raw and gzipped (quoted in the README)
 *
 * Concurrent callers (several test files) are serialised by a lock directory; the new tree is built beside
 * the old one and swapped in with renames.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const WEB = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(WEB);
const SRC = join(WEB, 'src');
export const DIST = join(WEB, 'dist');
const WORK = join(ROOT, 'node_modules', '.cache', 'esign-web');
const STAMP = '.build-stamp';
const require = createRequire(import.meta.url);

/** Label (as sent in SignRequest.fontLabel) to the font file sealing uses (shared/pdf/fonts.ts). */
const SIGNATURE_FONT_FILES: Record<string, string> = {
  'Dancing Script': '@expo-google-fonts/dancing-script/400Regular/DancingScript_400Regular.ttf',
  'Great Vibes': '@expo-google-fonts/great-vibes/400Regular/GreatVibes_400Regular.ttf',
  Caveat: '@expo-google-fonts/caveat/400Regular/Caveat_400Regular.ttf',
};
const PDFJS_DIRS = ['cmaps', 'standard_fonts', 'wasm', 'iccs'];

const packageVersion = (name: string): string => (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string }).version;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  }).sort();
}

/** Everything the output depends on: sources, this script, the shared code the app imports, package versions. */
function inputHash(): string {
  const hash = createHash('sha256');
  const shared = [join(ROOT, 'shared', 'domain', 'placement.ts')];
  for (const file of [...filesUnder(SRC), fileURLToPath(import.meta.url), ...shared]) {
    hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  for (const name of ['esbuild', 'pdfjs-dist', '@expo-google-fonts/dancing-script', '@expo-google-fonts/great-vibes', '@expo-google-fonts/caveat']) {
    hash.update(`${name}@${packageVersion(name)}\0`);
  }
  return hash.digest('hex');
}

export function isStale(): boolean {
  try {
    return readFileSync(join(DIST, STAMP), 'utf8').trim() !== inputHash();
  } catch {
    return true;
  }
}

const short = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex').slice(0, 10).toUpperCase();

function put(out: string, path: string, bytes: Uint8Array | string): void {
  const file = join(out, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, bytes);
}

/** Copies a file to assets/ under a content-hashed name; answers its URL. */
function hashedCopy(out: string, source: string, name: string, ext: string): string {
  const bytes = readFileSync(source);
  const path = `assets/${name}-${short(bytes)}${ext}`;
  put(out, path, bytes);
  return `/${path}`;
}

interface Size { file: string; bytes: number; gzip: number }
const sizeOf = (out: string, url: string): Size => {
  const bytes = readFileSync(join(out, url.replace(/^\//, '')));
  return { file: url, bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};

async function buildInto(out: string, stamp: string): Promise<Record<string, Size[]>> {
  const pdfjsRoot = dirname(require.resolve('pdfjs-dist/package.json'));
  const pdfjsBase = `/assets/pdfjs-${packageVersion('pdfjs-dist')}/`;
  for (const dir of PDFJS_DIRS) cpSync(join(pdfjsRoot, dir), join(out, pdfjsBase, dir), { recursive: true });
  const worker = hashedCopy(out, join(pdfjsRoot, 'build', 'pdf.worker.min.mjs'), 'pdf.worker', '.mjs');

  const fonts = Object.entries(SIGNATURE_FONT_FILES).map(([label, module]) => ({
    label, url: hashedCopy(out, require.resolve(module), label.replace(/\s+/g, ''), '.ttf'),
  }));
  const fontFaces = fonts.map(({ label, url }) =>
    `@font-face{font-family:"${label}";src:url("${url}") format("truetype");font-display:swap}`).join('');
  const css = await esbuild.transform(fontFaces + readFileSync(join(SRC, 'styles.css'), 'utf8'), { loader: 'css', minify: true });
  const cssUrl = `/assets/app-${short(Buffer.from(css.code))}.css`;
  put(out, cssUrl.slice(1), css.code);

  const result = await esbuild.build({
    entryPoints: { main: join(SRC, 'main.ts') },
    bundle: true,
    splitting: true,
    format: 'esm',
    target: ['es2022', 'chrome100', 'firefox110', 'safari16'],
    minify: true,
    legalComments: 'none',
    outdir: join(out, 'assets'),
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    tsconfig: join(SRC, 'tsconfig.json'),
    define: {
      __PDF_WORKER_URL__: JSON.stringify(worker),
      __PDFJS_BASE__: JSON.stringify(pdfjsBase),
    },
    absWorkingDir: ROOT,
    metafile: true,
    write: true,
    logLevel: 'warning',
  });
  const outputs = Object.entries(result.metafile.outputs);
  const main = outputs.find(([, o]) => o.entryPoint !== undefined)?.[0];
  if (!main) throw new Error('esbuild produced no entry chunk');
  const url = (path: string) => `/${relative(out, join(ROOT, path)).split('\\').join('/')}`;
  const mainUrl = url(main);

  const html = readFileSync(join(SRC, 'index.html'), 'utf8').replace('%CSS%', cssUrl).replace('%JS%', mainUrl);
  put(out, 'index.html', html);

  const chunks = outputs.filter(([path, o]) => path !== main && o.entryPoint === undefined).map(([path]) => url(path));
  const pdfChunk = outputs.filter(([, o]) => Object.keys(o.inputs).some((input) => input.includes('pdfjs-dist'))).map(([path]) => url(path));
  const report = {
    'first load (index.html, app script, styles)': [sizeOf(out, '/index.html'), sizeOf(out, mainUrl), sizeOf(out, cssUrl)],
    'pdf.js (lazy, when the document is shown)': pdfChunk.map((u) => sizeOf(out, u)),
    'other lazy chunks': chunks.filter((c) => !pdfChunk.includes(c)).map((u) => sizeOf(out, u)),
    'pdf.js worker (lazy)': [sizeOf(out, worker)],
    'signature fonts (each loaded when a typed signature uses it)': fonts.map((f) => sizeOf(out, f.url)),
  };
  put(out, 'build-report.json', `${JSON.stringify(report, null, 2)}\n`);
  put(out, STAMP, `${stamp}\n`);
  return report;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Holds a lock directory while `run` goes; a lock older than two minutes is taken to be left over. */
async function withLock<T>(run: () => Promise<T>): Promise<T> {
  const lock = join(WORK, 'lock');
  mkdirSync(WORK, { recursive: true });
  for (let waited = 0; ; waited += 100) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      try {
        if (Date.now() - statSync(lock).mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true });
      } catch {
        // released meanwhile
      }
      if (waited > 180_000) throw new Error(`web build: lock ${lock} is held for too long`);
      await sleep(100);
    }
  }
  try {
    return await run();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export async function buildWeb(options: { ifStale?: boolean; quiet?: boolean } = {}): Promise<boolean> {
  if (options.ifStale && !isStale()) return false;
  return withLock(async () => {
    if (options.ifStale && !isStale()) return false; // another process built it while we waited
    const started = Date.now();
    const stamp = inputHash();
    const next = join(WORK, `dist-${String(process.pid)}-${String(started)}`);
    const old = `${next}-old`;
    rmSync(next, { recursive: true, force: true });
    const report = await buildInto(next, stamp);
    if (existsSync(DIST)) renameSync(DIST, old);
    renameSync(next, DIST);
    rmSync(old, { recursive: true, force: true });
    if (!options.quiet) {
      const lines = Object.entries(report).flatMap(([group, sizes]) => [
        `  ${group}:`, ...sizes.map((s) => `    ${s.file}  ${(s.bytes / 1024).toFixed(1)} kB (${(s.gzip / 1024).toFixed(1)} kB gzip)`),
      ]);
      console.log(`web: built web/dist in ${String(Date.now() - started)} ms\n${lines.join('\n')}`);
    }
    return true;
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const ifStale = process.argv.includes('--if-stale');
  buildWeb({ ifStale }).then((built) => {
    if (!built) console.log('web: web/dist is up to date');
  }, (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
