/**
 * One fresh process of the intake figure (bench/intake.ts): checks one PDF as an upload does (inspection, limits,
 * text index) and prints one JSON line: the outcome, the time, the resident set before and its peak (resourceUsage
 * maxRSS: what the Lambda's memory size must hold).
 */
import { readFileSync } from 'node:fs';
import { ValidationError } from '#shared/kernel/errors.ts';
import { checkOriginal } from '#shared/envelopes/upload-actions.ts';
import { loadPdfjs } from '#shared/pdf/pdfjs-node.ts';

const bytes = new Uint8Array(readFileSync(process.argv[2] ?? ''));
await loadPdfjs(); // as a warm function has it: the figure is what one upload adds
const rssBefore = process.memoryUsage.rss();
const start = performance.now();
let outcome: string;
try {
  const checked = await checkOriginal({ bytes, filename: 'bench.pdf' }, { envelopeId: 'env', documentId: 'doc', now: new Date(), order: 1 }, 'file');
  outcome = `accepted, ${String(checked.document.pageCount)} pages`;
} catch (err) {
  if (!(err instanceof ValidationError)) throw err;
  outcome = `400 ${String(err.reason)}`;
}
const ms = performance.now() - start;
console.log(JSON.stringify({ outcome, ms, rssBefore, peakRss: process.resourceUsage().maxRSS * 1024 }));
