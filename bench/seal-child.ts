/**
 * One fresh process of the seal figure (bench/seal.ts): `time` alternates ours, the @signpdf route and the SHA-256
 * floor on one file and keeps one output of each for pdfsig; `rss` seals once with one variant, so its peak RSS is
 * that variant's alone. Prints one JSON line.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KeyFileSigner } from '#adapters/local/key-file-signer.ts';
import { alternate } from './lib.ts';
import { sealOurs, sealPeer } from './seal-routes.ts';

export interface SealJob {
  mode: 'time' | 'rss';
  variant?: 'ours' | 'peer';
  file: string;
  pages: number;
  /** A 1-page file the warm-up runs seal (JIT and caches warmed at a fraction of a large file's cost). */
  warmFile: string;
  keyDir: string;
  p12: string;
  runs: number;
  /** Warm-up runs per variant on warmFile, then on the measured file. */
  warmup: number;
  targetWarmup: number;
  outDir: string;
}

const job = JSON.parse(process.argv[2] ?? '{}') as SealJob;
const pdf = new Uint8Array(readFileSync(job.file));
const p12 = new Uint8Array(readFileSync(job.p12));
const signer = await KeyFileSigner.open(job.keyDir);

if (job.mode === 'rss') {
  const before = process.memoryUsage().rss;
  const out = job.variant === 'peer' ? await sealPeer(pdf, job.pages, p12) : await sealOurs(pdf, job.pages, signer);
  console.log(JSON.stringify({ peakRss: process.resourceUsage().maxRSS * 1024, rssBefore: before, outBytes: out.length }));
} else {
  const warm = new Uint8Array(readFileSync(job.warmFile));
  await alternate({ ours: () => sealOurs(warm, 1, signer), peer: () => sealPeer(warm, 1, p12) }, { runs: 0, warmup: job.warmup });
  const kept: { ours?: Uint8Array; peer?: Uint8Array } = {};
  const times = await alternate({
    ours: async () => { kept.ours = await sealOurs(pdf, job.pages, signer); },
    peer: async () => { kept.peer = await sealPeer(pdf, job.pages, p12); },
    hash: () => Promise.resolve(createHash('sha256').update(pdf).digest()),
  }, { runs: job.runs, warmup: job.targetWarmup });
  writeFileSync(join(job.outDir, 'ours.pdf'), kept.ours ?? new Uint8Array());
  writeFileSync(join(job.outDir, 'peer.pdf'), kept.peer ?? new Uint8Array());
  console.log(JSON.stringify(times));
}
