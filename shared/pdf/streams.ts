/**
 * One pass over every object of a parsed PDF, before any text is read from it:
 *
 * - the decoded size of every stream a parser may inflate, each held to MAX_STREAM_BYTES and all together to
 *   MAX_DECODED_BYTES (a decompression bomb is refused here, in bounded memory, instead of inflating inside pdf.js). Images are not counted when
 *   nothing but an image can be made of them (their dictionary says /Subtype /Image and every reference to them is
 *   from an /XObject resource, a mask or a thumbnail): pdf.js paints them, and never decodes them to read text, so a
 *   25 MB file of compressed scans is not refused for pixels nobody here decodes;
 * - active content: JavaScript (a /JS entry, a JavaScript action, the /JavaScript name tree) and launch actions,
 *   refused unless the application allows them, since sealing keeps them in the signed file.
 */
import { PDFArray, PDFDict, PDFName, PDFRawStream, PDFRef, PDFStream, type PDFContext, type PDFObject } from 'pdf-lib';
import { decodedSize, filtersOf, IMAGE_FILTERS, OverCap } from './decode.ts';
import { MAX_DECODED_BYTES, MAX_STREAM_BYTES, refused } from './pdf-limits.ts';

export interface StreamScanOptions {
  allowActiveContent: boolean;
  maxDecodedBytes?: number;
}

/** Keys whose (direct or referenced) value can only be drawn as an image. */
const IMAGE_KEYS = new Set(['SMask', 'Mask', 'Thumb']);
/** The action types that run something: scripts and other programs. */
const ACTIVE_ACTIONS = new Map([['JavaScript', 'JavaScript'], ['Launch', 'a launch action (it starts a program)']]);

/** Refuses the document (see the module comment); `decodedBytes` is what its counted streams inflate to. */
export async function scanStreams(context: PDFContext, { allowActiveContent, maxDecodedBytes = MAX_DECODED_BYTES }: StreamScanOptions): Promise<{ decodedBytes: number }> {
  const roles = referenceRoles(context);
  if (!allowActiveContent) findActiveContent(context);
  let total = 0;
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    const onlyImage = roles.get(ref) !== 'other';
    const isImage = object.dict.lookup(PDFName.of('Subtype')) === PDFName.of('Image');
    if (isImage && onlyImage) continue;
    // pdf.js would run an image decoder on a stream it reads as content or a font: nothing bounds what that makes.
    if (filtersOf(object).some((f) => IMAGE_FILTERS.has(f)) && !onlyImage) {
      throw refused.damaged(`object ${String(ref.objectNumber)} is read as page content or a font but is compressed as an image`);
    }
    const cap = Math.min(MAX_STREAM_BYTES, maxDecodedBytes - total);
    try {
      total += await decodedSize(object, cap);
    } catch (err) {
      if (!(err instanceof OverCap)) throw err;
      throw cap === MAX_STREAM_BYTES ? refused.decoded(MAX_STREAM_BYTES, 'stream') : refused.decoded(MAX_DECODED_BYTES, 'document');
    }
  }
  return { decodedBytes: total };
}

/**
 * For each referenced object, whether every reference to it can only make it an image ('image') or some reference
 * may have it read as content, a font, a form... ('other'). An unreferenced object is absent: no parser reaches it.
 */
function referenceRoles(context: PDFContext): Map<PDFRef, 'image' | 'other'> {
  const roles = new Map<PDFRef, 'image' | 'other'>();
  const mark = (ref: PDFRef, role: 'image' | 'other') => {
    if (roles.get(ref) !== 'other') roles.set(ref, role);
  };
  const xobjectDicts = new Set<PDFDict>();
  // First the /XObject dictionaries (one may be an indirect object met before the reference that says what it is),
  // then the roles, a reference listed in one of them being an image's if it is one at all.
  const visit = (value: PDFObject, key: string | undefined, inXObjects: boolean, marking: boolean): void => {
    if (value instanceof PDFRef) {
      if (marking) mark(value, inXObjects || (key !== undefined && IMAGE_KEYS.has(key)) ? 'image' : 'other');
      else if (key === 'XObject') {
        const target = context.lookup(value);
        if (target instanceof PDFDict) xobjectDicts.add(target);
      }
      return;
    }
    const dict = value instanceof PDFStream ? value.dict : value instanceof PDFDict ? value : undefined;
    if (dict) {
      const listsXObjects = (key === 'XObject' && value instanceof PDFDict) || xobjectDicts.has(dict);
      for (const [name, entry] of dict.entries()) visit(entry, name.decodeText(), listsXObjects, marking);
    } else if (value instanceof PDFArray) {
      for (const item of value.asArray()) visit(item, key, false, marking);
    }
  };
  for (const marking of [false, true]) {
    for (const [, object] of context.enumerateIndirectObjects()) visit(object, undefined, false, marking);
  }
  return roles;
}

/** Throws `active_content` for the first JavaScript or launch action, wherever it is. */
function findActiveContent(context: PDFContext): void {
  const catalog = context.lookup(context.trailerInfo.Root);
  const names = catalog instanceof PDFDict ? catalog.lookup(PDFName.of('Names')) : undefined;
  if (names instanceof PDFDict && names.has(PDFName.of('JavaScript'))) throw refused.activeContent('JavaScript (a document-level script)');
  const visit = (value: PDFObject): void => {
    const dict = value instanceof PDFStream ? value.dict : value instanceof PDFDict ? value : undefined;
    if (dict) {
      if (dict.has(PDFName.of('JS'))) throw refused.activeContent('JavaScript');
      const type = dict.get(PDFName.of('S'));
      const active = type instanceof PDFName ? ACTIVE_ACTIONS.get(type.decodeText()) : undefined;
      if (active) throw refused.activeContent(active);
      for (const [, entry] of dict.entries()) visit(entry);
    } else if (value instanceof PDFArray) {
      for (const item of value.asArray()) visit(item);
    }
  };
  for (const [, object] of context.enumerateIndirectObjects()) visit(object);
}
