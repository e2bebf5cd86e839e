/**
 * Figure 10: the verifier (shared/verify, what the /verify page and `npm run verify` run) on a 25 MB, 500-page B-LTA
 * file sealed against the local CA and TSA, in Node and in Chromium. The floor is hashing the file once with WebCrypto
 * (as the verifier hashes); the constant is the same verification of a 1-page B-LTA file (the certificate paths, CRLs
 * and signatures are the same, only the bytes differ). Ratio = (25 MB verify - constant) / floor; target <= 2x.
 */
import { createServer, type Server } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { chromium } from 'playwright-core';
import { REPO_ROOT } from '#infra/constructs/service-function.ts';
import { sealPdf } from '#shared/sealing/seal.ts';
import { hex, sha256 } from '#shared/verify/verify-chain.ts';
import { verifyPdf, type VerifyOptions } from '#shared/verify/verify-document.ts';
import { sha256RangesOnce } from '#shared/verify/node-digests.ts';
import { startTestPki } from '#test/support/local-pki.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { alternate, fmt, median, type Row, type RunSize } from './lib.ts';
import { imagePdf } from './seal.ts';
import { verdict } from './targets.ts';

interface Times { big: number[]; small: number[]; floor: number[] }
interface Files { big: Uint8Array; small: Uint8Array; roots: Uint8Array[] }

const TARGET = { max: 2, label: '<= 2x the floor' };

/** The two B-LTA files, sealed once with the local PKI. */
async function sealedFiles(): Promise<Files> {
  const pki = await startTestPki();
  try {
    const big = (await sealPdf(await imagePdf(), pki.input('B-LTA'))).bytes;
    const small = (await sealPdf(await makePdf({ pages: 1 }), pki.input('B-LTA'))).bytes;
    return { big, small, roots: [pki.pki.rootDer] };
  } finally {
    await pki.pki.stop();
  }
}

/** As `npm run verify -- --trust root.pem` calls the verifier (infra/verify-cli.ts): Node hashes the shared prefix once. */
const options = async (roots: Uint8Array[]): Promise<VerifyOptions> =>
  ({ anchors: { service: [], configured: await Promise.all(roots.map(async (der) => hex(await sha256(der)))) }, anchorCertificates: roots, sha256Ranges: sha256RangesOnce });

async function inNode(files: Files, size: RunSize): Promise<{ times: Times; outcome: string }> {
  const opts = await options(files.roots);
  const report = await verifyPdf(files.big, opts);
  const times = await alternate({
    big: () => verifyPdf(files.big, opts),
    small: () => verifyPdf(files.small, opts),
    floor: () => crypto.subtle.digest('SHA-256', files.big),
  }, size);
  return { times, outcome: `${report.indication}, ${report.signatures.map((s) => `${s.kind} ${s.padesLevel ?? ''}`.trim()).join(' + ')}` };
}

/** The same verifier bundled for the browser by esbuild, served on loopback, run by Debian's Chromium. */
async function inChromium(files: Files, size: RunSize, scratch: string): Promise<{ times: Times; outcome: string }> {
  const dir = join(scratch, 'verify-web');
  await esbuild.build({
    stdin: { contents: `export { verifyPdf } from ${JSON.stringify(join(REPO_ROOT, 'shared/verify/verify-document.ts'))}; export { hex, sha256 } from ${JSON.stringify(join(REPO_ROOT, 'shared/verify/verify-chain.ts'))};`, resolveDir: REPO_ROOT, loader: 'ts' },
    bundle: true, format: 'esm', platform: 'browser', target: 'chrome100', minify: true, outfile: join(dir, 'verify.js'), logLevel: 'silent',
  });
  const assets: Record<string, { body: Uint8Array | string; type: string }> = {
    '/': { body: '<!doctype html><meta charset="utf-8"><title>verify bench</title>', type: 'text/html' },
    '/verify.js': { body: readFileSync(join(dir, 'verify.js')), type: 'text/javascript' },
    '/big.pdf': { body: files.big, type: 'application/pdf' },
    '/small.pdf': { body: files.small, type: 'application/pdf' },
    '/root.der': { body: files.roots[0] ?? new Uint8Array(), type: 'application/octet-stream' },
  };
  const server: Server = createServer((req, res) => {
    const asset = assets[req.url ?? ''];
    if (!asset) { res.writeHead(404).end(); return; }
    res.writeHead(200, { 'content-type': asset.type }).end(asset.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const origin = `http://127.0.0.1:${String(typeof address === 'object' && address ? address.port : 0)}`;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    // A string: the bench runs under tsx, whose compiled functions call a helper the page does not have.
    return await page.evaluate<{ times: Times; outcome: string }>(IN_PAGE.replaceAll('RUNS', String(size.runs)).replaceAll('WARMUP', String(size.warmup)));
  } finally {
    await browser.close();
    server.close();
  }
}

/** Verifies both files in the page, alternated with the floor, as alternate() does in Node. */
const IN_PAGE = `(async () => {
  const lib = await import('/verify.js');
  const bytes = async (path) => new Uint8Array(await (await fetch(path)).arrayBuffer());
  const [big, small, root] = await Promise.all([bytes('/big.pdf'), bytes('/small.pdf'), bytes('/root.der')]);
  const opts = { anchors: { service: [], configured: [lib.hex(await lib.sha256(root))] }, anchorCertificates: [root] };
  const report = await lib.verifyPdf(big, opts);
  const variants = { big: () => lib.verifyPdf(big, opts), small: () => lib.verifyPdf(small, opts), floor: () => crypto.subtle.digest('SHA-256', big) };
  const names = Object.keys(variants);
  const times = { big: [], small: [], floor: [] };
  for (let round = 0; round < WARMUP + RUNS; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length];
      const start = performance.now();
      await variants[name]();
      if (round >= WARMUP) times[name].push(performance.now() - start);
    }
  }
  return { times, outcome: report.indication + ', ' + report.signatures.map((s) => (s.kind + ' ' + (s.padesLevel ?? '')).trim()).join(' + ') };
})()`;

function row(where: string, files: Files, result: { times: Times; outcome: string }, runs: number): Row {
  const [big, small, floor] = [median(result.times.big), median(result.times.small), median(result.times.floor)];
  const ratio = (big - small) / floor;
  return {
    figure: '11 Verify',
    what: `verify a 25 MB B-LTA file (${fmt.size(files.big.length)}, 500 pages), ${where}: median of ${String(runs)}`,
    ours: fmt.ms(big),
    other: `SHA-256 floor ${fmt.ms(floor)} (WebCrypto, the file once)`,
    ratio: fmt.ratio(ratio),
    note: `ratio = (verify - constant) / floor, constant = ${fmt.ms(small)} (the same check of a 1-page B-LTA file); ${verdict(ratio, TARGET)}; report: ${result.outcome}`,
  };
}

export async function verifyFigure(size: RunSize, scratch: string): Promise<Row[]> {
  const files = await sealedFiles();
  writeFileSync(join(scratch, 'verify-big.pdf'), files.big);
  const node = await inNode(files, size);
  const browser = await inChromium(files, size, scratch);
  return [row('Node (npm run verify)', files, node, size.runs), row('Chromium (the /verify page)', files, browser, size.runs)];
}
