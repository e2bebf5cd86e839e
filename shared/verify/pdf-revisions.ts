/**
 * One pdf-lib parse of a signed PDF that also gives its earlier revisions. pdf-lib parses a file front to back, each
 * later definition of an object replacing the earlier, so the document as it was at a revision's end is what the parse
 * had assigned when it got there: the same objects (an unchanged object of two revisions is one object, compared
 * without reading it), without parsing that prefix of the file again (decision 54).
 */
import { PDFContext, PDFDict, PDFName, PDFParser, PDFRef, type PDFDocument, type PDFObject } from 'pdf-lib';
import { documentOf } from './verify-pdf.ts';

/** What was parsed when a section of the file (objects, then an xref table, a trailer, startxref) began. */
interface Section {
  assigned: number;
  trailer: PDFContext['trailerInfo'];
}

export interface Revisions {
  final: PDFDocument;
  /**
   * The document as it was at `end` (a revision's end: where a section of the file begins), as loading the first `end`
   * bytes would give it; null when this parse cannot tell that exactly (`end` inside a section, or an object pdf-lib
   * had to recover), and then the prefix is loaded on its own.
   */
  at(end: number): PDFDocument | null;
}

interface ParserInternals {
  bytes: { slice(start: number, end: number): Uint8Array; offset(): number };
  context: PDFContext;
  parseDocumentSection(): Promise<void>;
  tryToParseInvalidIndirectObject(): PDFRef;
}

/** PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false }), with stream data as views of `bytes` and no pause every 100 objects. */
export async function loadRevisions(bytes: Uint8Array): Promise<Revisions> {
  const parser = PDFParser.forBytesWithOptions(bytes, Infinity, false);
  const internals = parser as unknown as ParserInternals;
  internals.bytes.slice = (start, end) => bytes.subarray(start, end);
  const { context } = internals;
  const assigned: [PDFRef, PDFObject][] = [];
  const sections = new Map<number, Section>(); // by the offset where each began
  let exact = true;
  const assign = context.assign.bind(context);
  context.assign = (ref, object) => { assigned.push([ref, object]); assign(ref, object); };
  const section = internals.parseDocumentSection.bind(parser);
  internals.parseDocumentSection = () => {
    sections.set(internals.bytes.offset(), { assigned: assigned.length, trailer: { ...context.trailerInfo } });
    return section();
  };
  const invalid = internals.tryToParseInvalidIndirectObject.bind(parser);
  // A recovered object was read past where the parse resumed: a prefix could read it differently.
  internals.tryToParseInvalidIndirectObject = () => { exact = false; return invalid(); };
  await parser.parseDocument();
  const final = documentOf(context);
  return {
    final,
    at: (end) => {
      if (end === bytes.length) return final;
      const start = exact ? sections.get(end) : undefined;
      return start ? revisionAt(assigned, start) : null;
    },
  };
}

/** What pdf-lib's parse of the prefix ends with: the objects assigned by then, its trailer, the root recovered, no 0 0 R. */
function revisionAt(assigned: [PDFRef, PDFObject][], section: Section): PDFDocument {
  const context = PDFContext.create();
  for (const [ref, object] of assigned.slice(0, section.assigned)) context.assign(ref, object);
  context.trailerInfo = { ...section.trailer };
  // Looked up in this revision: a dictionary's own lookup resolves through the whole file's parse.
  const isCatalog = (object: PDFObject | undefined) => object instanceof PDFDict && context.lookup(object.get(PDFName.of('Type'))) === PDFName.of('Catalog');
  if (!isCatalog(context.lookup(context.trailerInfo.Root))) {
    for (const [ref, object] of context.enumerateIndirectObjects()) if (isCatalog(object)) context.trailerInfo.Root = ref;
  }
  if (context.lookup(PDFRef.of(0))) context.delete(PDFRef.of(0));
  return documentOf(context);
}
