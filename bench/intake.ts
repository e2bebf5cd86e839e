/**
 * Figure 8, PDF intake in bounded memory: the peak resident set of a fresh process (pdf.js loaded) while one PDF
 * goes through the upload checks, for decompression bombs (2 GB and 512 MB of zeros in 2 MB and 0.5 MB) and large
 * real documents. The check: every peak stays under 75% of the 1,024 MB the PDF-taking functions have.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { bombPdf, heavyPagesPdf, pagesPdf } from '#test/fixtures/hostile/generate.ts';
import { addImagePage } from '#test/support/pdfs.ts';
import { contractPdf } from '#test/support/text-pdfs.ts';
import { fmt, runChild, type Row, type RunSize } from './lib.ts';

const MB = 1024 * 1024;
const FUNCTION_MEMORY = 1024 * MB;
const HEADROOM = 0.75;

interface IntakeRun { outcome: string; ms: number; rssBefore: number; peakRss: number }

async function imagePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  for (let i = 0; i < 480; i++) addImagePage(doc, 132); // just under 25 MB
  return doc.save({ useObjectStreams: false });
}

const INPUTS: { name: string; build: () => Promise<Uint8Array> | Uint8Array }[] = [
  { name: 'bomb: 2 GB of zeros', build: () => bombPdf(2048 * MB) },
  { name: 'bomb: 512 MB of zeros', build: () => bombPdf(512 * MB) },
  { name: 'at the limits: 4 pages of 64 MB content (256 MB)', build: () => heavyPagesPdf(4, 64 * MB) },
  { name: '2,000 pages, a line each', build: () => pagesPdf(2000) },
  { name: 'dense contract, 500 pages', build: () => contractPdf(500) },
  { name: '24 MB of images, 480 pages', build: imagePdf },
];

export async function intakeFigure(size: RunSize, scratch: string): Promise<Row[]> {
  const rows: Row[] = [];
  const over: string[] = [];
  for (const input of INPUTS) {
    const bytes = await input.build();
    const file = join(scratch, 'intake.pdf');
    writeFileSync(file, bytes);
    const runs: IntakeRun[] = [];
    for (let i = 0; i < (size.quick ? 1 : 3); i++) runs.push(await runChild<IntakeRun>(new URL('./intake-child.ts', import.meta.url), [file]));
    const worst = runs.reduce((a, b) => (b.peakRss > a.peakRss ? b : a));
    const ms = runs.map((r) => r.ms).sort((a, b) => a - b)[Math.floor(runs.length / 2)] ?? NaN;
    if (worst.peakRss > HEADROOM * FUNCTION_MEMORY) over.push(input.name);
    rows.push({
      figure: '8 intake', what: `${input.name} (${fmt.size(bytes.length)})`, ours: `peak ${fmt.mb(worst.peakRss)}`,
      other: `${fmt.mb(FUNCTION_MEMORY)} function`, ratio: fmt.ratio(worst.peakRss / FUNCTION_MEMORY),
      note: `${worst.outcome} in ${fmt.ms(ms)}; ${fmt.mb(worst.rssBefore)} before (pdf.js loaded)`,
    });
  }
  if (over.length > 0) throw new Error(`PDF intake peaked above ${String(HEADROOM * 100)}% of the function's memory: ${over.join(', ')}`);
  return rows;
}
