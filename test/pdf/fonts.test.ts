import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { createFontSet, drawRuns, isWinAnsi, signatureFont, SIGNATURE_FONTS, widthOf, wrapText, type FontChain } from '#pdf/fonts.ts';

function tempFile(bytes: Uint8Array): string {
  const file = join(mkdtempSync(join(tmpdir(), 'fonts-test-')), 'out.pdf');
  writeFileSync(file, bytes);
  return file;
}

/** A one-page PDF with each string drawn on its own line at `size`, through the given chain. */
async function drawn(strings: string[], chainOf: (doc: PDFDocument) => Promise<FontChain>, size = 18): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const chain = await chainOf(doc);
  for (const [i, text] of strings.entries()) drawRuns(page, await chain.runs(text), { x: 40, y: 800 - i * 2 * size, size });
  return doc.save();
}

const regular = async (doc: PDFDocument) => (await createFontSet(doc)).regular;
const pdftotext = (pdf: Uint8Array): string => execFileSync('pdftotext', [tempFile(pdf), '-'], { encoding: 'utf8' });
const pdffonts = (pdf: Uint8Array): string => execFileSync('pdffonts', [tempFile(pdf)], { encoding: 'utf8' });

/** Dark pixels in the page rendered at 72 dpi. */
function inkPixels(pdf: Uint8Array): number {
  const png = PNG.sync.read(execFileSync('pdftoppm', ['-png', '-r', '72', '-singlefile', tempFile(pdf)]));
  let ink = 0;
  for (let i = 0; i < png.data.length; i += 4) if (png.data[i]! + png.data[i + 1]! + png.data[i + 2]! < 300) ink++;
  return ink;
}

const NAMES = ['Łukasz Żółć', 'Ωμέγα Παπαδοπούλου', 'Дмитрий Шостакович', '王小明', '山田 たろう', '김민준', 'Zoë Ångström'];

describe('font selection', () => {
  it('keeps a WinAnsi string in standard Helvetica, as one run, with nothing embedded', async () => {
    const doc = await PDFDocument.create();
    const runs = await (await createFontSet(doc)).regular.runs('Zoë Ångström – “quoted” €5');
    expect(runs.map((r) => r.face.font.name)).toEqual(['Helvetica']);
    expect(pdffonts(await drawn(['Zoë Ångström'], regular))).not.toMatch(/CID TrueType/);
  });

  it('draws Latin, Greek and Cyrillic names with DejaVu Sans and CJK with Noto Sans SC / KR, all embedded as subsets', async () => {
    const doc = await PDFDocument.create();
    const fonts = await createFontSet(doc);
    const fontOf = async (text: string) => (await fonts.regular.runs(text)).map((r) => r.face.font.name.replace(/^[A-Z]{6}\+/, ''));
    expect(await fontOf('Łukasz')).toEqual(['DejaVuSans']);
    expect(await fontOf('Дмитрий')).toEqual(['DejaVuSans']);
    expect(await fontOf('王小明')).toEqual(['NotoSansSC-Regular']);
    expect(await fontOf('김민준')).toEqual(['NotoSansKR-Regular']);
    const pdf = await drawn(NAMES, regular);
    const table = pdffonts(pdf);
    for (const name of ['DejaVuSans', 'NotoSansSC-Regular', 'NotoSansKR-Regular']) {
      expect(table).toMatch(new RegExp(`[A-Z]{6}\\+${name}\\s+CID TrueType\\s+Identity-H\\s+yes yes yes`));
    }
    expect(pdf.length).toBeLessThan(150_000); // subsets: the CJK fonts alone are 17 MB
  });

  it('every script extracts back with pdftotext', async () => {
    const text = pdftotext(await drawn(NAMES, regular));
    for (const name of NAMES) expect(text).toContain(name);
  });

  it('renders CJK glyphs with ink (the @pdf-lib/fontkit 1.1.1 subsetter made them blank, pdf-lib issue 1232)', async () => {
    expect(inkPixels(await drawn(['王小明', '김민준'], regular, 60))).toBeGreaterThan(1500);
  });

  it('splits a string that mixes scripts into runs that join back to it', async () => {
    const doc = await PDFDocument.create();
    const runs = await (await createFontSet(doc)).regular.runs('Łukasz 王小明 김 Ωμέγα');
    expect(runs.map((r) => r.text).join('')).toBe('Łukasz 王小明 김 Ωμέγα');
    expect(runs.length).toBe(4);
    expect(pdftotext(await drawn(['Łukasz 王小明 김 Ωμέγα'], regular))).toContain('Łukasz 王小明 김 Ωμέγα');
  });

  it('replaces characters no font has with "?", drops invisible format characters and turns line breaks into spaces', async () => {
    const doc = await PDFDocument.create();
    const runs = await (await createFontSet(doc)).regular.runs('a\u0915b\u00ad\u200dc\nd');
    expect(runs.map((r) => r.text).join('')).toBe('a?bc d');
  });

  it('composes combining accents (NFC) so that Helvetica can draw them', async () => {
    const doc = await PDFDocument.create();
    const runs = await (await createFontSet(doc)).regular.runs('Zoe\u0308');
    expect(runs).toEqual([expect.objectContaining({ text: 'Zoë' })]);
    expect(runs[0]!.face.font.name).toBe('Helvetica');
  });

  it('knows the WinAnsi repertoire', () => {
    expect(['A', 'é', '€', '“', '™'].every((ch) => isWinAnsi(ch.codePointAt(0)!))).toBe(true);
    expect(['Ł', 'Ω', '王', '\u0007'].some((ch) => isWinAnsi(ch.codePointAt(0)!))).toBe(false);
  });
});

describe('typed-signature fonts', () => {
  it.each(SIGNATURE_FONTS)('%s draws a signature with ink and extracts back', async (label) => {
    const pdf = await drawn(['Łukasz Nowak'], (doc) => Promise.resolve(signatureFont(doc, label)), 36);
    expect(pdftotext(pdf)).toContain('Łukasz Nowak');
    expect(inkPixels(pdf)).toBeGreaterThan(300);
    expect(pdffonts(pdf)).toMatch(new RegExp(`\\+${label.replace(/ /g, '')}-Regular`));
  });

  it('falls back to the first font for an unknown label, and to the Unicode fonts for characters the script font lacks', async () => {
    const doc = await PDFDocument.create();
    const runs = await signatureFont(doc, 'Comic Sans').runs('Wang 王小明');
    expect(runs.map((r) => [r.text, r.face.font.name.replace(/^[A-Z]{6}\+/, '')])).toEqual([
      ['Wang ', 'DancingScript-Regular'],
      ['王小明', 'NotoSansSC-Regular'],
    ]);
    expect((await (await createFontSet(doc)).signature('Caveat').runs('Ann'))[0]!.face.font.name).toMatch(/Caveat/);
  });
});

describe('wrapText', () => {
  it('breaks at spaces, keeps every line within the width and loses no word', async () => {
    const doc = await PDFDocument.create();
    const fonts = (await createFontSet(doc)).regular;
    const text = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
    const lines = await wrapText(fonts, text, 9, 150);
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(widthOf(line, 9)).toBeLessThanOrEqual(150);
    expect(lines.map((line) => line.map((r) => r.text).join('')).join(' ')).toBe(text);
  });

  it('breaks between CJK characters, inside an over-long word if it must, and at explicit line breaks', async () => {
    const fonts = (await createFontSet(await PDFDocument.create())).regular;
    const cjk = await wrapText(fonts, '王小明王小明王小明王小明', 20, 70);
    expect(cjk.map((line) => line.map((r) => r.text).join(''))).toEqual(['王小明', '王小明', '王小明', '王小明']);
    const ipv6 = await wrapText(fonts, '2001:0db8:85a3:0000:0000:8a2e:0370:7334', 9, 60);
    expect(ipv6.map((line) => line.map((r) => r.text).join('')).join('')).toBe('2001:0db8:85a3:0000:0000:8a2e:0370:7334');
    for (const line of ipv6) expect(widthOf(line, 9)).toBeLessThanOrEqual(60);
    expect((await wrapText(fonts, 'one\ntwo\r\nthree', 9, 500)).length).toBe(3);
  });
});
