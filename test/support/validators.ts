import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Writes the PDF to a temporary file for the external tools. */
export function tempPdf(bytes: Uint8Array, name = 'sealed.pdf'): string {
  const file = join(mkdtempSync(join(tmpdir(), 'esign-check-')), name);
  writeFileSync(file, bytes);
  return file;
}

/** poppler's pdfsig exits 0 even for a broken signature, so the verdict is read from its text. */
export function pdfsig(file: string): string {
  const run = spawnSync('pdfsig', [file], { encoding: 'utf8' });
  return `${run.stdout}${run.stderr}`;
}

export function qpdfCheck(file: string): { ok: boolean; output: string } {
  const run = spawnSync('qpdf', ['--check', file], { encoding: 'utf8' });
  return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
}

export function pdftotext(file: string): string {
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}
