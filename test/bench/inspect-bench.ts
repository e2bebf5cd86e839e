/**
 * Benchmark for inspectPdf on a ~25 MB, 500-page PDF (one incompressible 132x132 RGB image per page).
 *
 *   npx tsx test/bench/inspect-bench.ts
 *
 * Builds the fixtures into the OS temp dir, then measures each one in a fresh child process so that
 * the reported peak RSS covers only reading the file and inspecting it (not building it).
 * Variants: pdf-lib's default output (XRef stream + object streams), a classic xref table, and a
 * classic file whose image streams use an indirect /Length (as pdfTeX and others write), which
 * makes pdf-lib scan each stream byte by byte for `endstream`.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, PDFNumber, ParseSpeeds } from 'pdf-lib';
import { inspectPdf } from '../../shared/pdf/inspect.ts';
import { addImagePage } from '../support/pdfs.ts';

const PAGES = 500;
const SIDE = 132; // 132 * 132 * 3 = 52,272 bytes per page -> ~25 MB of image data
const IMAGE_BYTES = SIDE * SIDE * 3;
const RUNS = 5;

type Variant = 'xref-stream' | 'classic' | 'classic-indirect-length';
const VARIANTS: Variant[] = ['xref-stream', 'classic', 'classic-indirect-length'];

async function buildPdf(variant: Variant): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  // Registered first so it is object 3: "/Length 3 0 R" has the same byte length as "/Length 52272".
  const lengthRef = doc.context.register(PDFNumber.of(IMAGE_BYTES));
  for (let i = 0; i < PAGES; i++) {
    addImagePage(doc, SIDE);
  }
  const bytes = await doc.save({ useObjectStreams: variant === 'xref-stream' });
  return variant === 'classic-indirect-length' ? withIndirectLengths(bytes, lengthRef.toString()) : bytes;
}

/** Rewrites every "/Length 52272" as "/Length 3 0 R" in place (same byte length, so offsets stay valid). */
function withIndirectLengths(bytes: Uint8Array, ref: string): Uint8Array {
  const direct = Buffer.from(`/Length ${String(IMAGE_BYTES)}`, 'latin1');
  const indirect = Buffer.from(`/Length ${ref}`, 'latin1');
  if (direct.length !== indirect.length) throw new Error('length reference does not fit in place');
  const buf = Buffer.from(bytes);
  for (let at = buf.indexOf(direct); at >= 0; at = buf.indexOf(direct, at + 1)) indirect.copy(buf, at);
  return new Uint8Array(buf);
}

async function measure(file: string): Promise<void> {
  const bytes = new Uint8Array(readFileSync(file));
  const rssBefore = process.memoryUsage().rss;
  const times: number[] = [];
  let summary = '';
  let peakAfterFirstRun = 0;
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    const result = await inspectPdf(bytes);
    times.push(performance.now() - start);
    summary = result.ok ? `ok, ${String(result.info.pageCount)} pages` : `REJECTED ${result.reason}: ${result.message}`;
    if (run === 0) peakAfterFirstRun = process.resourceUsage().maxRSS * 1024; // later runs only add garbage
  }
  const stockStart = performance.now();
  await PDFDocument.load(bytes, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
  const stock = performance.now() - stockStart;
  const sorted = [...times].sort((a, b) => a - b);
  const ms = (t: number | undefined) => `${(t ?? NaN).toFixed(0)} ms`;
  const mb = (n: number) => `${(n / 2 ** 20).toFixed(0)} MB`;
  console.log(`  ${summary}; inspectPdf first run ${ms(times[0])}, median of ${String(RUNS)} ${ms(sorted[Math.floor(RUNS / 2)])}`);
  console.log(`  RSS with the file loaded ${mb(rssBefore)}, peak RSS after one inspection ${mb(peakAfterFirstRun)}`);
  console.log(`  for reference, stock PDFDocument.load alone: ${ms(stock)}`);
}

async function main(): Promise<void> {
  if (process.argv[2] === 'measure' && process.argv[3]) return measure(process.argv[3]);
  const self = fileURLToPath(import.meta.url);
  for (const variant of VARIANTS) {
    const bytes = await buildPdf(variant);
    const file = join(tmpdir(), `inspect-bench-${variant}.pdf`);
    writeFileSync(file, bytes);
    console.log(`${variant}: ${(bytes.length / 2 ** 20).toFixed(1)} MB, ${String(PAGES)} pages (${file})`);
    // A fresh process per file, so peak RSS is the inspection's, not the build's.
    const child = spawnSync(process.execPath, [...process.execArgv, self, 'measure', file], { stdio: 'inherit' });
    if (child.status !== 0) throw new Error(`measuring ${variant} failed`);
  }
}

await main();
