/**
 * Draws the signers' values into the page content (the sealed file has no interactive fields), and
 * flattens any AcroForm fields the original carried.
 *
 * Each value is drawn in a frame that is upright as the viewer shows the page: the rect is in PDF user
 * space, and on a page with /Rotate R (shown turned R degrees clockwise) the frame is turned R degrees
 * counter-clockwise about the rect. Everything is clipped to the rect, so nothing can spill out.
 */
import { createHash } from 'node:crypto';
import {
  AnnotationFlags,
  clip,
  concatTransformationMatrix,
  endPath,
  LineCapStyle,
  LineJoinStyle,
  lineTo,
  moveTo,
  PDFAcroForm,
  PDFArray,
  PDFCheckBox,
  PDFDict,
  PDFDropdown,
  PDFForm,
  PDFName,
  PDFRadioGroup,
  PDFRef,
  PDFTextField,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rgb,
  setLineCap,
  setLineJoin,
  setLineWidth,
  setStrokingColor,
  stroke,
  type PDFDocument,
  type PDFField,
  type PDFImage,
  type PDFPage,
  type PDFWidgetAnnotation,
} from 'pdf-lib';
import { drawRuns, extentOf, widthOf, wrapText, type FontChain, type FontSet, type TextRun } from './fonts.ts';

export interface FlattenItem {
  page: number; // 1-based
  rect: { x: number; y: number; width: number; height: number }; // PDF user space
  rotate: 0 | 90 | 180 | 270; // the page's /Rotate
  value:
    | { kind: 'image'; png: Uint8Array }
    | { kind: 'typed'; text: string; fontLabel: string }
    | { kind: 'text'; text: string }
    | { kind: 'checkbox'; checked: boolean }
    | { kind: 'date'; date: string };
}

/** The upright frame's size as the viewer shows it; its origin is the shown bottom-left corner of the rect. */
interface Frame {
  width: number;
  height: number;
}

const INK = rgb(0.08, 0.12, 0.4); // typed signatures and check marks read as "signed in ink"
const TEXT = rgb(0, 0, 0);
const MIN_TEXT_SIZE = 6;
const MAX_TEXT_SIZE = 12;

export async function flattenFields(doc: PDFDocument, items: FlattenItem[], fonts: FontSet): Promise<void> {
  await flattenAcroForm(doc, fonts);
  const pages = doc.getPages();
  const images = new Map<string, Promise<PDFImage>>();
  // One image object per distinct PNG: the same signature is often placed on many pages.
  const image = (png: Uint8Array) => {
    const key = createHash('sha256').update(png).digest('hex');
    let embedded = images.get(key);
    if (!embedded) images.set(key, (embedded = doc.embedPng(png)));
    return embedded;
  };
  for (const item of items) {
    const page = pages[item.page - 1];
    if (!page) throw new RangeError(`flattenFields: page ${String(item.page)} does not exist (${String(pages.length)} pages)`);
    const { width, height } = item.rect;
    if (!(width > 0 && height > 0 && Number.isFinite(width * height))) throw new RangeError('flattenFields: an empty field box');
    const frame = openFrame(page, item.rect, item.rotate);
    try {
      await drawValue(page, item.value, frame, { fonts, image });
    } finally {
      page.pushOperators(popGraphicsState()); // balanced even when a value fails to draw
    }
  }
}

/** Pushes q, the counter-rotation onto the rect and a clip to it; the caller pops. */
function openFrame(page: PDFPage, rect: FlattenItem['rect'], rotate: FlattenItem['rotate']): Frame {
  const { x, y, width: w, height: h } = rect;
  const turned = rotate === 90 || rotate === 270;
  const frame = turned ? { width: h, height: w } : { width: w, height: h };
  // Origin at the corner the viewer shows bottom-left; axes turned by +rotate (counter-clockwise).
  const matrix: Record<FlattenItem['rotate'], [number, number, number, number, number, number]> = {
    0: [1, 0, 0, 1, x, y],
    90: [0, 1, -1, 0, x + w, y],
    180: [-1, 0, 0, -1, x + w, y + h],
    270: [0, -1, 1, 0, x, y + h],
  };
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(...matrix[rotate]),
    rectangle(0, 0, frame.width, frame.height),
    clip(),
    endPath(),
  );
  return frame;
}

interface DrawContext {
  fonts: FontSet;
  image: (png: Uint8Array) => Promise<PDFImage>;
}

async function drawValue(page: PDFPage, value: FlattenItem['value'], frame: Frame, ctx: DrawContext): Promise<void> {
  switch (value.kind) {
    case 'image':
      drawImageFitted(page, await ctx.image(value.png), frame);
      return;
    case 'typed':
      drawLine(page, await ctx.fonts.signature(value.fontLabel).runs(value.text), frame, { align: 'center', color: INK });
      return;
    case 'date':
      drawLine(page, await ctx.fonts.regular.runs(value.date), frame, { align: 'left', color: TEXT, maxSize: MAX_TEXT_SIZE });
      return;
    case 'text':
      await drawParagraphs(page, ctx.fonts.regular, value.text, frame);
      return;
    case 'checkbox':
      drawCheckbox(page, value.checked, frame);
      return;
  }
}

const paddingOf = (frame: Frame): number => Math.min(2, frame.width * 0.05, frame.height * 0.05);

/** Aspect ratio kept, as large as fits, centred. */
function drawImageFitted(page: PDFPage, image: PDFImage, frame: Frame): void {
  const pad = paddingOf(frame);
  const scale = Math.min((frame.width - 2 * pad) / image.width, (frame.height - 2 * pad) / image.height);
  const width = image.width * scale;
  const height = image.height * scale;
  page.drawImage(image, { x: (frame.width - width) / 2, y: (frame.height - height) / 2, width, height });
}

/** One line, as large as fits (up to maxSize), vertically centred. */
function drawLine(page: PDFPage, runs: TextRun[], frame: Frame, opts: { align: 'left' | 'center'; color: typeof TEXT; maxSize?: number }): void {
  if (runs.length === 0) return;
  const pad = paddingOf(frame);
  const { ascent, descent } = extentOf(runs);
  const byHeight = (frame.height - 2 * pad) / (ascent - descent);
  const byWidth = (frame.width - 2 * pad) / Math.max(widthOf(runs, 1), 1e-6);
  const size = Math.min(byHeight, byWidth, opts.maxSize ?? Infinity);
  const width = widthOf(runs, size);
  const x = opts.align === 'center' ? (frame.width - width) / 2 : pad;
  const y = (frame.height - (ascent - descent) * size) / 2 - descent * size;
  drawRuns(page, runs, { x, y, size, color: opts.color });
}

/** Free text: wrapped, shrunk down to MIN_TEXT_SIZE; what still does not fit is cut with an ellipsis. */
async function drawParagraphs(page: PDFPage, fonts: FontChain, text: string, frame: Frame): Promise<void> {
  const pad = paddingOf(frame);
  const inner = { width: frame.width - 2 * pad, height: frame.height - 2 * pad };
  const { ascent, descent } = extentOf(await fonts.runs(text));
  const em = ascent - descent;
  let size = Math.max(MIN_TEXT_SIZE, Math.min(MAX_TEXT_SIZE, inner.height / em));
  let lines = await wrapText(fonts, text, size, inner.width);
  while (lines.length * em * size > inner.height && size > MIN_TEXT_SIZE) {
    size = Math.max(MIN_TEXT_SIZE, size - 0.5);
    lines = await wrapText(fonts, text, size, inner.width);
  }
  const fitting = Math.max(1, Math.floor(inner.height / (em * size) + 1e-9));
  if (lines.length > fitting) lines = [...lines.slice(0, fitting - 1), await withEllipsis(fonts, lines[fitting - 1] ?? [], size, inner.width)];
  const top = (frame.height + lines.length * em * size) / 2; // the block is centred vertically
  lines.forEach((runs, i) => {
    drawRuns(page, runs, { x: pad, y: top - (i + 1) * em * size - descent * size, size, color: TEXT });
  });
}

async function withEllipsis(fonts: FontChain, line: TextRun[], size: number, maxWidth: number): Promise<TextRun[]> {
  const ellipsis = await fonts.runs('…');
  const chars = line.flatMap((run) => Array.from(run.text, (ch) => ({ text: ch, face: run.face })));
  while (chars.length > 0 && widthOf([...chars, ...ellipsis], size) > maxWidth) chars.pop();
  return [...chars, ...ellipsis];
}

/** A thin square, and a vector check mark when checked. */
function drawCheckbox(page: PDFPage, checked: boolean, frame: Frame): void {
  const pad = paddingOf(frame);
  const side = Math.min(frame.width, frame.height) - 2 * pad;
  const x0 = (frame.width - side) / 2;
  const y0 = (frame.height - side) / 2;
  const line = Math.max(0.5, side * 0.04);
  page.drawRectangle({ x: x0 + line / 2, y: y0 + line / 2, width: side - line, height: side - line, borderWidth: line, borderColor: rgb(0.35, 0.35, 0.35) });
  if (!checked) return;
  const at = (u: number, v: number): [number, number] => [x0 + u * side, y0 + v * side];
  page.pushOperators(
    pushGraphicsState(),
    setStrokingColor(INK),
    setLineWidth(Math.max(1, side * 0.12)),
    setLineCap(LineCapStyle.Round),
    setLineJoin(LineJoinStyle.Round),
    moveTo(...at(0.2, 0.52)),
    lineTo(...at(0.42, 0.26)),
    lineTo(...at(0.8, 0.76)),
    stroke(),
    popGraphicsState(),
  );
}

// ---------------------------------------------------------------------------------------------
// The original's AcroForm fields.

/**
 * Draws every field's appearance into its page and removes the fields (pdf-lib form.flatten()), then
 * prunes what flatten() leaves behind: /Annots entries pointing at deleted widgets (pdf-lib issue 1267)
 * and widgets of fields it could not place. The emptied form goes too: an AcroForm must have /Fields
 * (poppler: "Can't get Fields array"), and the signing step creates its own.
 */
async function flattenAcroForm(doc: PDFDocument, fonts: FontSet): Promise<void> {
  const entry = doc.catalog.lookup(PDFName.of('AcroForm')); // no typed lookup: a damaged entry must not throw
  if (entry === undefined) return;
  let flattened = false;
  if (entry instanceof PDFDict) {
    try {
      await flattenForm(doc, entry, fonts);
      flattened = true;
    } catch {
      // A form pdf-lib cannot read as a whole (an upload that passed inspection must still seal): its widgets
      // stay on their pages as annotations, drawn from their own appearances.
    }
  }
  pruneAnnotations(doc, { widgets: flattened });
  doc.catalog.delete(PDFName.of('AcroForm'));
}

async function flattenForm(doc: PDFDocument, acroForm: PDFDict, fonts: FontSet): Promise<void> {
  // Not doc.getForm(): its cached form would outlive the AcroForm removed below, and it warns about XFA.
  const form = PDFForm.of(PDFAcroForm.fromDict(acroForm), doc);
  let blankRef: PDFRef | undefined;
  const blank = () => (blankRef ??= doc.context.register(doc.context.formXObject([], { BBox: [0, 0, 1, 1] })));
  const pageOf = widgetPages(doc);
  for (const field of form.getFields()) {
    try {
      if (field.needsAppearancesUpdate()) await updateAppearances(form, field, fonts);
      prepareWidgets(form, field, { blank, pageOf, firstPage: doc.getPage(0).ref });
    } catch {
      // A field pdf-lib cannot read: flatten() skips or drops it, and its widgets go with the pruning.
    }
  }
  try {
    form.flatten({ updateFieldAppearances: false });
  } catch {
    // A field pdf-lib cannot flatten is dropped: its widgets go with the pruning.
  }
}

interface FieldFixes {
  blank: () => PDFRef;
  pageOf: Map<PDFRef, PDFRef>;
  firstPage: PDFRef;
}

/** Appearances for a field that lacks them: Helvetica, or the Unicode font that draws the whole value. */
async function updateAppearances(form: PDFForm, field: PDFField, fonts: FontSet): Promise<void> {
  try {
    field.defaultUpdateAppearances(form.getDefaultFont());
    return;
  } catch {
    // a value Helvetica cannot encode
  }
  const value = field instanceof PDFTextField ? (field.getText() ?? '') : field instanceof PDFDropdown ? field.getSelected().join(', ') : '';
  const runs = await fonts.regular.runs(value);
  try {
    if (runs.length === 1 && runs[0]) field.defaultUpdateAppearances(runs[0].face.font);
  } catch {
    // still not drawable: prepareWidgets gives the widgets a blank appearance
  }
}

/** Leaves every widget with an appearance flatten() can draw (a blank one when hidden or unrenderable) and a page. */
function prepareWidgets(form: PDFForm, field: PDFField, fixes: FieldFixes): void {
  for (const widget of field.acroField.getWidgets()) {
    const hidden = widget.hasFlag(AnnotationFlags.Hidden) || widget.hasFlag(AnnotationFlags.NoView);
    if (hidden || !hasDrawableAppearance(field, widget)) widget.setNormalAppearance(fixes.blank());
    const ref = form.doc.context.getObjectRef(widget.dict);
    const page = ref && fixes.pageOf.get(ref);
    if (page) widget.dict.set(PDFName.of('P'), page);
    else if (!widget.P()) {
      // Not on any page: nothing to show; flatten() still needs a page to draw the blank on.
      widget.setNormalAppearance(fixes.blank());
      widget.dict.set(PDFName.of('P'), fixes.firstPage);
    }
  }
}

/** What pdf-lib's flatten() will look up: a stream, or for buttons a state dictionary with the value or Off. */
function hasDrawableAppearance(field: PDFField, widget: PDFWidgetAnnotation): boolean {
  const normal = widget.AP()?.get(PDFName.of('N'));
  if (normal instanceof PDFRef) return true;
  if (!(normal instanceof PDFDict) || !(field instanceof PDFCheckBox || field instanceof PDFRadioGroup)) return false;
  const value = field.acroField.getValue();
  return normal.get(value) instanceof PDFRef || normal.get(PDFName.of('Off')) instanceof PDFRef;
}

/** Widget ref to the page whose /Annots lists it (a widget's own /P may be missing or wrong). */
function widgetPages(doc: PDFDocument): Map<PDFRef, PDFRef> {
  const pages = new Map<PDFRef, PDFRef>();
  for (const page of doc.getPages()) {
    const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
    for (const entry of annots?.asArray() ?? []) if (entry instanceof PDFRef) pages.set(entry, page.ref);
  }
  return pages;
}

/** Removes /Annots entries that point at deleted objects and, once the form is flattened, any widget left over. */
function pruneAnnotations(doc: PDFDocument, options: { widgets: boolean }): void {
  for (const page of doc.getPages()) {
    const annots = page.node.lookup(PDFName.of('Annots'));
    if (!(annots instanceof PDFArray)) continue;
    for (let i = annots.size() - 1; i >= 0; i--) {
      const entry = annots.get(i);
      const annot = entry instanceof PDFRef ? doc.context.lookup(entry) : entry;
      const isWidget = annot instanceof PDFDict && annot.get(PDFName.of('Subtype')) === PDFName.of('Widget');
      if (annot === undefined || (options.widgets && isWidget)) annots.remove(i);
    }
  }
}
