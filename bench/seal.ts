/**
 * Figure 1: the full seal (fields, audit certificate, PAdES signature) against the @signpdf route, at 1, 10 and 100
 * plain pages and on a 25 MB, 500-page file of incompressible images. One process warms both up on a 1-page file,
 * then per size alternates the two and the SHA-256 floor (hashing the same bytes) and keeps one output of each for
 * pdfsig; then one fresh process per variant and size seals once, for its peak RSS.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { KeyFileSigner } from '#shared/adapters/local/key-file-signer.ts';
import { addImagePage, makePdf } from '#test/support/pdfs.ts';
import { fmt, median, runChild, type Row, type RunSize } from './lib.ts';
import type { SealJob, SealTarget, SealTimes } from './seal-child.ts';
import { verdict } from './targets.ts';

interface Size { name: string; pages: number; build: () => Promise<Uint8Array>; target?: { ratio: number; rssMb?: number } }

const SIZES: Size[] = [
  { name: '1 page', pages: 1, build: () => makePdf({ pages: 1 }) },
  { name: '10 pages', pages: 10, build: () => makePdf({ pages: 10 }), target: { ratio: 0.25 } },
  { name: '100 pages', pages: 100, build: () => makePdf({ pages: 100 }) },
  { name: '25 MB / 500 pages', pages: 500, build: imagePdf, target: { ratio: 0.1, rssMb: 200 } },
];

/** 500 pages, each one incompressible 132 x 132 RGB image: about 25 MB (as test/bench/seal-bench.ts). */
export async function imagePdf(): Promise<Uint8Array> {
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
  const script = new URL('./seal-child.ts', import.meta.url);
  const warmFile = join(dir, 'warm.pdf');
  writeFileSync(warmFile, await makePdf({ pages: 1 }));
  const targets: (SealTarget & { name: string; bytes: number; target?: Size['target'] })[] = [];
  for (const fixture of SIZES) {
    const bytes = await fixture.build();
    const file = join(dir, `${String(fixture.pages)}.pdf`);
    writeFileSync(file, bytes);
    const outDir = join(dir, `out-${String(fixture.pages)}`);
    mkdirSync(outDir, { recursive: true });
    // The 25 MB file: fewer runs keep the figure within its time (each run of the peer takes seconds).
    const large = fixture.pages === 500;
    targets.push({
      name: fixture.name, bytes: bytes.length, file, pages: fixture.pages, outDir, target: fixture.target,
      runs: large ? size.largeSealRuns : size.runs, warmup: large && size.quick ? 0 : 1,
    });
  }
  const job: SealJob = { mode: 'time', targets, warmFile, warmup: size.sealWarmup, keyDir, p12 };
  const times = await runChild<SealTimes>(script, [JSON.stringify(job)]);
  const rows: Row[] = [];
  for (const [i, target] of targets.entries()) {
    const t = times[i];
    if (!t) throw new Error(`no times for ${target.name}`);
    // Peak RSS is each process's own, so the two variants' processes may run side by side.
    const [ours, peer] = await Promise.all((['ours', 'peer'] as const).map((variant) =>
      runChild<{ peakRss: number }>(script, [JSON.stringify({ ...job, mode: 'rss', variant, targets: [target] })])));
    const rss = { ours: ours?.peakRss ?? NaN, peer: peer?.peakRss ?? NaN };
    const ratios = t.ours.map((x, k) => x / (t.peer[k] ?? NaN));
    const goal = target.target;
    const timeTarget = goal ? `; ${verdict(median(ratios), { max: goal.ratio, label: `<= ${fmt.ratio(goal.ratio)} @signpdf` })}` : '';
    const rssTarget = goal?.rssMb ? `; ${verdict(rss.ours / 2 ** 20, { max: goal.rssMb - 1e-9, label: `< ${String(goal.rssMb)} MB` })}` : '';
    rows.push({
      figure: '1 Seal',
      what: `full seal, ${target.name} (${fmt.size(target.bytes)}): median of ${String(target.runs)}${target.warmup ? '' : ' (warmed on 1 page only)'}`,
      ours: fmt.ms(median(t.ours)),
      other: `@signpdf ${fmt.ms(median(t.peer))}`,
      ratio: fmt.ratio(median(ratios)),
      note: `SHA-256 floor ${fmt.ms(median(t.hash))}${timeTarget}`,
    });
    rows.push({
      figure: '1 Seal',
      what: `peak RSS, ${target.name} (fresh process per variant)`,
      ours: fmt.mb(rss.ours),
      other: `@signpdf ${fmt.mb(rss.peer)}`,
      ratio: fmt.ratio(rss.ours / rss.peer),
      note: `pdfsig: ours ${pdfsigVerdict(join(target.outDir, 'ours.pdf'))}; @signpdf ${pdfsigVerdict(join(target.outDir, 'peer.pdf'))}${rssTarget}`,
    });
    console.error(`  seal ${target.name}: ours ${fmt.ms(median(t.ours))}, @signpdf ${fmt.ms(median(t.peer))}, floor ${fmt.ms(median(t.hash))}`);
  }
  return rows;
}
