/**
 * Signers' attachments in the sealed file: each an embedded file (ISO 32000-1 §7.11.4) in the document's
 * /EmbeddedFiles name tree and an associated file of the document (/AF, relationship Supplement, as PDF/A-3 and PDF 2.0
 * describe), written in the seal's incremental update before the signature, so the seal's byte range covers them.
 */
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFString, type PDFDocument, type PDFObject, type PDFRef } from 'pdf-lib';

export interface AttachedFile {
  name: string;
  bytes: Uint8Array;
  mimeType: string;
  /** When the signer added it. */
  createdAt: Date;
  description: string;
}

/** The name as plain ASCII, for readers that only look at /F (UF carries the whole name). */
const asciiName = (name: string) => name.replace(/[^\x20-\x7e]/g, '_') || 'attachment';

function dictOf(doc: PDFDocument, holder: PDFDict, key: string): PDFDict {
  const existing = holder.lookupMaybe(PDFName.of(key), PDFDict);
  if (existing) return existing;
  const created = doc.context.obj({});
  holder.set(PDFName.of(key), created);
  return created;
}

function arrayOf(doc: PDFDocument, holder: PDFDict, key: string): PDFArray {
  const existing = holder.lookupMaybe(PDFName.of(key), PDFArray);
  if (existing) return existing;
  const created = doc.context.obj([]);
  holder.set(PDFName.of(key), created);
  return created;
}

const keyText = (key: PDFObject | undefined) => (key instanceof PDFString || key instanceof PDFHexString ? key.decodeText() : '');

/** Adds `entries` (key, file specification) to the document's /EmbeddedFiles tree, keeping a leaf's keys in order. */
function addToNameTree(doc: PDFDocument, entries: [string, PDFRef][]): void {
  const tree = dictOf(doc, dictOf(doc, doc.catalog, 'Names'), 'EmbeddedFiles');
  const kids = tree.lookupMaybe(PDFName.of('Kids'), PDFArray);
  if (kids) {
    // A tree with intermediate nodes: one more leaf of our own, its limits set, beside the others.
    const keys = entries.map(([key]) => key).sort();
    const leaf = doc.context.obj({ Names: entries.flatMap(([key, ref]) => [PDFString.of(key), ref]), Limits: [PDFString.of(keys[0] ?? ''), PDFString.of(keys.at(-1) ?? '')] });
    kids.push(doc.context.register(leaf));
    return;
  }
  const names = arrayOf(doc, tree, 'Names');
  const pairs: [string, PDFObject, PDFObject][] = [];
  for (let i = 0; i + 1 < names.size(); i += 2) pairs.push([keyText(names.get(i)), names.get(i), names.get(i + 1)]);
  for (const [key, ref] of entries) pairs.push([key, PDFString.of(key), ref]);
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  tree.set(PDFName.of('Names'), doc.context.obj(pairs.flatMap(([, key, value]) => [key, value])));
}

/** Embeds every file as an associated file of the document (Supplement); nothing changes when there are none. */
export function embedAttachments(doc: PDFDocument, files: readonly AttachedFile[]): void {
  if (files.length === 0) return;
  const { context } = doc;
  const entries = files.map((file, i): [string, PDFRef] => {
    const stream = context.flateStream(file.bytes, {
      Type: 'EmbeddedFile', Subtype: file.mimeType,
      Params: { Size: file.bytes.byteLength, CreationDate: PDFString.fromDate(file.createdAt), ModDate: PDFString.fromDate(file.createdAt) },
    });
    const stored = context.register(stream);
    const spec = context.obj({
      Type: 'Filespec', F: PDFString.of(asciiName(file.name)), UF: PDFHexString.fromText(file.name), EF: { F: stored, UF: stored },
      Desc: PDFHexString.fromText(file.description), AFRelationship: 'Supplement',
    });
    return [`Signer attachment ${String(i + 1).padStart(2, '0')}: ${asciiName(file.name)}`, context.register(spec)];
  });
  addToNameTree(doc, entries);
  const associated = arrayOf(doc, doc.catalog, 'AF');
  for (const [, ref] of entries) associated.push(ref);
}
