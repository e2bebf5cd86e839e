/**
 * Figure 1b: the seal by key type. One process seals the same 1-page and 100-page files with a local key of each spec
 * (ECDSA P-256, RSA-3072, RSA-4096, RSA-2048), alternated, and signs bare digests with each; ratios are to RSA-2048,
 * the spec the service used before. Locally the signature is made in-process (node:crypto for RSA, @noble/curves for
 * ECDSA over a digest); on AWS, KMS makes it, so there only the certificate and signature sizes carry over as measured.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KeyFileSigner } from '#shared/adapters/local/key-file-signer.ts';
import { SEAL_KEY_SPECS, type SealKeySpec } from '#shared/adapters/seal-key-spec.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { alternate, fmt, median, type Row, type RunSize } from './lib.ts';
import { pdfsigVerdict } from './seal.ts';
import { sealOurs } from './seal-routes.ts';
import type { SealResult } from '#shared/sealing/seal.ts';

const BASELINE: SealKeySpec = 'RSA_2048';
/** Digests signed per measured run of the signing-only row: one signature is too short to time alone. */
const SIGNATURES_PER_RUN = 50;

export async function sealKeysFigure(size: RunSize, scratch: string): Promise<Row[]> {
  const dir = mkdtempSync(join(scratch, 'seal-keys-'));
  const signers = Object.fromEntries(await Promise.all(SEAL_KEY_SPECS.map(async (spec) => [spec, await KeyFileSigner.open(join(dir, spec), { keySpec: spec })] as const))) as Record<SealKeySpec, KeyFileSigner>;
  const digest = createHash('sha256').update('bench').digest();
  const rows: Row[] = [];
  const row = (what: string, times: Record<SealKeySpec, number[]>, note: (spec: SealKeySpec) => string) => {
    for (const spec of SEAL_KEY_SPECS) {
      const ratios = times[spec].map((t, k) => t / (times[BASELINE][k] ?? NaN));
      rows.push({ figure: '1b Seal key', what: `${what}, ${spec}: median of ${String(size.runs)}`, ours: fmt.ms(median(times[spec])), other: `${BASELINE} ${fmt.ms(median(times[BASELINE]))}`, ratio: fmt.ratio(median(ratios)), note: note(spec) });
    }
  };

  const sign = await alternate(variants((spec) => async () => { for (let i = 0; i < SIGNATURES_PER_RUN; i++) await signers[spec].signDigest(digest); }), { runs: size.runs, warmup: size.warmup });
  const perSignature = Object.fromEntries(SEAL_KEY_SPECS.map((spec) => [spec, sign[spec].map((t) => t / SIGNATURES_PER_RUN)])) as Record<SealKeySpec, number[]>;
  const signatureBytes = async (spec: SealKeySpec) => (await signers[spec].signDigest(digest)).length;
  const certificateBytes = async (spec: SealKeySpec) => (await signers[spec].certificateChain())[0]?.length ?? NaN;
  const sizes = Object.fromEntries(await Promise.all(SEAL_KEY_SPECS.map(async (spec) => [spec, `signature ${String(await signatureBytes(spec))} B, certificate ${String(await certificateBytes(spec))} B`]))) as Record<SealKeySpec, string>;
  row('one signature of a SHA-256 digest', perSignature, (spec) => sizes[spec]);

  for (const pages of [1, 100]) {
    const pdf = await makePdf({ pages });
    const kept: Partial<Record<SealKeySpec, SealResult>> = {};
    const times = await alternate(variants((spec) => async () => { kept[spec] = await sealOurs(pdf, pages, signers[spec]); }), { runs: size.runs, warmup: size.warmup });
    row(`full seal (B-B), ${String(pages)} page${pages === 1 ? '' : 's'}`, times, (spec) => {
      const file = join(dir, `${spec}-${String(pages)}.pdf`);
      writeFileSync(file, kept[spec]?.bytes ?? new Uint8Array());
      return `sealed ${fmt.size(kept[spec]?.length ?? NaN)}; pdfsig ${pdfsigVerdict(file)}`;
    });
  }
  for (const spec of SEAL_KEY_SPECS) console.error(`  seal key ${spec}: sign ${fmt.ms(median(perSignature[spec]))}`);
  return rows;
}

function variants(of: (spec: SealKeySpec) => () => Promise<unknown>): Record<SealKeySpec, () => Promise<unknown>> {
  return Object.fromEntries(SEAL_KEY_SPECS.map((spec) => [spec, of(spec)])) as Record<SealKeySpec, () => Promise<unknown>>;
}
