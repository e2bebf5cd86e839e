/**
 * Benchmark of the full seal (sealPdf: three drawn fields, the audit certificate, the PAdES signature in one
 * incremental update) on 1, 10 and 100 plain pages and on a ~25 MB, 500-page PDF (one incompressible 132x132 RGB
 * image per page), at B-B; and at B-LTA against the local CA and timestamp authority (10 pages).
 *
 *   npx tsx test/bench/seal-bench.ts [--quick]
 *
 * The measuring code is bundled with esbuild and run by plain node in a fresh process per fixture, as the seal
 * function runs on Lambda, so the peak RSS covers reading the file and sealing it, not a TypeScript loader.
 * "hash floor" is one SHA-256 of the input: the least any whole-file signature costs.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { PDFDocument } from 'pdf-lib';
import { BUNDLE_OPTIONS, REPO_ROOT } from '../../infra/constructs/bundling.ts';
import { addImagePage, makePdf } from '../support/pdfs.ts';

const quick = process.argv.includes('--quick');
const RUNS = quick ? 5 : 15;

interface Fixture { name: string; level: 'B-B' | 'B-LTA'; build: () => Promise<Uint8Array> }

const FIXTURES: Fixture[] = [
  ...[1, 10, 100].map((pages) => ({ name: `${String(pages)} pages`, level: 'B-B' as const, build: () => makePdf({ pages, objectStreams: false }) })),
  { name: '500 pages, ~25 MB of images', level: 'B-B', build: imagePdf },
  { name: '10 pages', level: 'B-LTA', build: () => makePdf({ pages: 10, objectStreams: false }) },
];

async function imagePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  for (let i = 0; i < 500; i++) addImagePage(doc, 132);
  return doc.save({ useObjectStreams: false });
}

/** The code each child process runs: seal the file RUNS times, report medians and the peak RSS. */
const MEASURE = `
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { KeyFileSigner } from '#adapters/local/key-file-signer.ts';
import { HttpRevocationSource } from '#adapters/http/revocation-source.ts';
import { HttpTimestampAuthority } from '#adapters/http/timestamp-authority.ts';
import { startLocalPki } from '#infra/local/engines/pki.ts';
import { sealPdf } from '#pdf/seal.ts';
const [file, dir, level, runs] = process.argv.slice(2);
const pki = level === 'B-LTA' ? await startLocalPki({ dir: join(dir, 'pki') }) : undefined;
const signer = await KeyFileSigner.open(join(dir, 'signing'), pki ? { certify: (k, c) => pki.sealChain(k, c) } : {});
const evidence = pki ? { level, timestamps: new HttpTimestampAuthority(pki.tsaUrl), revocation: new HttpRevocationSource() } : undefined;
const bytes = new Uint8Array(readFileSync(file));
const input = (i) => ({
  items: [0, 1, 2].map((n) => ({ page: 1, rect: { x: 72, y: 100 + 60 * n, width: 220, height: 40 }, rotate: 0, value: n === 2 ? { kind: 'text', text: 'Agreed by Łukasz Nowak ' + i } : { kind: 'typed', text: 'Łukasz Nowak', fontLabel: 'Caveat' } })),
  certificate: { envelopeId: 'e' + i, subject: 'Supply contract', originalSha256: 'ab'.repeat(32), originalPageCount: 1, createdAt: new Date().toISOString(), completedAt: new Date().toISOString(),
    chainHead: { seq: 12, hash: 'cd'.repeat(32) }, documents: [{ name: 'contract.pdf', sha256: 'ab'.repeat(32), pageCount: 1 }],
    signers: [{ id: 's1', name: 'Łukasz Nowak', email: 'l@example.com', status: 'signed', signedAt: new Date().toISOString() }, { id: 's2', name: 'Wang Xiaoming', email: 'w@example.com', status: 'signed', signedAt: new Date().toISOString() }],
    events: Array.from({ length: 12 }, (_, n) => ({ seq: n + 1, timestamp: new Date().toISOString(), event: 'signer.viewed', actor: 'signer:s1', ip: '203.0.113.7', userAgent: 'Mozilla/5.0 (X11; Linux x86_64)' })) },
  signer, signingTime: new Date(), evidence,
});
const wall = [], cpu = [];
let peak = 0, grown = 0;
for (let run = 0; run < Number(runs); run++) {
  const c = process.cpuUsage(), t = performance.now();
  const sealed = await sealPdf(bytes, input(run));
  wall.push(performance.now() - t); const d = process.cpuUsage(c); cpu.push((d.user + d.system) / 1000);
  grown = sealed.bytes.length - bytes.length;
  if (run === 0) peak = process.resourceUsage().maxRSS / 1024; // later runs only add garbage
}
const h = performance.now(); createHash('sha256').update(bytes).digest(); const hash = performance.now() - h;
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
console.log(JSON.stringify({ median: median(wall.slice(1)), cpu: median(cpu.slice(1)), first: wall[0], peak, grown, hash }));
await pki?.stop();
`;

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'seal-bench-'));
  const bundle = join(work, 'measure.mjs');
  await build({
    ...BUNDLE_OPTIONS, stdin: { contents: MEASURE, resolveDir: REPO_ROOT, sourcefile: 'measure.ts', loader: 'ts' }, outfile: bundle, logLevel: 'silent',
  });
  // The bundle resolves fonts and the shaper's WebAssembly from beside it, as on Lambda.
  spawnSync('bash', ['-c', `ln -s "${join(REPO_ROOT, 'node_modules')}" "${join(work, 'node_modules')}" && cp "${join(REPO_ROOT, 'node_modules/harfbuzzjs/dist/harfbuzz.wasm')}" "${work}/"`]);
  console.log(`| fixture | level | size | median ms | CPU ms | first ms | peak RSS | update | hash floor |\n|---|---|---|---|---|---|---|---|---|`);
  for (const fixture of FIXTURES) {
    const bytes = await fixture.build();
    const file = join(work, `${fixture.name.replace(/\W+/g, '-')}.pdf`);
    writeFileSync(file, bytes);
    const child = spawnSync(process.execPath, [bundle, file, mkdtempSync(join(work, 'keys-')), fixture.level, String(RUNS)], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`measuring ${fixture.name} failed: ${child.stderr}`);
    const r = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, number>;
    const ms = (v: number | undefined) => (v ?? NaN).toFixed(0);
    console.log(`| ${fixture.name} | ${fixture.level} | ${(bytes.length / 2 ** 20).toFixed(2)} MB | ${ms(r.median)} | ${ms(r.cpu)} | ${ms(r.first)} | ${ms(r.peak)} MB | +${((r.grown ?? 0) / 1024).toFixed(0)} KB | ${(r.hash ?? NaN).toFixed(1)} ms |`);
  }
}

await main();
