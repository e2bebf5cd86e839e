/** What the inspectPdf tests share (inspect.test.ts, inspect-sealable.test.ts): verdicts, seeded random bytes, and a page tree to assemble. */
import { inspectPdf, type PdfRejection } from '../../shared/pdf/inspect.ts';

export async function accepted(bytes: Uint8Array) {
  const result = await inspectPdf(bytes);
  if (!result.ok) throw new Error(`expected the PDF to be accepted, got ${result.reason}: ${result.message}`);
  return result.info;
}

export async function rejection(bytes: Uint8Array): Promise<{ reason: PdfRejection; message: string }> {
  const result = await inspectPdf(bytes);
  if (result.ok) throw new Error('expected the PDF to be rejected');
  return { reason: result.reason, message: result.message };
}

/** Deterministic PRNG (mulberry32), so the randomised tests are reproducible. */
export function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomBytes(length: number, seed: number): Uint8Array {
  const next = prng(seed);
  return Uint8Array.from({ length }, () => Math.floor(next() * 256));
}

export const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');
export const bytesOf = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));

/** Catalog (1) + Pages (2) + one page (3) per entry of `pages`, each body given as extra entries. */
export function treeWithPages(pages: string[], pagesExtra = ''): string[] {
  const kids = pages.map((_, i) => `${String(i + 3)} 0 R`).join(' ');
  return [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${String(pages.length)} ${pagesExtra} >>`,
    ...pages.map((extra) => `<< /Type /Page /Parent 2 0 R ${extra} >>`),
  ];
}
