import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, PDFRef, type PDFPage } from 'pdf-lib';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { toPdfRect } from '#shared/envelopes/field-placement.ts';
import { flattenFields, type FlattenItem } from '#shared/sealing/flatten.ts';
import { SealDrawing } from '#shared/sealing/draw/drawing.ts';
import { loadPdf } from '#shared/pdf/load.ts';
import { makePdf } from '#test/support/pdfs.ts';

type Rotation = FlattenItem['rotate'];
interface Box { x: number; y: number; w: number; h: number } // as the viewer shows the page, top-left origin
interface Word { text: string; xMin: number; yMin: number; xMax: number; yMax: number }

const A4 = { width: 595, height: 842 };

function tempFile(bytes: Uint8Array): string {
  const file = join(mkdtempSync(join(tmpdir(), 'flatten-test-')), 'out.pdf');
  writeFileSync(file, bytes);
  return file;
}

/** pdftotext -bbox word boxes, which poppler gives in the page as shown (rotation applied, top-left origin). */
function words(pdf: Uint8Array, page: number): Word[] {
  const html = execFileSync('pdftotext', ['-bbox', '-f', String(page), '-l', String(page), tempFile(pdf), '-'], { encoding: 'utf8' });
  return [...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
    xMin: Number(m[1]), yMin: Number(m[2]), xMax: Number(m[3]), yMax: Number(m[4]), text: m[5]!.replace(/&amp;/g, '&'),
  }));
}

/** The page rendered at 72 dpi: one pixel per point, as shown. */
function render(pdf: Uint8Array, page: number): PNG {
  const png = execFileSync('pdftoppm', ['-png', '-r', '72', '-f', String(page), '-l', String(page), '-singlefile', tempFile(pdf)]);
  return PNG.sync.read(png);
}

const isInk = (png: PNG, x: number, y: number): boolean => {
  const i = (y * png.width + x) * 4;
  return png.data[i]! + png.data[i + 1]! + png.data[i + 2]! < 600;
};

/** Bounding box of the inked pixels, or undefined on a blank page. */
function inkBox(png: PNG, where: (x: number, y: number) => boolean = () => true): Box | undefined {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      if (!where(x, y) || !isInk(png, x, y)) continue;
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
    }
  }
  return x0 === Infinity ? undefined : { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
}

const within = (inner: Box, outer: Box, slack = 1): boolean =>
  inner.x >= outer.x - slack && inner.y >= outer.y - slack && inner.x + inner.w <= outer.x + outer.w + slack && inner.y + inner.h <= outer.y + outer.h + slack;

const wordBox = (w: Word): Box => ({ x: w.xMin, y: w.yMin, w: w.xMax - w.xMin, h: w.yMax - w.yMin });

/** A field placed where the viewer shows `box` on a page with this rotation, as the sealing step maps it. */
function item(box: Box, rotate: Rotation, value: FlattenItem['value'], page = 1): FlattenItem {
  const geometry = { box: { x: 0, y: 0, width: A4.width, height: A4.height }, rotate };
  return { page, rotate, rect: toPdfRect({ x: box.x, y: box.y, w: box.w, h: box.h, origin: 'top-left' }, geometry), value };
}

async function flattened(original: Uint8Array, items: FlattenItem[]): Promise<Uint8Array> {
  const doc = await loadPdf(original);
  const drawing = new SealDrawing(doc);
  await flattenFields(doc, items, drawing);
  drawing.finish();
  return doc.save(); // production writes an incremental update instead
}

/** An opaque PNG: `top` colour in its upper half, `bottom` in its lower half. */
function twoTonePng(width: number, height: number, top: [number, number, number], bottom = top): Uint8Array {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = y < height / 2 ? top : bottom;
      png.data.set([r, g, b, 255], (y * width + x) * 4);
    }
  }
  return new Uint8Array(PNG.sync.write(png));
}

const RED: [number, number, number] = [220, 0, 0];
const BLUE: [number, number, number] = [0, 0, 220];

describe('flattenFields: values drawn into the page', () => {
  it.each([0, 90, 180, 270] as const)('text reads upright, top line first, inside its box on a page with /Rotate %i', async (rotate) => {
    const box = { x: 100, y: 200, w: 220, h: 60 };
    const pdf = await flattened(await makePdf({ rotate }), [item(box, rotate, { kind: 'text', text: `FIRSTLINE${String(rotate)}\nSECONDLINE` })]);
    const found = words(pdf, 1);
    const first = found.find((w) => w.text.startsWith('FIRSTLINE'));
    const second = found.find((w) => w.text === 'SECONDLINE');
    expect(first?.text).toBe(`FIRSTLINE${String(rotate)}`);
    expect(within(wordBox(first!), box) && within(wordBox(second!), box)).toBe(true);
    expect(first!.xMax - first!.xMin).toBeGreaterThan(3 * (first!.yMax - first!.yMin)); // horizontal, not sideways
    expect(first!.yMin).toBeLessThan(second!.yMin); // not upside down
    expect(first!.xMin).toBeLessThan(box.x + 10); // left-aligned as shown
  });

  it.each([0, 90, 180, 270] as const)('an image stays upright and inside its box on a page with /Rotate %i', async (rotate) => {
    const box = { x: 300, y: 500, w: 160, h: 80 };
    const png = twoTonePng(160, 80, RED, BLUE);
    const page = render(await flattened(await makePdf({ rotate }), [item(box, rotate, { kind: 'image', png })]), 1);
    expect(within(inkBox(page)!, box)).toBe(true);
    const at = (x: number, y: number) => [...page.data.subarray((y * page.width + x) * 4, (y * page.width + x) * 4 + 3)];
    expect(at(box.x + 80, box.y + 15)).toEqual(RED); // red half at the top as shown
    expect(at(box.x + 80, box.y + 65)).toEqual(BLUE);
  });

  it('lands in the box as shown on a rotated page whose crop box is offset from the origin', async () => {
    const crop = { x: 40, y: 60, width: 400, height: 500 };
    const geometry = { box: crop, rotate: 90 as const };
    const box = { x: 30, y: 40, w: 200, h: 40 }; // as shown: the page is 500 wide and 400 high
    const rect = toPdfRect({ x: box.x, y: box.y, w: box.w, h: box.h, origin: 'top-left' }, geometry);
    const pdf = await flattened(await makePdf({ rotate: 90, cropBox: [crop.x, crop.y, crop.width, crop.height] }), [{ page: 1, rotate: 90, rect, value: { kind: 'text', text: 'CROPPED' } }]);
    const word = words(pdf, 1).find((w) => w.text === 'CROPPED')!;
    // pdftotext measures from the media box; turned 90°, the crop box's top-left shows at (crop.y, crop.x).
    expect(within(wordBox(word), { ...box, x: box.x + crop.y, y: box.y + crop.x })).toBe(true);
    expect(word.xMax - word.xMin).toBeGreaterThan(2 * (word.yMax - word.yMin));
  });

  it('an image keeps its aspect ratio, fitted and centred in the box', async () => {
    const box = { x: 100, y: 100, w: 200, h: 200 };
    const pdf = await flattened(await makePdf(), [item(box, 0, { kind: 'image', png: twoTonePng(400, 100, [0, 0, 0]) })]);
    const ink = inkBox(render(pdf, 1))!;
    expect(ink.w / ink.h).toBeCloseTo(4, 0);
    expect(ink.w).toBeGreaterThan(190);
    expect(Math.abs(ink.y + ink.h / 2 - (box.y + box.h / 2))).toBeLessThanOrEqual(1);
  });

  it('long free text is wrapped and shrunk, cut with an ellipsis, and never drawn outside its box', async () => {
    const box = { x: 60, y: 300, w: 150, h: 40 };
    const text = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor. '.repeat(13).slice(0, 1000);
    const pdf = await flattened(await makePdf(), [item(box, 0, { kind: 'text', text })]);
    const found = words(pdf, 1);
    expect(found.length).toBeGreaterThan(8);
    expect(found.every((w) => within(wordBox(w), box))).toBe(true);
    expect(found.at(-1)?.text).toMatch(/…$/);
    expect(inkBox(render(pdf, 1), (x, y) => !within({ x, y, w: 0, h: 0 }, box, 0))).toBeUndefined();
  });

  it('a short text keeps a readable size and is not stretched to the box', async () => {
    const box = { x: 60, y: 300, w: 300, h: 200 };
    const found = words(await flattened(await makePdf(), [item(box, 0, { kind: 'text', text: 'Short' })]), 1);
    expect(found[0]!.yMax - found[0]!.yMin).toBeLessThan(17); // 12 pt in Noto Sans (ascent 1.07 em, descent 0.29 em)
  });

  it('a typed signature is drawn in the chosen script font, centred and within the box', async () => {
    const box = { x: 50, y: 50, w: 240, h: 60 };
    const pdf = await flattened(await makePdf(), [item(box, 0, { kind: 'typed', text: 'Łukasz Nowak', fontLabel: 'Great Vibes' })]);
    const ink = inkBox(render(pdf, 1))!;
    expect(within(ink, box)).toBe(true);
    expect(Math.abs(ink.x + ink.w / 2 - (box.x + box.w / 2))).toBeLessThan(6);
    expect(ink.w).toBeGreaterThan(box.w * 0.8); // sized to fit, not left tiny
    expect(words(pdf, 1).map((w) => w.text).join(' ')).toBe('Łukasz Nowak');
    expect(execFileSync('pdffonts', [tempFile(pdf)], { encoding: 'utf8' })).toMatch(/[A-Z]{6}\+GreatVibes-Regular\s+CID TrueType\s+Identity-H\s+yes yes yes/);
  });

  it('a date is drawn as text in its box, and names in every script extract back', async () => {
    const names = ['Łukasz Żółć', 'Ωμέγα', 'Дмитрий', '王小明', '김민준', 'Zoë Ångström'];
    const items = [item({ x: 50, y: 40, w: 100, h: 20 }, 0, { kind: 'date', date: '2024-05-01' })];
    names.forEach((text, i) => items.push(item({ x: 50, y: 80 + 30 * i, w: 200, h: 20 }, 0, { kind: 'text', text })));
    const pdf = await flattened(await makePdf(), items);
    const found = words(pdf, 1);
    expect(within(wordBox(found.find((w) => w.text === '2024-05-01')!), { x: 50, y: 40, w: 100, h: 20 })).toBe(true);
    const text = execFileSync('pdftotext', [tempFile(pdf), '-'], { encoding: 'utf8' });
    for (const name of names) expect(text).toContain(name);
  });

  it('a checked box gets a check mark, an unchecked one only its outline', async () => {
    const checked = { x: 100, y: 100, w: 20, h: 20 };
    const unchecked = { x: 200, y: 100, w: 20, h: 20 };
    const page = render(await flattened(await makePdf(), [
      item(checked, 0, { kind: 'checkbox', checked: true }),
      item(unchecked, 0, { kind: 'checkbox', checked: false }),
    ]), 1);
    const inkIn = (b: Box) => { let n = 0; for (let y = b.y + 4; y < b.y + b.h - 4; y++) for (let x = b.x + 4; x < b.x + b.w - 4; x++) n += isInk(page, x, y) ? 1 : 0; return n; };
    expect(inkIn(checked)).toBeGreaterThan(20);
    expect(inkIn(unchecked)).toBe(0);
    expect(within(inkBox(page)!, { x: 100, y: 100, w: 120, h: 20 })).toBe(true);
  });

  it('draws on the right page and rejects a page that does not exist', async () => {
    const original = await makePdf({ pages: 3 });
    const pdf = await flattened(original, [item({ x: 50, y: 50, w: 200, h: 30 }, 0, { kind: 'text', text: 'ONPAGETWO' }, 2)]);
    expect(words(pdf, 2).map((w) => w.text)).toEqual(['ONPAGETWO']);
    expect(words(pdf, 1)).toEqual([]);
    const doc = await loadPdf(original);
    await expect(flattenFields(doc, [item({ x: 0, y: 0, w: 10, h: 10 }, 0, { kind: 'date', date: '2024-01-01' }, 4)], new SealDrawing(doc))).rejects.toThrow(/page 4/);
  });
});

/** A PDF with a form: a filled text field, a checked box, a field with a widget on two pages, radios and a dropdown. */
async function pdfWithForm(): Promise<Uint8Array> {
  return makePdf({
    pages: 2,
    edit: (doc: PDFDocument) => {
      const form = doc.getForm();
      const [first, second] = doc.getPages() as [PDFPage, PDFPage];
      const name = form.createTextField('name');
      name.setText('Prefilled Name');
      name.addToPage(first, { x: 50, y: 700, width: 200, height: 24 });
      name.addToPage(second, { x: 50, y: 700, width: 200, height: 24 });
      const agree = form.createCheckBox('agree');
      agree.addToPage(first, { x: 50, y: 650, width: 16, height: 16 });
      agree.check();
      const choice = form.createRadioGroup('choice');
      choice.addOptionToPage('a', first, { x: 50, y: 600, width: 16, height: 16 });
      choice.addOptionToPage('b', first, { x: 80, y: 600, width: 16, height: 16 });
      choice.select('b');
      const country = form.createDropdown('country');
      country.addOptions(['Poland', 'Greece']);
      country.select('Greece');
      country.addToPage(first, { x: 50, y: 550, width: 120, height: 20 });
    },
  });
}

describe('flattenFields: the original AcroForm', () => {
  it('draws the fields into their pages and leaves no field, widget or dangling annotation reference', async () => {
    const pdf = await flattened(await pdfWithForm(), []);
    const qpdf = spawnSync('qpdf', ['--check', tempFile(pdf)], { encoding: 'utf8' });
    expect(qpdf.status, qpdf.stdout + qpdf.stderr).toBe(0);
    expect(qpdf.stdout + qpdf.stderr).not.toMatch(/WARNING/i);
    const doc = await PDFDocument.load(pdf);
    expect(doc.catalog.get(PDFName.of('AcroForm'))).toBeUndefined(); // an AcroForm without /Fields would be invalid
    for (const page of doc.getPages()) {
      const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray)?.asArray() ?? [];
      expect(annots.filter((a) => a instanceof PDFRef && doc.context.lookup(a) === undefined)).toEqual([]);
      expect(annots.map((a) => doc.context.lookup(a, PDFDict).get(PDFName.of('Subtype')))).not.toContain(PDFName.of('Widget'));
    }
    expect(words(pdf, 1).map((w) => w.text).join(' ')).toContain('Prefilled Name');
    expect(words(pdf, 2).map((w) => w.text).join(' ')).toContain('Prefilled Name');
    expect(words(pdf, 1).map((w) => w.text)).toContain('Greece');
  });

  it('seals a damaged form too: an /AcroForm that is not a dictionary, or whose /Fields names missing objects', async () => {
    const original = await pdfWithForm();
    for (const damage of [
      (doc: PDFDocument) => { doc.catalog.set(PDFName.of('AcroForm'), PDFNumber.of(7)); },
      (doc: PDFDocument) => { doc.catalog.lookup(PDFName.of('AcroForm'), PDFDict).set(PDFName.of('Fields'), doc.context.obj([PDFRef.of(9999)])); },
    ]) {
      const doc = await PDFDocument.load(original);
      damage(doc);
      const pdf = await flattened(await doc.save(), [{ page: 1, rect: { x: 300, y: 300, width: 200, height: 20 }, rotate: 0, value: { kind: 'text', text: 'STILLSEALED' } }]);
      expect(spawnSync('qpdf', ['--check', tempFile(pdf)]).status).toBe(0);
      expect(words(pdf, 1).map((w) => w.text)).toContain('STILLSEALED');
      const sealed = await PDFDocument.load(pdf);
      expect(sealed.catalog.get(PDFName.of('AcroForm'))).toBeUndefined();
      // The widgets it could not flatten stay on the page as annotations, shown from their own appearances
      const annots = sealed.getPage(0).node.lookupMaybe(PDFName.of('Annots'), PDFArray)?.asArray() ?? [];
      expect(annots.filter((a) => a instanceof PDFRef && sealed.context.lookup(a) === undefined)).toEqual([]);
      expect(annots.length).toBeGreaterThan(0);
    }
  });

  it("pdf-lib's own flatten() leaves dangling /Annots entries, which is why they are pruned", async () => {
    const doc = await PDFDocument.load(await pdfWithForm());
    doc.getForm().flatten();
    const dangling = doc.getPages().flatMap((page) => page.node.lookupMaybe(PDFName.of('Annots'), PDFArray)?.asArray() ?? [])
      .filter((a) => a instanceof PDFRef && doc.context.lookup(a) === undefined);
    expect(dangling.length).toBeGreaterThan(0);
  });

  it('draws fields without appearances (also in scripts Helvetica lacks) and skips hidden widgets', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([A4.width, A4.height]);
    const form = doc.getForm();
    for (const [name, value, y] of [['latin', 'PLAINVALUE', 700], ['greek', 'Ωμέγα', 650], ['two-fonts', 'Łódź / 北京', 550]] as const) {
      const field = form.createTextField(name);
      field.addToPage(page, { x: 50, y, width: 200, height: 24 });
      field.acroField.setValue(PDFHexString.fromText(value));
      for (const widget of field.acroField.getWidgets()) widget.dict.delete(PDFName.of('AP'));
    }
    const hidden = form.createTextField('hidden');
    hidden.setText('HIDDENVALUE');
    hidden.addToPage(page, { x: 50, y: 600, width: 200, height: 24, hidden: true });
    const pdf = await flattened(await doc.save({ updateFieldAppearances: false }), []);
    expect(spawnSync('qpdf', ['--check', tempFile(pdf)]).status).toBe(0);
    const shown = words(pdf, 1).map((w) => w.text);
    expect(shown).toEqual(expect.arrayContaining(['PLAINVALUE', 'Ωμέγα', 'Łódź', '/', '北京'])); // one value, two fonts
    expect(shown).not.toContain('HIDDENVALUE');
    const sealed = await PDFDocument.load(pdf);
    expect(sealed.getPage(0).node.lookupMaybe(PDFName.of('Annots'), PDFArray)?.size() ?? 0).toBe(0);
  });
});
