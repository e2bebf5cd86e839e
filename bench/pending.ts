/**
 * Figure 7: measurements whose subject is not built on this branch yet. Each has its measuring function written
 * against a small `parts` interface; the figure prints "not built yet" (never a number) until `find...Parts` can
 * wire the parts, which is all that is left to do when the feature lands.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '#infra/constructs/service-function.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { alternate, fmt, median, type Row, type RunSize } from './lib.ts';

/** B-LTA sealing: a seal at a given PAdES level, with the local timestamp authority and revocation responder running. */
export interface BltaParts {
  sealAtLevel(pdf: Uint8Array, pageCount: number, level: 'B-B' | 'B-LTA'): Promise<Uint8Array>;
  /** Requests the local timestamp and revocation servers answered so far. */
  evidenceRequests(): number;
  stop(): Promise<void>;
}

/** The same 10-page seal at B-B and at B-LTA, alternated: what the timestamps and revocation fetches add. */
export async function measureBltaSeal(size: RunSize, parts: BltaParts): Promise<Row[]> {
  const pdf = await makePdf({ pages: 10 });
  const before = parts.evidenceRequests();
  const out: { bb?: Uint8Array; blta?: Uint8Array } = {};
  const times = await alternate({
    bb: async () => { out.bb = await parts.sealAtLevel(pdf, 10, 'B-B'); },
    blta: async () => { out.blta = await parts.sealAtLevel(pdf, 10, 'B-LTA'); },
  }, size);
  const requests = (parts.evidenceRequests() - before) / (size.runs + size.warmup);
  return [{
    figure: '7 Pending', what: 'B-LTA seal, 10 pages (local timestamp authority and revocation responder)',
    ours: fmt.ms(median(times.blta)), other: `B-B ${fmt.ms(median(times.bb))}`, ratio: fmt.ratio(median(times.blta) / median(times.bb)),
    note: `${requests.toFixed(1)} timestamp and revocation requests per seal; +${fmt.size((out.blta?.length ?? 0) - (out.bb?.length ?? 0))} per file`,
  }];
}

/** Undefined until the local PKI (a timestamp authority and a revocation responder) and sealPdf's evidence input are on this branch. */
function findBltaParts(): { parts?: BltaParts; missing: string } {
  const pki = join(REPO_ROOT, 'local', 'engines', 'local-ca.ts');
  if (!existsSync(pki)) return { missing: 'no local timestamp authority or revocation responder (local/engines/local-ca.ts), and sealPdf takes no evidence input' };
  return { missing: 'the local PKI exists: wire sealAtLevel to it in bench/pending.ts' };
}

export async function pendingFigure(size?: RunSize): Promise<Row[]> {
  const rows: Row[] = [];
  const blta = findBltaParts();
  if (blta.parts && size) {
    try { rows.push(...(await measureBltaSeal(size, blta.parts))); } finally { await blta.parts.stop(); }
  } else rows.push({ figure: '7 Pending', what: 'B-LTA seal cost (timestamp and revocation fetch against local servers)', ours: 'not built yet', note: blta.missing });
  return rows;
}
