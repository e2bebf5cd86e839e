/**
 * One fresh process of the seal figure (bench/seal.ts): `time` warms both routes up on a 1-page file, then on each
 * file alternates ours, the @signpdf route and the SHA-256 floor, and keeps one output of each for pdfsig; `rss`
 * seals one file once with one variant, so its peak RSS is that variant's alone. Prints one JSON line.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KeyFileSigner } from '#shared/adapters/local/key-file-signer.ts';
import { alternate } from './lib.ts';
import { sealOurs, sealPeer } from './seal-routes.ts';
import type { SealResult } from '#shared/sealing/seal.ts';

export interface SealTarget {
  file: string;
  pages: number;
  runs: number;
  /** Warm-up runs per variant on this file, after the 1-page warm-up. */
  warmup: number;
  /** Where one output of each variant is written, for pdfsig. */
  outDir: string;
}

export interface SealJob {
  mode: 'time' | 'rss';
  targets: SealTarget[];
  variant?: 'ours' | 'peer';
  /** A 1-page file the first warm-up runs seal (JIT and caches warmed at a fraction of a large file's cost). */
  warmFile: string;
  warmup: number;
  keyDir: string;
  p12: string;
}

export type SealTimes = { ours: number[]; peer: number[]; hash: number[] }[];

const job = JSON.parse(process.argv[2] ?? '{}') as SealJob;
const p12 = new Uint8Array(readFileSync(job.p12));
const signer = await KeyFileSigner.open(job.keyDir);

if (job.mode === 'rss') {
  const target = job.targets[0];
  if (!target) throw new Error('no file to seal');
  const pdf = new Uint8Array(readFileSync(target.file));
  const out = job.variant === 'peer' ? await sealPeer(pdf, target.pages, p12) : await sealOurs(pdf, target.pages, signer);
  console.log(JSON.stringify({ peakRss: process.resourceUsage().maxRSS * 1024, outBytes: out.length }));
} else {
  const warm = new Uint8Array(readFileSync(job.warmFile));
  await alternate({ ours: () => sealOurs(warm, 1, signer), peer: () => sealPeer(warm, 1, p12) }, { runs: 0, warmup: job.warmup });
  const results: SealTimes = [];
  for (const target of job.targets) {
    const pdf = new Uint8Array(readFileSync(target.file));
    const kept: { ours?: SealResult; peer?: Uint8Array } = {};
    results.push(await alternate({
      ours: async () => { kept.ours = await sealOurs(pdf, target.pages, signer); },
      peer: async () => { kept.peer = await sealPeer(pdf, target.pages, p12); },
      hash: () => Promise.resolve(createHash('sha256').update(pdf).digest()),
    }, target));
    writeFileSync(join(target.outDir, 'ours.pdf'), kept.ours?.bytes ?? new Uint8Array());
    writeFileSync(join(target.outDir, 'peer.pdf'), kept.peer ?? new Uint8Array());
  }
  console.log(JSON.stringify(results));
}
