/**
 * Upload-time inspection of a PDF: accept only real, complete, unencrypted PDFs and record
 * their page count, SHA-256 and per-page geometry (crop box and rotation, in PDF user space).
 *
 * Two layers: cheap byte-level checks on the head and tail of the file (header, %%EOF,
 * startxref, trailer /Encrypt), then a pdf-lib parse with an explicit page-tree walk.
 * pdf-lib parses the file front to back and ignores the cross-reference table, so on its own
 * it happily loads a file cut at an object boundary (pages silently missing); the byte checks
 * and the /Count cross-check exist to catch exactly that.
 */
import { createHash } from 'node:crypto';
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFPageLeaf, PDFPageTree, PDFRef, toDegrees, type PDFDocument, type PDFObject, type PDFPage } from 'pdf-lib';
import { MAX_DECODED_BYTES, MAX_PAGES, PdfRefused, refused, type PdfRejection } from './pdf-limits.ts';
import { loadPdf } from './load.ts';
import { scanStreams } from './streams.ts';
import { readLastXref, XrefError, type XrefProblem, type XrefSection } from './xref.ts';

export interface PageBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PdfPageInfo {
  /** The crop box (defaults to the media box, clipped to it), in PDF user space. */
  box: PageBox;
  rotate: 0 | 90 | 180 | 270;
}

export interface PdfInfo {
  pageCount: number;
  pages: PdfPageInfo[];
  /** Lowercase hex SHA-256 of the exact bytes. */
  sha256: string;
  sizeBytes: number;
}

export type { PdfRejection } from './pdf-limits.ts';

/**
 * `checked`: the objects just checked, written out again by pdf-lib, for reading the text. pdf.js given the upload
 * itself would follow its cross-reference offsets, which can point at objects pdf-lib never saw (inside another
 * stream's data), whose streams nobody measured.
 */
export type PdfInspection = { ok: true; info: PdfInfo; checked: Uint8Array } | { ok: false; reason: PdfRejection; message: string };

export interface InspectOptions {
  /** JavaScript and launch actions are refused unless the application allows them. */
  allowActiveContent?: boolean;
}

/** Real page trees are a handful of levels deep; this bounds recursion on hostile files. */
const MAX_TREE_DEPTH = 64;

const rejected = refused;

/** Inspects an uploaded PDF. Never throws: every problem becomes `{ ok: false, reason, message }`. */
export async function inspectPdf(bytes: Uint8Array, options: InspectOptions = {}): Promise<PdfInspection> {
  try {
    return { ok: true, ...(await inspect(bytes, options)) };
  } catch (err) {
    const rejection = err instanceof PdfRefused ? err : fromPdfLibError(err);
    return { ok: false, reason: rejection.reason, message: rejection.message };
  }
}

async function inspect(bytes: Uint8Array, { allowActiveContent = false }: InspectOptions): Promise<{ info: PdfInfo; checked: Uint8Array }> {
  checkFileStructure(bytes);
  const budget = { left: MAX_DECODED_BYTES };
  const doc = await loadPdf(bytes, budget);
  // Checked here, not by pdf-lib: its EncryptedPDFError is a plain Error that fails instanceof.
  if (doc.isEncrypted) throw rejected.encrypted();
  if (docMdpPermissions(doc) === 1) throw rejected.locked();
  const pages = readPages(doc);
  // After the page count (cheap, and the likelier refusal), before anything inflates a stream.
  await scanStreams(doc.context, { allowActiveContent, maxDecodedBytes: budget.left });
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const checked = await doc.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false, objectsPerTick: Infinity });
  return { info: { pageCount: pages.length, pages, sha256, sizeBytes: bytes.length }, checked };
}

// ---------------------------------------------------------------------------------------------
// Byte-level checks: header, end of file, cross-reference section, trailer /Encrypt.

function checkFileStructure(bytes: Uint8Array): void {
  if (bytes.length === 0) throw rejected.empty();
  let xref: XrefSection;
  try {
    xref = readLastXref(bytes);
  } catch (err) {
    throw err instanceof XrefError ? fromXrefProblem(err.problem) : err;
  }
  if (xref.trailer.has(PDFName.of('Encrypt'))) throw rejected.encrypted();
  // pdf-lib would find a catalog by its /Type, but pdf.js and viewers go by /Root only.
  if (!(xref.trailer.get(PDFName.of('Root')) instanceof PDFRef)) throw rejected.damaged('its trailer names no document catalog (/Root)');
}

function fromXrefProblem(problem: XrefProblem): PdfRefused {
  switch (problem) {
    case 'no_header': return rejected.notPdf();
    case 'no_eof': return rejected.truncated('no end-of-file marker');
    case 'no_startxref': return rejected.truncated('no cross-reference table');
    case 'missing': return rejected.truncated('the cross-reference table is missing');
    case 'not_a_section': return rejected.damaged('its cross-reference offset (startxref) does not point to a cross-reference table');
    // Sealing appends an update after this section: a file whose section cannot be read would pass here and fail at the seal.
    case 'unreadable': return rejected.damaged('its last cross-reference section or trailer cannot be read, so it could not be sealed; save it again with a PDF tool');
  }
}

/**
 * The access permissions of a certification signature (ISO 32000-1 §12.8.2.2): /Perms /DocMDP names the signature,
 * whose /Reference holds a DocMDP transform with /P (1: no changes at all; 2, the default: form filling and
 * signing; 3: also annotations). Undefined when the document is not certified.
 */
function docMdpPermissions(doc: PDFDocument): number | undefined {
  const catalog: unknown = doc.catalog; // undefined at runtime when the trailer has no usable /Root (readPages says so)
  if (!(catalog instanceof PDFDict)) return undefined;
  const signature = catalog.lookupMaybe(PDFName.of('Perms'), PDFDict)?.lookupMaybe(PDFName.of('DocMDP'), PDFDict);
  const references = signature?.lookupMaybe(PDFName.of('Reference'), PDFArray);
  if (!signature || !references) return undefined;
  for (let i = 0; i < references.size(); i++) {
    const reference = references.lookupMaybe(i, PDFDict);
    if (reference?.get(PDFName.of('TransformMethod')) !== PDFName.of('DocMDP')) continue;
    return reference.lookupMaybe(PDFName.of('TransformParams'), PDFDict)?.lookupMaybe(PDFName.of('P'), PDFNumber)?.asNumber() ?? 2;
  }
  return undefined;
}

/** Maps a pdf-lib error (plain Errors: its ES5 classes break instanceof) to a rejection without internals. */
function fromPdfLibError(err: unknown): PdfRefused {
  const message = err instanceof Error ? err.message : '';
  if (/encrypted/i.test(message)) return rejected.encrypted();
  if (/No PDF header found/i.test(message)) return rejected.notPdf();
  if (/parse|parsing|keyword|Expected next byte|stalled/i.test(message)) {
    return rejected.damaged('some of its objects could not be read');
  }
  return rejected.damaged('its structure could not be read');
}

// ---------------------------------------------------------------------------------------------
// Page tree and page geometry.

function readPages(doc: PDFDocument): PdfPageInfo[] {
  const root = rootPageTree(doc);
  const count = root.lookup(PDFName.of('Count'));
  if (!(count instanceof PDFNumber)) throw rejected.damaged('its page tree has no page count');
  // The declared count first: a 10,000-page file is refused before its page tree is walked.
  if (count.asNumber() > MAX_PAGES) throw rejected.pages(count.asNumber());
  const leaves = collectLeaves(root);
  if (count.asNumber() !== leaves.length) {
    throw rejected.damaged(`it declares ${String(count.asNumber())} pages but ${String(leaves.length)} were found`);
  }
  if (leaves.length === 0) throw rejected.noPages();
  const pages = doc.getPages();
  // Our walk and pdf-lib's must agree, or the geometry below would describe other pages.
  if (pages.length !== leaves.length || pages.some((page, i) => page.node !== leaves[i])) {
    throw rejected.damaged('its page tree is inconsistent');
  }
  return pages.map((page, i) => pageInfo(page, i + 1));
}

function rootPageTree(doc: PDFDocument): PDFPageTree {
  const catalog: unknown = doc.catalog; // undefined at runtime when the trailer has no usable /Root
  if (!(catalog instanceof PDFDict)) throw rejected.damaged('it has no document catalog');
  const root = catalog.lookup(PDFName.of('Pages'));
  if (!(root instanceof PDFPageTree)) throw rejected.damaged('it has no page tree');
  return root;
}

/**
 * The page objects in document order. Unlike pdf-lib's traverse(), which silently skips kids
 * that do not resolve and recurses forever on loops, every kid must be a page or a page-tree node.
 */
function collectLeaves(root: PDFPageTree): PDFPageLeaf[] {
  const leaves: PDFPageLeaf[] = [];
  const seen = new Set<PDFObject>([root]);
  const visit = (node: PDFPageTree, depth: number): void => {
    if (depth > MAX_TREE_DEPTH) throw rejected.damaged('its page tree is too deep');
    const kids = node.lookup(PDFName.of('Kids'));
    if (!(kids instanceof PDFArray)) throw rejected.damaged('a page tree node has no list of pages');
    for (let i = 0; i < kids.size(); i++) {
      const kid = kids.lookup(i);
      if (kid === undefined) throw rejected.damaged(`page ${String(leaves.length + 1)} is missing`);
      if (seen.has(kid)) throw rejected.damaged('its page tree refers to the same object twice');
      seen.add(kid);
      if (kid instanceof PDFPageLeaf) {
        if (leaves.length === MAX_PAGES) throw rejected.pages(`more than ${String(MAX_PAGES)}`);
        leaves.push(kid);
      }
      else if (kid instanceof PDFPageTree) visit(kid, depth + 1);
      else throw rejected.damaged('its page tree contains an object that is not a page');
    }
  };
  visit(root, 0);
  return leaves;
}

function pageInfo(page: PDFPage, pageNumber: number): PdfPageInfo {
  // pdf-lib inherits /MediaBox, /CropBox and /Rotate through /Parent, as the spec requires.
  assertParentChainEnds(page.node, pageNumber);
  const media = readBox(() => page.getMediaBox());
  if (!media || media.width === 0 || media.height === 0) {
    throw rejected.damaged(`page ${String(pageNumber)} has no valid page size (MediaBox)`);
  }
  const crop = readBox(() => page.getCropBox()) ?? media;
  return { box: intersect(crop, media) ?? media, rotate: readRotation(page) };
}

/** pdf-lib follows /Parent recursively without a loop check; a loop would overflow the stack. */
function assertParentChainEnds(leaf: PDFPageLeaf, pageNumber: number): void {
  const seen = new Set<PDFDict>();
  for (let node: PDFDict | undefined = leaf; node; node = node.lookupMaybe(PDFName.of('Parent'), PDFDict)) {
    if (seen.has(node) || seen.size > MAX_TREE_DEPTH) {
      throw rejected.damaged(`the /Parent links of page ${String(pageNumber)} form a loop`);
    }
    seen.add(node);
  }
}

/** A box from pdf-lib, normalised to positive width/height; undefined when absent or malformed. */
function readBox(get: () => PageBox): PageBox | undefined {
  let raw: PageBox;
  try {
    raw = get();
  } catch {
    return undefined;
  }
  const { x, y, width, height } = raw;
  if (![x, y, width, height].every(Number.isFinite)) return undefined;
  // Rectangles may name any two opposite corners, so width/height can come out negative.
  return { x: Math.min(x, x + width), y: Math.min(y, y + height), width: Math.abs(width), height: Math.abs(height) };
}

/** The crop box clipped to the media box; undefined when they do not overlap (viewers then show the media box). */
function intersect(a: PageBox, b: PageBox): PageBox | undefined {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const width = Math.min(a.x + a.width, b.x + b.width) - x;
  const height = Math.min(a.y + a.height, b.y + b.height) - y;
  return width > 0 && height > 0 ? { x, y, width, height } : undefined;
}

function readRotation(page: PDFPage): PdfPageInfo['rotate'] {
  let angle: number;
  try {
    angle = toDegrees(page.getRotation());
  } catch {
    return 0; // /Rotate of the wrong type: viewers ignore it
  }
  return normaliseRotation(angle);
}

/** -90 -> 270, 450 -> 90; a /Rotate that is not a multiple of 90 is ignored (0), as pdf.js does. */
function normaliseRotation(angle: number): PdfPageInfo['rotate'] {
  if (!Number.isInteger(angle) || angle % 90 !== 0) return 0;
  const turned = ((angle % 360) + 360) % 360;
  return turned === 90 || turned === 180 || turned === 270 ? turned : 0;
}
