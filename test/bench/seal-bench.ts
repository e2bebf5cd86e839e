/**
 * Benchmark for signPdf (PAdES B-B as an incremental update) on 1, 10, 100 and 500 plain pages and on a
 * ~25 MB, 500-page PDF (one incompressible 132x132 RGB image per page), each as a classic-xref file and
 * as an XRef-stream file.
 *
 *   npx tsx test/bench/seal-bench.ts
 *
 * Builds the fixtures into the OS temp dir, then measures each in a fresh child process so the peak RSS
 * covers reading the file and signing it (not building it). The signer is the local key file (RSA-2048);
 * "hash floor" is one SHA-256 of the input, the least any whole-file signature costs.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument } from 'pdf-lib';
import { KeyFileSigner } from '../../shared/adapters/local/key-file-signer.ts';
import { signPdf } from '../../shared/pdf/pades.ts';
import { addImagePage, makePdf } from '../support/pdfs.ts';

const RUNS = 15;
const SIDE = 132; // 132 * 132 * 3 = 52,272 bytes per page -> ~25 MB of image data over 500 pages

interface Fixture {
  name: string;
  build: (objectStreams: boolean) => Promise<Uint8Array>;
}

const FIXTURES: Fixture[] = [
  ...[1, 10, 100, 500].map((pages) => ({ name: `${String(pages)} pages`, build: (objectStreams: boolean) => makePdf({ pages, objectStreams }) })),
  { name: '500 pages, ~25 MB of images', build: imagePdf },
];

async function imagePdf(objectStreams: boolean): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  for (let i = 0; i < 500; i++) {
    addImagePage(doc, SIDE);
  }
  return doc.save({ useObjectStreams: objectStreams });
}

async function measure(file: string, keyDir: string): Promise<void> {
  const signer = await KeyFileSigner.open(keyDir);
  const bytes = new Uint8Array(readFileSync(file));
  const times: number[] = [];
  let peak = 0;
  let grownBy = 0;
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    const sealed = await signPdf(bytes, signer, { signingTime: new Date() });
    times.push(performance.now() - start);
    grownBy = sealed.length - bytes.length;
    if (run === 0) peak = process.resourceUsage().maxRSS * 1024; // later runs only add garbage
  }
  const hashStart = performance.now();
  createHash('sha256').update(bytes).digest();
  const hash = performance.now() - hashStart;
  const sorted = [...times].sort((a, b) => a - b);
  const ms = (t: number | undefined) => `${(t ?? NaN).toFixed(0)} ms`;
  console.log(
    `  median ${ms(sorted[Math.floor(RUNS / 2)])} (first ${ms(times[0])}), peak RSS ${(peak / 2 ** 20).toFixed(0)} MB, ` +
      `update +${(grownBy / 1024).toFixed(1)} KB, hash floor ${hash.toFixed(1)} ms`,
  );
}

async function main(): Promise<void> {
  const [mode, file, keyDir] = process.argv.slice(2);
  if (mode === 'measure' && file && keyDir) return measure(file, keyDir);
  const self = fileURLToPath(import.meta.url);
  const keys = join(tmpdir(), 'seal-bench-keys');
  await KeyFileSigner.open(keys); // made once, outside the measured processes
  for (const fixture of FIXTURES) {
    for (const objectStreams of [false, true]) {
      const bytes = await fixture.build(objectStreams);
      const kind = objectStreams ? 'XRef stream' : 'classic xref';
      const path = join(tmpdir(), `seal-bench-${fixture.name.replace(/\W+/g, '-')}-${objectStreams ? 'xrefstm' : 'classic'}.pdf`);
      writeFileSync(path, bytes);
      console.log(`${fixture.name}, ${kind}: ${(bytes.length / 2 ** 20).toFixed(2)} MB`);
      const child = spawnSync(process.execPath, [...process.execArgv, self, 'measure', path, keys], { stdio: 'inherit' });
      if (child.status !== 0) throw new Error(`measuring ${path} failed`);
    }
  }
}

await main();
