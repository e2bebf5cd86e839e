/**
 * Figure 1c: what each PAdES level above B-B costs, on one 10-page document, against the local CA and timestamp
 * authority (local/engines/local-ca.ts, the engine `npm start` runs) on loopback: B-B, B-T (a signature timestamp),
 * B-LT (and a DSS with the chains and CRLs fetched) and B-LTA (and a document timestamp), alternated. Counts the
 * HTTP requests each level sends to the local servers, and checks one output per level with pdfsig.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sealPdf, type PadesLevel } from '#shared/sealing/seal.ts';
import { startTestPki } from '#test/support/local-pki.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { alternate, fmt, median, type Row, type RunSize } from './lib.ts';
import { pdfsigVerdict } from './seal.ts';
import { certificateInput, fieldItems } from './seal-routes.ts';

const LEVELS: readonly PadesLevel[] = ['B-B', 'B-T', 'B-LT', 'B-LTA'];

/** Counts the requests this process sends to `origin` (the timestamp authority and the CRL server share it). */
function countRequests(origin: string): { count: () => number; restore: () => void } {
  const original = globalThis.fetch;
  let count = 0;
  globalThis.fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.startsWith(origin)) count++;
    return original(input, init);
  };
  return { count: () => count, restore: () => { globalThis.fetch = original; } };
}

export async function sealLevelsFigure(size: RunSize, scratch: string): Promise<Row[]> {
  const pki = await startTestPki();
  const requests = countRequests(new URL(pki.pki.tsaUrl).origin);
  try {
    const pdf = await makePdf({ pages: 10 });
    const kept = new Map<PadesLevel, Uint8Array>();
    const sent = new Map<PadesLevel, number>();
    // One authority and one revocation source for every seal, as a container keeps them (the authority's token size
    // is learnt per instance: a new one per seal would reserve the first-use 16 KB every time).
    const { timestamps, revocation } = pki.input('B-LTA').evidence ?? {};
    if (!timestamps || !revocation) throw new Error('the test PKI gave no timestamp authority or revocation source');
    const seal = (level: PadesLevel) => async () => {
      const before = requests.count();
      const base = pki.input(level);
      const evidence = { level, timestamps, revocation };
      const { bytes } = await sealPdf(pdf, { ...base, evidence, items: fieldItems(10), certificate: certificateInput() });
      sent.set(level, (sent.get(level) ?? 0) + requests.count() - before);
      kept.set(level, bytes);
    };
    const variants = Object.fromEntries(LEVELS.map((level) => [level, seal(level)])) as Record<PadesLevel | 'tsa' | 'crl', () => Promise<unknown>>;
    // What one request costs on its own: a timestamp of a fresh digest, and the CRL (issued and signed per request).
    variants.tsa = () => timestamps.timestamp(randomBytes(32));
    variants.crl = async () => (await fetch(pki.pki.crlUrl)).arrayBuffer();
    const times = await alternate(variants, size);
    const rounds = size.runs + size.warmup;
    const bb = median(times['B-B']);
    const requestCost = `one TSA request ${fmt.ms(median(times.tsa))}, one CRL fetch ${fmt.ms(median(times.crl))} (medians, same run)`;
    return LEVELS.map((level): Row => {
      const bytes = kept.get(level) ?? new Uint8Array();
      const file = join(scratch, `level-${level}.pdf`);
      writeFileSync(file, bytes);
      return {
        figure: '1c Seal levels',
        what: `${level} seal, 10 pages, local CA and TSA on loopback: median of ${String(size.runs)}`,
        ours: fmt.ms(median(times[level])),
        other: level === 'B-B' ? 'the floor of this figure' : `B-B ${fmt.ms(bb)}`,
        ratio: fmt.ratio(median(times[level]) / bb),
        note: `${((sent.get(level) ?? 0) / rounds).toFixed(1)} requests to the TSA and CRL server per seal; ${fmt.size(bytes.length)} (+${fmt.size(bytes.length - (kept.get('B-B')?.length ?? 0))} over B-B); pdfsig: ${pdfsigVerdict(file)}${level === 'B-B' ? `; ${requestCost}` : ''}; no target (reported)`,
      };
    });
  } finally {
    requests.restore();
    await pki.pki.stop();
  }
}
