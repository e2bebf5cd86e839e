/**
 * The original's AcroForm: signed signature fields stay exactly as they are (still listed in the form, their
 * widgets on their pages), so earlier signatures keep validating for their revision; every other field is drawn
 * into its page from its appearance and removed. A text or choice value without an appearance (or with
 * /NeedAppearances) is drawn with the seal's own fonts, so a value in any mix of scripts shows.
 * A form too damaged to read is dropped and its widgets stay on their pages as annotations.
 */
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRef, PDFStream, PDFString, PDFHexString, PDFBool, type PDFDocument, type PDFObject } from 'pdf-lib';
import type { Canvas } from './draw/canvas.ts';
import type { SealDrawing } from './draw/drawing.ts';
import { layoutLine } from './text/layout.ts';
import { wrapLines } from './text/wrap.ts';

interface Field {
  dict: PDFDict;
  widgets: { dict: PDFDict; ref: PDFRef | undefined }[];
  type: string | undefined;
  flags: number;
  signed: boolean;
}

const HIDDEN = 2;
const NO_VIEW = 32;
const MULTILINE = 1 << 12;
const PASSWORD = 1 << 13;
const MAX_DEPTH = 32;

export async function flattenAcroForm(doc: PDFDocument, drawing: SealDrawing): Promise<void> {
  const entry = doc.catalog.lookup(PDFName.of('AcroForm')); // no typed lookup: a damaged entry must not throw
  if (entry === undefined) return;
  let kept = 0;
  if (entry instanceof PDFDict) {
    try {
      kept = await flattenForm(doc, entry, drawing);
    } catch {
      kept = 0; // a form we cannot read as a whole: its widgets stay on their pages, drawn from their own appearances
    }
  }
  pruneDanglingAnnotations(doc);
  if (kept === 0) doc.catalog.delete(PDFName.of('AcroForm')); // an AcroForm must have /Fields; signing makes its own
}

/** Flattens every field but the signed signature fields; returns how many fields are kept. */
async function flattenForm(doc: PDFDocument, acroForm: PDFDict, drawing: SealDrawing): Promise<number> {
  const fields = acroForm.lookupMaybe(PDFName.of('Fields'), PDFArray);
  if (!fields) return 0;
  const terminals = collectFields(doc, fields);
  const needAppearances = acroForm.lookup(PDFName.of('NeedAppearances')) === PDFBool.True;
  const pages = widgetPages(doc);
  const removed = new Set<PDFDict>();
  for (const field of terminals) {
    if (field.signed) continue;
    for (const widget of field.widgets) {
      removed.add(widget.dict);
      const page = widget.ref ? pages.get(widget.ref) : undefined;
      if (page === undefined || hidden(widget.dict)) continue;
      await drawWidget(doc, drawing.canvas(doc.getPage(page)), field, widget.dict, needAppearances);
    }
  }
  removeWidgets(doc, removed);
  keepSigned(doc, fields, new Set(terminals.filter((f) => f.signed).map((f) => f.dict)), 0);
  acroForm.delete(PDFName.of('NeedAppearances'));
  return terminals.filter((f) => f.signed).length;
}

/** The terminal fields under /Fields, with the inheritable /FT and /Ff resolved. */
function collectFields(doc: PDFDocument, fields: PDFArray): Field[] {
  const out: Field[] = [];
  const seen = new Set<PDFDict>();
  const visit = (ref: PDFObject, inherited: { type?: string; flags: number }, depth: number): void => {
    const dict = ref instanceof PDFRef ? doc.context.lookup(ref) : ref;
    if (!(dict instanceof PDFDict) || seen.has(dict) || depth > MAX_DEPTH) return;
    seen.add(dict);
    const type = dict.lookupMaybe(PDFName.of('FT'), PDFName)?.decodeText() ?? inherited.type;
    const flags = dict.lookupMaybe(PDFName.of('Ff'), PDFNumber)?.asNumber() ?? inherited.flags;
    const kids = dict.lookupMaybe(PDFName.of('Kids'), PDFArray)?.asArray() ?? [];
    const childFields = kids.filter((kid) => doc.context.lookupMaybe(kid, PDFDict)?.has(PDFName.of('T')));
    if (childFields.length > 0) {
      for (const kid of childFields) visit(kid, { type, flags }, depth + 1);
      return;
    }
    const widgets = kids.length > 0
      ? kids.flatMap((kid) => { const w = doc.context.lookupMaybe(kid, PDFDict); return w ? [{ dict: w, ref: kid instanceof PDFRef ? kid : undefined }] : []; })
      : [{ dict, ref: ref instanceof PDFRef ? ref : undefined }];
    out.push({ dict, widgets, type, flags, signed: type === 'Sig' && dict.lookup(PDFName.of('V')) !== undefined });
  };
  for (const ref of fields.asArray()) visit(ref, { flags: 0 }, 0);
  return out;
}

const hidden = (widget: PDFDict): boolean => ((widget.lookupMaybe(PDFName.of('F'), PDFNumber)?.asNumber() ?? 0) & (HIDDEN | NO_VIEW)) !== 0;

/** The widget's normal appearance stream (for buttons, the one its /AS state names). */
function normalAppearance(doc: PDFDocument, field: Field, widget: PDFDict): PDFRef | undefined {
  const normal = widget.lookupMaybe(PDFName.of('AP'), PDFDict)?.get(PDFName.of('N'));
  if (normal instanceof PDFRef && doc.context.lookup(normal) instanceof PDFStream) return normal;
  const states = normal instanceof PDFRef ? doc.context.lookupMaybe(normal, PDFDict) : normal instanceof PDFDict ? normal : undefined;
  if (!states) return undefined;
  const state = widget.lookupMaybe(PDFName.of('AS'), PDFName) ?? field.dict.lookupMaybe(PDFName.of('V'), PDFName) ?? PDFName.of('Off');
  const chosen = states.get(state);
  return chosen instanceof PDFRef && doc.context.lookup(chosen) instanceof PDFStream ? chosen : undefined;
}

async function drawWidget(doc: PDFDocument, canvas: Canvas, field: Field, widget: PDFDict, needAppearances: boolean): Promise<void> {
  const rect = rectOf(widget);
  if (!rect) return;
  const appearance = normalAppearance(doc, field, widget);
  const isText = field.type === 'Tx' || field.type === 'Ch';
  if (isText && (needAppearances || !appearance)) {
    await drawTextValue(canvas, field, rect);
    return;
  }
  if (!appearance) return; // nothing to show: a button without appearances, an unsigned signature field
  const stream = doc.context.lookup(appearance, PDFStream);
  stream.dict.set(PDFName.of('Subtype'), PDFName.of('Form')); // some writers leave it out; Do needs it
  canvas.xobject(appearance, placement(stream.dict, rect));
}

/** ISO 32000-1 §12.5.5: the appearance's box, transformed by its /Matrix, mapped onto the annotation's rectangle. */
function placement(form: PDFDict, rect: Rect): [number, number, number, number, number, number] {
  const [x0 = 0, y0 = 0, x1 = rect.width, y1 = rect.height] = numbers(form.lookupMaybe(PDFName.of('BBox'), PDFArray), 4) ?? [];
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = numbers(form.lookupMaybe(PDFName.of('Matrix'), PDFArray), 6) ?? [];
  const corners = [[x0, y0], [x1, y0], [x0, y1], [x1, y1]].map(([x = 0, y = 0]) => [a * x + c * y + e, b * x + d * y + f]);
  const xs = corners.map((p) => p[0] ?? 0);
  const ys = corners.map((p) => p[1] ?? 0);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const sx = maxX > minX ? rect.width / (maxX - minX) : 1;
  const sy = maxY > minY ? rect.height / (maxY - minY) : 1;
  return [sx, 0, 0, sy, rect.x - minX * sx, rect.y - minY * sy];
}

interface Rect { x: number; y: number; width: number; height: number }

function rectOf(widget: PDFDict): Rect | undefined {
  const [x1, y1, x2, y2] = numbers(widget.lookupMaybe(PDFName.of('Rect'), PDFArray), 4) ?? [];
  if (x1 === undefined || y1 === undefined || x2 === undefined || y2 === undefined) return undefined;
  const rect = { x: Math.min(x1, x2), y: Math.min(y1, y2), width: Math.abs(x2 - x1), height: Math.abs(y2 - y1) };
  return rect.width > 0 && rect.height > 0 ? rect : undefined;
}

/** The array's first `count` entries as finite numbers, or undefined. */
function numbers(array: PDFArray | undefined, count: number): number[] | undefined {
  const values = array?.asArray().slice(0, count).map((v) => (v instanceof PDFNumber ? v.asNumber() : NaN));
  return values?.length === count && values.every(Number.isFinite) ? values : undefined;
}

/** A text or choice value in the field's box: its size from /DA (0: as large as fits), its alignment from /Q. */
async function drawTextValue(canvas: Canvas, field: Field, rect: Rect): Promise<void> {
  const value = valueText(field.dict.lookup(PDFName.of('V')));
  if (!value || (field.flags & PASSWORD) !== 0) return;
  const da = /(\d+(?:\.\d+)?)\s+Tf/.exec(textOf(field.dict.lookup(PDFName.of('DA'))) ?? '');
  const align = field.dict.lookupMaybe(PDFName.of('Q'), PDFNumber)?.asNumber() ?? 0;
  const pad = 2;
  const inner = { width: rect.width - 2 * pad, height: rect.height - 2 * pad };
  const multiline = (field.flags & MULTILINE) !== 0;
  const fixed = Number(da?.[1] ?? 0);
  let size = fixed > 0 ? fixed : Math.min(12, inner.height * 0.7);
  const lines = multiline ? await wrapLines(value, 'regular', size, inner.width) : [await layoutLine(value, 'regular')];
  if (!multiline && fixed === 0 && lines[0]) size = Math.max(4, Math.min(size, inner.width / Math.max(lines[0].width, 1e-6)));
  canvas.save().clip(rect.x, rect.y, rect.width, rect.height);
  lines.forEach((line, i) => {
    const width = line.width * size;
    const x = align === 1 ? (rect.width - width) / 2 : align === 2 ? rect.width - pad - width : pad;
    const y = multiline ? rect.height - pad - (i + 1) * size * 1.15 + size * 0.25 : (rect.height - size) / 2 + size * 0.22;
    canvas.text(line, { x: rect.x + x, y: rect.y + y, size });
  });
  canvas.restore();
}

function valueText(value: PDFObject | undefined): string | undefined {
  if (value instanceof PDFArray) return value.asArray().map((v) => textOf(v) ?? '').join(', ');
  return textOf(value);
}

function textOf(value: PDFObject | undefined): string | undefined {
  if (value instanceof PDFString || value instanceof PDFHexString) return value.decodeText();
  if (value instanceof PDFName) return value.decodeText();
  return undefined;
}

/** Widget ref -> the index of the page whose /Annots lists it (a widget's own /P may be missing or wrong). */
function widgetPages(doc: PDFDocument): Map<PDFRef, number> {
  const pages = new Map<PDFRef, number>();
  doc.getPages().forEach((page, i) => {
    for (const entry of page.node.lookupMaybe(PDFName.of('Annots'), PDFArray)?.asArray() ?? []) if (entry instanceof PDFRef) pages.set(entry, i);
  });
  return pages;
}

function removeWidgets(doc: PDFDocument, removed: Set<PDFDict>): void {
  for (const page of doc.getPages()) {
    const annots = page.node.lookup(PDFName.of('Annots'));
    if (!(annots instanceof PDFArray)) continue;
    for (let i = annots.size() - 1; i >= 0; i--) {
      const annot = doc.context.lookup(annots.get(i));
      if (annot instanceof PDFDict && removed.has(annot)) annots.remove(i);
    }
  }
}

/** Keeps in the field tree only the branches that lead to a signed field (arrays of removed branches stay untouched). */
function keepSigned(doc: PDFDocument, kids: PDFArray, signed: Set<PDFDict>, depth: number): void {
  const childrenOf = (dict: PDFDict) => dict.lookupMaybe(PDFName.of('Kids'), PDFArray);
  const leads = (entry: PDFObject, level: number): boolean => {
    const dict = doc.context.lookup(entry);
    if (!(dict instanceof PDFDict)) return false;
    if (signed.has(dict)) return true;
    const children = childrenOf(dict);
    return children !== undefined && level < MAX_DEPTH && children.asArray().some((kid) => leads(kid, level + 1));
  };
  for (let i = kids.size() - 1; i >= 0; i--) {
    const entry = kids.get(i);
    if (!leads(entry, depth)) { kids.remove(i); continue; }
    const dict = doc.context.lookup(entry, PDFDict);
    const children = childrenOf(dict);
    if (!signed.has(dict) && children) keepSigned(doc, children, signed, depth + 1);
  }
}

/** /Annots entries that point at objects the file does not have. */
function pruneDanglingAnnotations(doc: PDFDocument): void {
  for (const page of doc.getPages()) {
    const annots = page.node.lookup(PDFName.of('Annots'));
    if (!(annots instanceof PDFArray)) continue;
    for (let i = annots.size() - 1; i >= 0; i--) if (doc.context.lookup(annots.get(i)) === undefined) annots.remove(i);
  }
}
