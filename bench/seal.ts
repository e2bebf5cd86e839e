/**
 * Figure 1: the full seal (fields, audit certificate, PAdES signature) against the @signpdf route, at 1, 10 and 100
 * plain pages and on a 25 MB, 500-page file of incompressible images. Per size: one process alternates the two and
 * the SHA-256 floor (hashing the same bytes) and keeps one output of each for pdfsig; then one fresh process per
 * variant seals once, for its peak RSS.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { KeyFileSigner } from '#adapters/local/key-file-signer.ts';
import { addImagePage, makePdf } from '#test/support/pdfs.ts';
import { fmt, median, runChild, type Row, type RunSize } from './lib.ts';
import type { SealJob } from './seal-child.ts';

interface Size { name: string; pages: number; build: () => Promise<Uint8Array> }

const SIZES: Size[] = [
  { name: '1 page', pages: 1, build: () => makePdf({ pages: 1 }) },
  { name: '10 pages', pages: 10, build: () => makePdf({ pages: 10 }) },
  { name: '100 pages', pages: 100, build: () => makePdf({ pages: 100 }) },
  { name: '25 MB / 500 pages', pages: 500, build: imagePdf },
];

/** 500 pages, each one incompressible 132 x 132 RGB image: about 25 MB (as test/bench/seal-bench.ts). */
async function imagePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  for (let i = 0; i < 500; i++) addImagePage(doc, 132);
  return doc.save({ useObjectStreams: false });
}

/** A self-signed RSA-2048 P12 for @signpdf/signer-p12; node-forge reads only the legacy PKCS#12 ciphers. */
function makeP12(dir: string): string {
  const key = join(dir, 'peer-key.pem');
  const cert = join(dir, 'peer-cert.pem');
  const p12 = join(dir, 'peer.p12');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=signpdf bench'], { stdio: 'ignore' });
  execFileSync('openssl', ['pkcs12', '-export', '-inkey', key, '-in', cert, '-out', p12, '-passout', 'pass:', '-keypbe', 'PBE-SHA1-3DES', '-certpbe', 'PBE-SHA1-3DES', '-macalg', 'sha1'], { stdio: 'ignore' });
  return p12;
}

/** pdfsig's verdict on a file: it exits 0 even for a broken signature, so its text is read. */
export function pdfsigVerdict(file: string): string {
  const run = spawnSync('pdfsig', [file], { encoding: 'utf8' });
  if (run.error) return 'pdfsig missing (apt-get install poppler-utils)';
  const out = `${run.stdout}${run.stderr}`;
  const valid = out.includes('Signature Validation: Signature is Valid.');
  const whole = out.includes('Total document signed');
  if (valid && whole) return 'valid, whole file';
  if (valid) return 'valid, part of file';
  return `INVALID: ${/Signature Validation: (.*)/.exec(out)?.[1] ?? out.trim().split('\n').at(-1) ?? 'no output'}`;
}

export async function sealFigure(size: RunSize, scratch: string): Promise<Row[]> {
  const dir = join(scratch, 'seal');
  mkdirSync(dir, { recursive: true });
  const keyDir = join(dir, 'our-key');
  await KeyFileSigner.open(keyDir); // made once, outside the measured processes
  const p12 = makeP12(dir);
  const rows: Row[] = [];
  const script = new URL('./seal-child.ts', import.meta.url);
  const warmFile = join(dir, 'warm.pdf');
  writeFileSync(warmFile, await makePdf({ pages: 1 }));
  for (const fixture of SIZES) {
    const bytes = await fixture.build();
    const file = join(dir, `${fixture.pages}.pdf`);
    writeFileSync(file, bytes);
    const outDir = join(dir, `out-${fixture.pages}`);
    mkdirSync(outDir, { recursive: true });
    const base: SealJob = { mode: 'time', file, pages: fixture.pages, warmFile, keyDir, p12, runs: size.runs, warmup: size.sealWarmup, targetWarmup: 1, outDir };
    // The 25 MB file: fewer runs keep the figure within its time (each run of the peer takes seconds).
    const large = fixture.pages === 500;
    const runs = large ? size.largeSealRuns : size.runs;
    const targetWarmup = large && size.quick ? 0 : 1;
    const times = await runChild<{ ours: number[]; peer: number[]; hash: number[] }>(script, [JSON.stringify({ ...base, runs, targetWarmup })]);
    // Peak RSS is each process's own, so the two variants' processes may run side by side.
    const [oursRss, peerRss] = await Promise.all((['ours', 'peer'] as const).map((variant) => runChild<{ peakRss: number }>(script, [JSON.stringify({ ...base, mode: 'rss', variant })])));
    const rss = { ours: oursRss?.peakRss ?? NaN, peer: peerRss?.peakRss ?? NaN };
    const ratios = times.ours.map((t, i) => t / (times.peer[i] ?? NaN));
    const label = `${fixture.name} (${fmt.size(bytes.length)})`;
    rows.push({
      figure: '1 Seal',
      what: `full seal, ${label}: median of ${String(runs)}${targetWarmup ? '' : ' (warmed on 1 page only)'}`,
      ours: fmt.ms(median(times.ours)),
      other: `@signpdf ${fmt.ms(median(times.peer))}`,
      ratio: fmt.ratio(median(ratios)),
      note: `SHA-256 floor ${fmt.ms(median(times.hash))}`,
    });
    rows.push({
      figure: '1 Seal',
      what: `peak RSS, ${fixture.name} (fresh process per variant)`,
      ours: fmt.mb(rss.ours),
      other: `@signpdf ${fmt.mb(rss.peer)}`,
      ratio: fmt.ratio(rss.ours / rss.peer),
      note: `pdfsig: ours ${pdfsigVerdict(join(outDir, 'ours.pdf'))}; @signpdf ${pdfsigVerdict(join(outDir, 'peer.pdf'))}`,
    });
    console.error(`  seal ${fixture.name}: ours ${fmt.ms(median(times.ours))}, @signpdf ${fmt.ms(median(times.peer))}, floor ${fmt.ms(median(times.hash))}`);
    if (readFileSync(join(outDir, 'ours.pdf')).length === 0) throw new Error(`no sealed output for ${fixture.name}`);
  }
  return rows;
}
