import { describe, expect, it } from 'vitest';
import { findAnchor, type TextIndex } from '../../shared/pdf/text-anchors.ts';
import { extractTextIndex } from '../../shared/pdf/text-extraction.ts';
import { inspectPdf } from '../../shared/pdf/inspect.ts';
import { toPdfRect } from '../../shared/envelopes/field-placement.ts';
import type { PageGeometry } from '../../shared/kernel/model.ts';
import { assemblePdf } from '../support/pdfs.ts';
import { contractPdf, textPdf, type TextPage } from '../support/text-pdfs.ts';

async function indexed(pages: TextPage[]) {
  const { bytes, fonts } = await textPdf(pages);
  const inspection = await inspectPdf(bytes);
  if (!inspection.ok) throw new Error(inspection.message);
  // Stored as JSON beside the PDF: search what comes back from storage.
  const index = JSON.parse(JSON.stringify(await extractTextIndex(bytes))) as TextIndex;
  return { index, geometry: inspection.info.pages, fonts, bytes };
}

/** The user-space point under a field's displayed bottom-left corner, through toPdfRect (the sealer's mapping). */
function userSpaceCorner(found: { page: number; x: number; y: number }, geometry: PageGeometry[]) {
  const page = geometry[found.page - 1]!;
  const rect = toPdfRect({ x: found.x, y: found.y, w: 120, h: 30, origin: 'bottom-left' }, page);
  const right = page.rotate === 90 || page.rotate === 180;
  const top = page.rotate === 180 || page.rotate === 270;
  return { x: rect.x + (right ? rect.width : 0), y: rect.y + (top ? rect.height : 0) };
}

const near = (actual: { x: number; y: number }, expected: { x: number; y: number }, within = 0.02) => {
  expect(Math.abs(actual.x - expected.x), `x ${String(actual.x)} vs ${String(expected.x)}`).toBeLessThanOrEqual(within);
  expect(Math.abs(actual.y - expected.y), `y ${String(actual.y)} vs ${String(expected.y)}`).toBeLessThanOrEqual(within);
};

describe('findAnchor', () => {
  it('finds every occurrence on a page and across pages, in page then content order; first finds one', async () => {
    const { index, geometry, fonts } = await indexed([
      { texts: [{ text: 'Buyer: /sig1/', x: 72, y: 700 }, { text: '/sig1/ again', x: 300, y: 400 }] },
      { texts: [{ text: 'no anchor here', x: 72, y: 700 }] },
      { texts: [{ text: 'Seller /sig1/ and /sig1/', x: 72, y: 100 }] },
    ]);
    const at = (text: string) => fonts.advance('helvetica', text, 12);
    const expected = [
      { page: 1, x: 72 + at('Buyer: '), y: 700 },
      { page: 1, x: 300, y: 400 },
      { page: 3, x: 72 + at('Seller '), y: 100 },
      { page: 3, x: 72 + at('Seller /sig1/ and '), y: 100 },
    ];
    const all = findAnchor(index, geometry, { text: '/sig1/' });
    expect(all.map((found) => found.page)).toEqual(expected.map((e) => e.page));
    expected.forEach((e, i) => { near(all[i]!, e); });
    expect(findAnchor(index, geometry, { text: '/sig1/', occurrence: 'first' })).toEqual([all[0]]);
  });

  it('adds the offsets, in points of user space', async () => {
    const { index, geometry } = await indexed([{ texts: [{ text: '/sig1/', x: 72, y: 700 }] }]);
    expect(findAnchor(index, geometry, { text: '/sig1/', offsetX: 10, offsetY: -24 })).toEqual([{ page: 1, x: 82, y: 676 }]);
  });

  it('finds an anchor split across text items (a font change inside it) at its first glyph', async () => {
    const { index, geometry, fonts } = await indexed([{ texts: [{ text: 'Name: /si', x: 72, y: 500 }, { text: 'g2/', font: 'helveticaBold' }] }]);
    const line = index.pages[0]?.[0];
    expect(line?.t).toBe('Name: /sig2/');
    expect(line?.r.length).toBe(6); // two runs: pdf.js split them
    near(findAnchor(index, geometry, { text: '/sig2/' })[0]!, { x: 72 + fonts.advance('helvetica', 'Name: ', 12), y: 500 });
  });

  it('finds white text, and an anchor drawn right after other text (one pdf.js run), at its own first glyph', async () => {
    const { index, geometry, fonts } = await indexed([{ texts: [{ text: 'Signature:', x: 72, y: 300 }, { text: '/sig1/', white: true }] }]);
    expect(index.pages[0]?.[0]?.r.length).toBe(3); // pdf.js merged them
    near(findAnchor(index, geometry, { text: '/sig1/' })[0]!, { x: 72 + fonts.advance('helvetica', 'Signature:', 12), y: 300 });
  });

  it('places an anchor inside a run by the run font\'s glyph widths: Helvetica, Times, Courier', async () => {
    const texts = [{ font: 'helvetica', y: 700 }, { font: 'times', y: 600 }, { font: 'courier', y: 500 }] as const;
    const { index, geometry, fonts } = await indexed([{ texts: texts.map((t) => ({ text: 'Signed by the Buyer: /sig1/ (name)', x: 72, y: t.y, font: t.font })) }]);
    const found = findAnchor(index, geometry, { text: '/sig1/' });
    texts.forEach((t, i) => { near(found[i]!, { x: 72 + fonts.advance(t.font, 'Signed by the Buyer: ', 12), y: t.y }); });
  });

  it('returns nothing for a missing anchor and matches case-sensitively', async () => {
    const { index, geometry } = await indexed([{ texts: [{ text: 'Sign: /sig1/', x: 72, y: 700 }] }]);
    expect(findAnchor(index, geometry, { text: '/sig9/' })).toEqual([]);
    expect(findAnchor(index, geometry, { text: '/SIG1/' })).toEqual([]);
    expect(findAnchor(index, geometry, { text: 'sign:' })).toEqual([]);
    expect(findAnchor(index, geometry, { text: 'Sign:' })).toHaveLength(1);
  });

  it('finds Unicode text: a Latin anchor after Cyrillic and a Cyrillic anchor', async () => {
    const { index, geometry, fonts } = await indexed([{ texts: [
      { text: 'Подпись покупателя:', x: 72, y: 700, font: 'dejavu' },
      { text: '/firma/', x: 72 + 150, y: 700, font: 'dejavu' },
      { text: 'Дата: /дата/ Gültig', x: 72, y: 650, font: 'dejavu' },
    ] }]);
    expect(index.pages[0]?.map((line) => line.t)).toEqual(['Подпись покупателя: /firma/', 'Дата: /дата/ Gültig']);
    near(findAnchor(index, geometry, { text: '/firma/' })[0]!, { x: 222, y: 700 });
    // Inside a run in a font without standard metrics the position is shared out by Helvetica's widths: close, not exact.
    near(findAnchor(index, geometry, { text: '/дата/' })[0]!, { x: 72 + fonts.advance('dejavu', 'Дата: ', 12), y: 650 }, 1);
    expect(findAnchor(index, geometry, { text: 'Gültig' })).toHaveLength(1);
  });

  describe.each([0, 90, 180, 270] as const)('on a page with /Rotate %i and a crop box', (rotate) => {
    it('answers in displayed coordinates that toPdfRect maps back onto the glyph origin plus offsets', async () => {
      const cropBox: [number, number, number, number] = [40, 60, 500, 700];
      // Drawn turned with the page, so that it reads upright as displayed, as generators do.
      const { index, geometry, fonts } = await indexed([{ rotate, cropBox, texts: [{ text: 'Sign: /sig1/', x: 300, y: 400, rotate }] }]);
      const along = fonts.advance('helvetica', 'Sign: ', 12);
      const radians = (rotate * Math.PI) / 180;
      const origin = { x: 300 + along * Math.cos(radians), y: 400 + along * Math.sin(radians) };
      const [found, ...more] = findAnchor(index, geometry, { text: '/sig1/', offsetX: 5, offsetY: -3 });
      expect(more).toEqual([]);
      near(userSpaceCorner(found!, geometry), { x: origin.x + 5, y: origin.y - 3 });
    });
  });

  it('rejects an index of another version or of a longer document', async () => {
    const { index, geometry } = await indexed([{ texts: [{ text: '/sig1/', x: 72, y: 700 }] }, { texts: [] }]);
    expect(() => findAnchor({ ...index, v: 2 } as unknown as TextIndex, geometry, { text: '/sig1/' })).toThrow(/version/);
    expect(() => findAnchor(index, geometry.slice(0, 1), { text: '/sig1/' })).toThrow(/2 pages/);
  });
});

describe('extractTextIndex', () => {
  // Captured before this process first loads pdf.js (anchors.ts loads it on first extraction).
  const builtIns = () => ({ json: Object.values(Object.getOwnPropertyDescriptors(JSON)), push: Reflect.get(Array.prototype, 'push'), toString: Reflect.get(Function.prototype, 'toString') });
  const natives = builtIns();

  it('loads pdf.js without leaving replaced built-ins or a DOMMatrix behind, and does not detach the caller\'s bytes', async () => {
    const { bytes } = await textPdf([{ texts: [{ text: '/sig1/', x: 72, y: 700 }] }]);
    const index = await extractTextIndex(bytes);
    expect(index.pages[0]?.[0]?.t).toBe('/sig1/');
    expect(bytes.byteLength).toBeGreaterThan(0);
    expect(builtIns()).toEqual(natives);
    expect('DOMMatrix' in globalThis).toBe(false);
  });

  it('keeps the text of a Type3 font drawn from image masks (pdf.js traces those with a DOMMatrix)', async () => {
    const glyph = (body = '1000 0 0 0 1000 1000 d1 q 1000 0 0 1000 0 0 cm BI /IM true /W 8 /H 8 /BPC 1 ID \xaa\x55\xaa\x55\xaa\x55\xaa\x55\nEI Q') =>
      `<< /Length ${String(body.length)} >>\nstream\n${body}\nendstream`;
    const content = 'BT /F1 12 Tf 72 700 Td (/AB/) Tj ET';
    const pdf = assemblePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
      `<< /Length ${String(content.length)} >>\nstream\n${content}\nendstream`,
      `<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /A 6 0 R /B 7 0 R /slash 8 0 R >>
         /Encoding << /Type /Encoding /Differences [47 /slash 65 /A /B] >> /FirstChar 47 /LastChar 66 /Widths [500 ${'0 '.repeat(17)}600 700] /Resources << >> >>`,
      glyph(), glyph(), glyph(),
    ]);
    expect((await extractTextIndex(pdf)).pages).toEqual([[{ t: '/AB/', x: 72, y: 700, r: [0, 0, 27.6] }]]);
  });

  it('joins runs on one baseline, with a space across a gap, but not across lines or text drawn back over the line', async () => {
    const { index } = await indexed([{ texts: [
      { text: 'Left', x: 72, y: 700 }, { text: 'Right', x: 300, y: 700 },
      { text: '/si', x: 72, y: 650 }, { text: 'g1/', x: 90, y: 638 },
      { text: 'column two', x: 300, y: 600 }, { text: 'column one', x: 72, y: 600 },
    ] }]);
    expect(index.pages[0]?.map((line) => line.t)).toEqual(['Left Right', '/si', 'g1/', 'column two', 'column one']);
  });

  it('stops at whole pages past maxChars and says so', async () => {
    const { index } = await indexed([{ texts: [] }]);
    expect(index).toEqual({ v: 1, pages: [[]] });
    const pdf = await contractPdf(3, { lines: 10 });
    const capped = await extractTextIndex(pdf, { maxChars: 1500 });
    expect(capped.truncated).toBe(true);
    expect(capped.pages).toHaveLength(1);
  });

  it.each([10, 500])('indexes a %i-page contract compactly (size and time logged)', async (pages) => {
    const pdf = await contractPdf(pages);
    const started = performance.now();
    const index = await extractTextIndex(pdf);
    const ms = performance.now() - started;
    const bytes = Buffer.byteLength(JSON.stringify(index));
    const chars = index.pages.flat().reduce((sum, line) => sum + line.t.length, 0);
    console.log(`${String(pages)} pages, ${(pdf.length / 1e6).toFixed(1)} MB PDF: ${String(chars)} characters, index ${(bytes / 1024).toFixed(0)} KB JSON, extracted in ${ms.toFixed(0)} ms`);
    expect(index.truncated).toBeUndefined();
    expect(index.pages).toHaveLength(pages);
    expect(bytes / chars).toBeLessThan(1.6);
    const geometry = Array.from({ length: pages }, () => ({ box: { x: 0, y: 0, width: 595, height: 842 }, rotate: 0 as const }));
    expect(findAnchor(index, geometry, { text: `/sig${String(pages)}/` })).toHaveLength(1);
  }, 240_000);
});
