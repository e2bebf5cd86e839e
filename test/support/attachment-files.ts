/** Real images of each format a signer may attach, and poppler's view of a PDF's embedded files (no engine needed). */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

/** A `width` x `height` PNG of a gradient (a real image every decoder reads). */
export function pngImage(width = 64, height = 48): Uint8Array {
  const png = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) png.data.set([(i * 7) % 256, (i * 3) % 256, 160, 255], i * 4);
  return new Uint8Array(PNG.sync.write(png));
}

/** A `width` x `height` baseline JPEG. */
export function jpegImage(width = 64, height = 48): Uint8Array {
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([(i * 5) % 256, 90, (i * 11) % 256, 255], i * 4);
  return new Uint8Array(jpeg.encode({ data, width, height }, 80).data);
}

/** `pdfdetach -list`: the embedded files' names, in order. */
export function detachList(file: string): string[] {
  const run = spawnSync('pdfdetach', ['-list', file], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout.split('\n').slice(1).map((line) => line.replace(/^\s*\d+:\s*/, '')).filter((line) => line !== '');
}

/** `pdfdetach -saveall`: every embedded file's bytes, by name. */
export function detachAll(file: string): Map<string, Uint8Array> {
  const dir = mkdtempSync(join(tmpdir(), 'esign-detach-'));
  const run = spawnSync('pdfdetach', ['-saveall', '-o', dir, file], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return new Map(readdirSync(dir).map((name) => [name, new Uint8Array(readFileSync(join(dir, name)))]));
}
