/**
 * A signed document never changes how it looks: sealing an already sealed (or otherwise signed) PDF draws only
 * where its own fields are. Each page of the earlier revision is rendered by poppler (pdftoppm) before and after the
 * new seal and compared pixel by pixel outside the new seal's boxes; pdfsig still finds every signature valid.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { P12Signer } from '@signpdf/signer-p12';
import { PDFDocument, PDFName, PDFRawStream, StandardFonts } from 'pdf-lib';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPki } from '#local/engines/local-ca.ts';
import type { FlattenItem } from '#shared/sealing/flatten.ts';
import { sealPdf, type SealInput } from '#shared/sealing/seal.ts';
import { makePdf } from '#test/support/pdfs.ts';
import { startTestPki, type TestPki } from '#test/support/local-pki.ts';
import { pdfsig, tempDir, tempFile } from './signature-tools.ts';

let pki: RunningPki;
let levelInput: TestPki['input'];
beforeAll(async () => { ({ pki, input: levelInput } = await startTestPki()); });
afterAll(async () => { await pki.stop(); });

type Rect = FlattenItem['rect'];

/** A solid-colour PNG: the drawn signature of one seal, told apart from another's by its colour. */
function solidPng(r: number, g: number, b: number): Uint8Array {
  const png = new PNG({ width: 60, height: 20 });
  for (let i = 0; i < 60 * 20; i++) png.data.set([r, g, b, 255], i * 4);
  return new Uint8Array(PNG.sync.write(png));
}

const item = (rect: Rect, value: FlattenItem['value']): FlattenItem => ({ page: 1, rect, rotate: 0, value });
const sealWith = (pdf: Uint8Array, items: FlattenItem[]): Promise<Uint8Array> =>
  sealPdf(pdf, { ...levelInput('B-B'), items } satisfies SealInput).then((sealed) => sealed.bytes);

function pageCount(pdf: Uint8Array): number {
  return Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [tempFile(pdf, 'count.pdf')], { encoding: 'utf8' }))?.[1]);
}

/** Page `page` as poppler draws it at 72 dpi: one pixel per point. */
function render(pdf: Uint8Array, page: number): PNG {
  const file = tempFile(pdf, 'render.pdf');
  return PNG.sync.read(execFileSync('pdftoppm', ['-png', '-r', '72', '-f', String(page), '-l', String(page), '-singlefile', file]));
}

/** Pixels that differ between two renders of one page, outside `boxes` (PDF user space, widened by 2 points). */
function changedOutside(before: PNG, after: PNG, boxes: Rect[]): number {
  expect([after.width, after.height]).toEqual([before.width, before.height]);
  const inBox = (px: number, py: number) => boxes.some(({ x, y, width, height }) => {
    const top = before.height - (y + height);
    return px >= x - 2 && px <= x + width + 2 && py >= top - 2 && py <= top + height + 2;
  });
  let changed = 0;
  for (let py = 0; py < before.height; py++) {
    for (let px = 0; px < before.width; px++) {
      const i = (py * before.width + px) * 4;
      if (inBox(px, py)) continue;
      if (before.data.readUInt32BE(i) !== after.data.readUInt32BE(i)) changed++;
    }
  }
  return changed;
}

/** Every page of `earlier` looks the same in `later`, but inside the new seal's boxes; and the new seal drew there. */
function expectEarlierRevisionUnchanged(earlier: Uint8Array, later: Uint8Array, newBoxes: Rect[]): void {
  const pages = pageCount(earlier);
  for (let page = 1; page <= pages; page++) {
    expect(changedOutside(render(earlier, page), render(later, page), page === 1 ? newBoxes : []), `page ${String(page)}`).toBe(0);
  }
  const drew = changedOutside(render(earlier, 1), render(later, 1), []);
  expect(drew).toBeGreaterThan(0);
}

// The second seal draws with different fonts and another image, so a reused resource name would show.
const SECOND: FlattenItem[] = [
  item({ x: 320, y: 500, width: 220, height: 50 }, { kind: 'typed', text: 'Second Signer', fontLabel: 'Great Vibes' }),
  item({ x: 320, y: 420, width: 120, height: 40 }, { kind: 'image', png: solidPng(0, 0, 255) }),
  item({ x: 320, y: 380, width: 200, height: 24 }, { kind: 'text', text: 'second value' }),
];

describe('sealing a signed PDF again', () => {
  it('leaves every page of our earlier seal as it was, outside the new fields', async () => {
    const first = await sealWith(await makePdf({ pages: 1 }), [
      item({ x: 60, y: 700, width: 240, height: 24 }, { kind: 'text', text: 'Ana Silva, Lisbon' }),
      item({ x: 60, y: 620, width: 120, height: 40 }, { kind: 'image', png: solidPng(255, 0, 0) }),
      item({ x: 60, y: 560, width: 240, height: 40 }, { kind: 'typed', text: 'Ana Silva', fontLabel: 'Caveat' }),
    ]);
    const second = await sealWith(first, SECOND);
    expectEarlierRevisionUnchanged(first, second, SECOND.map((i) => i.rect));
    expect(pdfsig(second).match(/Signature is Valid\./g)?.length).toBe(2);
  });

  it('leaves a page signed by another tool as it was, even when that tool named its resources as we do', async () => {
    // A page whose own font and image are named /EsF0 and /EsX0, signed with @signpdf
    const doc = await PDFDocument.create();
    const page = doc.addPage([595, 842]);
    const font = await doc.embedFont(StandardFonts.TimesRoman);
    const image = await doc.embedPng(solidPng(0, 160, 0));
    page.node.set(PDFName.of('Resources'), doc.context.obj({ Font: { EsF0: font.ref }, XObject: { EsX0: image.ref } }));
    const content = 'BT /EsF0 28 Tf 72 760 Td (Signed elsewhere) Tj ET q 120 40 0 0 72 660 cm /EsX0 Do Q';
    page.node.set(PDFName.of('Contents'), doc.context.register(PDFRawStream.of(doc.context.obj({}), new TextEncoder().encode(content))));
    pdflibAddPlaceholder({ pdfDoc: doc, reason: 'Approved', contactInfo: 'peer@example.com', name: 'Peer', location: 'Elsewhere' });
    const unsigned = await doc.save({ useObjectStreams: false });
    const signed = new Uint8Array(await new SignPdf().sign(Buffer.from(unsigned), new P12Signer(Buffer.from(peerP12()))));

    const sealed = await sealWith(signed, SECOND);
    expectEarlierRevisionUnchanged(signed, sealed, SECOND.map((i) => i.rect));
    const report = pdfsig(sealed);
    expect(report).toContain('Signature #2');
    expect(report.match(/Signature is Valid\./g)?.length).toBe(2);
    expect(report).not.toMatch(/Signature is Invalid|Digest Mismatch/);
  });
});

/** A self-signed certificate in a PKCS#12 that @signpdf's node-forge reads (legacy ciphers). */
function peerP12(): Uint8Array {
  const dir = tempDir();
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  const p12 = join(dir, 'peer.p12');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=another tool'], { stdio: 'ignore' });
  execFileSync('openssl', ['pkcs12', '-export', '-inkey', key, '-in', cert, '-out', p12, '-passout', 'pass:', '-keypbe', 'PBE-SHA1-3DES', '-certpbe', 'PBE-SHA1-3DES', '-macalg', 'sha1'], { stdio: 'ignore' });
  return execFileSync('cat', [p12]);
}
