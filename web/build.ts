/**
 * Builds the signer-facing pages (web/src) into static files under web/dist with esbuild.
 *
 *   tsx web/build.ts             build now
 *   tsx web/build.ts --if-stale  build only when web/src, this script or the bundled packages changed
 *
 * Output (every asset name carries a content hash, index.html does not):
 *   index.html                        the single page; the signing host answers every unknown path with it
 *   author.html                       the same page announcing the editor's chunk and pdf.js (served on /author/)
 *   assets/main-*.js, assets/*.css     the app (loaded first)
 *   assets/pdf-*.js                   pdf.js, imported lazily once the document is shown
 *   assets/pdf.worker-*.mjs           pdf.js's worker, started by pdf.js from our origin
 *   assets/pdfjs-<version>/           cmaps, standard fonts, wasm decoders, ICC profiles: fetched on demand
 *   assets/*.ttf                      the typed-signature fonts (the same files sealing embeds)
 *   assets/<locale>-*.js              a message catalogue other than English, fetched for a signer who reads it
 *   assets/start-*.js                 the sender's editor (/author/{ticket}), fetched only on that path
 *   esign-author.js                   the editor's custom element, which integrators include by this fixed name
 *   app/index.html, assets/console-*  the sender console (/app/): a bundle of its own, so the signing page never loads it
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
import { isLiteralElement, parse, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import * as esbuild from 'esbuild';
import { isMainModule } from '../infra/main-module.ts';

const WEB = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(WEB);
const SRC = join(WEB, 'src');
export const DIST = join(WEB, 'dist');
const WORK = join(ROOT, 'node_modules', '.cache', 'esign-web');
const STAMP = '.build-stamp';
const require = createRequire(import.meta.url);

/** Label (as sent in SignRequest.fontLabel) to the font file sealing uses (shared/sealing/text/catalog.ts). */
const SIGNATURE_FONT_FILES: Record<string, string> = {
  'Dancing Script': '@expo-google-fonts/dancing-script/400Regular/DancingScript_400Regular.ttf',
  'Great Vibes': '@expo-google-fonts/great-vibes/400Regular/GreatVibes_400Regular.ttf',
  Caveat: '@expo-google-fonts/caveat/400Regular/Caveat_400Regular.ttf',
};
const PDFJS_DIRS = ['cmaps', 'standard_fonts', 'wasm', 'iccs'];

/** A package's version, from its package.json in node_modules (some packages do not export that file). */
const packageVersion = (name: string): string =>
  (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  }).sort();
}

/** Everything the output depends on: sources, this script, the shared code the app imports, package versions. */
function inputHash(): string {
  const hash = createHash('sha256');
  const shared = [
    join(ROOT, 'shared', 'envelopes', 'field-placement.ts'), join(ROOT, 'shared', 'kernel', 'model.ts'),
    join(ROOT, 'shared', 'envelopes', 'field-conditions.ts'), join(ROOT, 'shared', 'envelopes', 'text-validation.ts'),
    join(ROOT, 'shared', 'envelopes', 'pattern-rules.ts'), ...filesUnder(join(ROOT, 'shared', 'verify')),
  ];
  for (const file of [...filesUnder(SRC), fileURLToPath(import.meta.url), ...shared]) {
    hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  for (const name of ['esbuild', 'preact', 'oauth4webapi', 'pdfjs-dist', 'pdf-lib', 'pkijs', 'asn1js', 'intl-messageformat', '@formatjs/icu-messageformat-parser', '@expo-google-fonts/dancing-script', '@expo-google-fonts/great-vibes', '@expo-google-fonts/caveat', 're2js']) {
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

/**
 * Message catalogues (web/src/i18n/*.json) are parsed here, so the page ships intl-messageformat without its
 * parser (the alias below): a few kB instead of a few tens. Plain text stays a string, anything with placeholders,
 * plurals or tags becomes its parsed form (catalogue.ts). A message that does not parse fails the build.
 */
const catalogues: esbuild.Plugin = {
  name: 'catalogues',
  setup(build) {
    build.onLoad({ filter: /[\\/]web[\\/]src[\\/](console[\\/])?i18n[\\/][^\\/]+\.json$/ }, (args) => {
      const messages = JSON.parse(readFileSync(args.path, 'utf8')) as Record<string, string>;
      const parsed: Record<string, string | MessageFormatElement[]> = {};
      for (const [key, message] of Object.entries(messages)) {
        try {
          const ast = parse(message, { requiresOtherClause: true, shouldParseSkeletons: true });
          // Plain text (most messages) stays a string: the page shows it as it is
          const [only] = ast;
          parsed[key] = ast.length === 0 ? '' : ast.length === 1 && only && isLiteralElement(only) ? only.value : ast;
        } catch (error) {
          throw new Error(`${relative(ROOT, args.path)}: message "${key}" is not ICU MessageFormat: ${String(error)}`, { cause: error });
        }
      }
      return { contents: `export default ${JSON.stringify(parsed)};`, loader: 'js', watchFiles: [args.path] };
    });
  },
};

/** The editor's stylesheet (web/src/author/*.css), minified into its chunk as text: the signing page's CSS stays as it is. */
const chunkStyles: esbuild.Plugin = {
  name: 'chunk-styles',
  setup(build) {
    build.onLoad({ filter: /[\\/]web[\\/]src[\\/]author[\\/][^\\/]+\.css$/ }, async (args) => {
      const css = await esbuild.transform(readFileSync(args.path, 'utf8'), { loader: 'css', minify: true });
      return { contents: `export default ${JSON.stringify(css.code)};`, loader: 'js', watchFiles: [args.path] };
    });
  },
};

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
    plugins: [catalogues, chunkStyles],
    alias: { '@formatjs/icu-messageformat-parser': '@formatjs/icu-messageformat-parser/no-parser.js' },
    define: {
      __PDF_WORKER_URL__: JSON.stringify(worker),
      __PDFJS_BASE__: JSON.stringify(pdfjsBase),
    },
    absWorkingDir: ROOT,
    metafile: true,
    write: true,
    logLevel: 'warning',
  });
  const outputs = result.metafile.outputs;
  const main = Object.keys(outputs).find((path) => outputs[path]?.entryPoint?.endsWith('web/src/main.ts'));
  if (!main) throw new Error('esbuild produced no entry chunk');
  const url = (path: string) => `/${relative(out, join(ROOT, path)).split('\\').join('/')}`;
  const mainUrl = url(main);

  // The first load is the entry and every chunk it imports statically; the rest is fetched when it is needed
  const first = new Set<string>();
  const visit = (path: string) => {
    if (first.has(path)) return;
    first.add(path);
    for (const i of outputs[path]?.imports ?? []) if (i.kind === 'import-statement') visit(i.path);
  };
  visit(main);

  // The entry's chunks are announced in the page, so they are fetched with it rather than after it
  const preload = [...first].filter((p) => p !== main).map((p) => `<link rel="modulepreload" href="${url(p)}">`).join('\n  ');
  const html = readFileSync(join(SRC, 'index.html'), 'utf8').replace('%CSS%', cssUrl).replace('%JS%', mainUrl).replace('%PRELOAD%', preload);
  put(out, 'index.html', html);
  // The editor's page (/author/, served by its route): the same page announcing the editor's chunk and pdf.js too, so
  // they are fetched with the page instead of after the app script asks for them
  const editorStart = Object.keys(outputs).find((path) => Object.keys(outputs[path]?.inputs ?? {}).some((input) => input.endsWith('web/src/author/author-start.ts')));
  const editorFirst = new Set<string>();
  const visitEditor = (path: string) => {
    if (first.has(path) || editorFirst.has(path)) return;
    editorFirst.add(path);
    for (const i of outputs[path]?.imports ?? []) if (i.kind === 'import-statement') visitEditor(i.path);
  };
  if (editorStart) visitEditor(editorStart);
  const pdfjsMain = Object.keys(outputs).find((path) => path.endsWith('.js') && Object.keys(outputs[path]?.inputs ?? {}).some((input) => /pdfjs-dist\/.*pdf\.m?js$/.test(input)));
  if (pdfjsMain) visitEditor(pdfjsMain);
  const editorPreload = [...editorFirst].map((p) => `<link rel="modulepreload" href="${url(p)}">`).join('\n  ');
  put(out, 'author.html', html.replace('</head>', `  ${editorPreload}\n</head>`));
  // The tab's icon, at the site's root as browsers look for it (served from the pages bucket on AWS)
  put(out, 'favicon.svg', readFileSync(join(SRC, 'favicon.svg')));
  // The custom element: one small script with a fixed name (integrators' pages name it), no imports
  await esbuild.build({
    entryPoints: [join(SRC, 'esign-author.ts')], bundle: true, format: 'iife', minify: true, legalComments: 'none',
    target: ['es2022', 'chrome100', 'firefox110', 'safari16'], outfile: join(out, 'esign-author.js'), logLevel: 'warning',
  });
  const scripts = Object.keys(outputs).filter((path) => path.endsWith('.js'));
  const isEditor = (path: string) => Object.keys(outputs[path]?.inputs ?? {}).some((input) => input.includes('web/src/author/'));
  const isPdfjs = (path: string) => Object.keys(outputs[path]?.inputs ?? {}).some((input) => input.includes('pdfjs-dist'));
  const consoleFiles = await buildConsole(out);
  const report = {
    'sender console (/app/, its own bundle)': consoleFiles.map((u) => sizeOf(out, u)),
    'first load (index.html, app script, styles)': [sizeOf(out, '/index.html'), ...[...first].map((p) => sizeOf(out, url(p))), sizeOf(out, cssUrl)],
    'pdf.js (lazy, when the document is shown)': scripts.filter((p) => !first.has(p) && isPdfjs(p)).map((p) => sizeOf(out, url(p))),
    'other lazy chunks (the document step, catalogues other than English)': scripts.filter((p) => !first.has(p) && !isPdfjs(p) && !isEditor(p)).map((p) => sizeOf(out, url(p))),
    'the sender\'s editor (lazy, /author/ only; pdf.js besides)': scripts.filter((p) => !first.has(p) && isEditor(p)).map((p) => sizeOf(out, url(p))),
    'the editor\'s custom element (esign-author.js)': [sizeOf(out, '/esign-author.js')],
    'pdf.js worker (lazy)': [sizeOf(out, worker)],
    'signature fonts (each loaded when a typed signature uses it)': fonts.map((f) => sizeOf(out, f.url)),
  };
  put(out, 'build-report.json', `${JSON.stringify(report, null, 2)}\n`);
  put(out, STAMP, `${stamp}\n`);
  return report;
}

/**
 * The sender console: its own entry, styles (the signing page's, then its own) and page, built apart from the signing
 * page so that page's bundle and first load stay as they are. Answers the console's first-load files.
 */
async function buildConsole(out: string): Promise<string[]> {
  const sourceCss = [join(SRC, 'styles.css'), join(SRC, 'console', 'console.css')].map((f) => readFileSync(f, 'utf8')).join('\n');
  const css = await esbuild.transform(sourceCss, { loader: 'css', minify: true });
  const cssUrl = `/assets/console-${short(Buffer.from(css.code))}.css`;
  put(out, cssUrl.slice(1), css.code);
  const result = await esbuild.build({
    entryPoints: { console: join(SRC, 'console', 'console-main.tsx') },
    bundle: true, splitting: true, format: 'esm', target: ['es2022', 'chrome100', 'firefox110', 'safari16'], minify: true, legalComments: 'none',
    outdir: join(out, 'assets'), entryNames: '[name]-[hash]', chunkNames: 'console-[name]-[hash]', tsconfig: join(SRC, 'tsconfig.json'),
    plugins: [catalogues], alias: { '@formatjs/icu-messageformat-parser': '@formatjs/icu-messageformat-parser/no-parser.js' },
    absWorkingDir: ROOT, metafile: true, write: true, logLevel: 'warning',
  });
  const outputs = result.metafile.outputs;
  const entry = Object.keys(outputs).find((path) => outputs[path]?.entryPoint?.endsWith('console-main.tsx'));
  if (!entry) throw new Error('esbuild produced no console entry');
  const url = (path: string) => `/${relative(out, join(ROOT, path)).split('\\').join('/')}`;
  const statics = (outputs[entry]?.imports ?? []).filter((i) => i.kind === 'import-statement').map((i) => url(i.path));
  const preload = statics.map((u) => `<link rel="modulepreload" href="${u}">`).join('\n  ');
  const html = readFileSync(join(SRC, 'console', 'app.html'), 'utf8').replace('%CSS%', cssUrl).replace('%JS%', url(entry)).replace('%PRELOAD%', preload);
  put(out, 'app/index.html', html);
  return ['/app/index.html', url(entry), ...statics, cssUrl];
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

if (isMainModule(import.meta.url)) {
  const ifStale = process.argv.includes('--if-stale');
  buildWeb({ ifStale }).then((built) => {
    if (!built) console.log('web: web/dist is up to date');
  }, (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
