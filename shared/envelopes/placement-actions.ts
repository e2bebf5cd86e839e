import { findAnchor, type TextIndex } from '#shared/pdf/text-anchors.ts';
import { ValidationError } from '../kernel/errors.ts';
import { addFields, targetDocumentId } from './fields.ts';
import type { AddFieldInput, FieldPlacement } from './envelope-inputs.ts';
import { originals, type Document, type Field, type PageGeometry, type RequestMeta } from '../kernel/model.ts';
import { pagesOf } from './page-geometry.ts';
import { mutateEnvelope, type CoreDeps, type Carriers } from '../signing/signing-context.ts';
import { pageReader } from './page-actions.ts';

/** A document's stored text index (for anchors placed after its upload). */
export async function textIndexOf(deps: Pick<CoreDeps & Carriers, 'blobs'>, document: Document): Promise<TextIndex> {
  const stored = document.textIndexKey ? await deps.blobs.get(document.textIndexKey) : undefined;
  if (!stored) throw new ValidationError('This document has no text index (uploaded before anchors existed): place its fields by coordinates', { anchor: ['is not available for this document'] });
  return JSON.parse(new TextDecoder().decode(stored)) as TextIndex;
}

/** The document a field is placed on, with its pages and (for anchors) its text index. */
export interface PlacementTarget {
  document: Document;
  pages: readonly PageGeometry[];
  index: TextIndex | undefined;
}

/**
 * The placements a field stands for: itself when it has coordinates; one per occurrence of its anchor (or the first)
 * otherwise, bottom-left origin, in the document's displayed coordinates (decision 17). An anchor that is not
 * found is a 400 naming it, unless the field says `ignoreIfMissing` (then it places nothing).
 */
export function placementsOf<F extends FieldPlacement>(field: F, target: PlacementTarget | undefined, path: string): F[] {
  if (!field.anchor) return [field];
  const { anchor } = field;
  const at = path ? `${path}.anchor` : 'anchor';
  if (!target?.index) throw ValidationError.at(at, 'placing by anchor needs the document: upload it first, or give page, x and y');
  const { document, index } = target;
  const found = findAnchor(index, [...target.pages], anchor);
  if (found.length === 0 && !anchor.ignoreIfMissing) {
    const truncated = index.truncated ? ' (only its first pages are indexed: the document has more text than the index keeps)' : '';
    throw ValidationError.at(at, `the text "${anchor.text}" is not in ${document.name ?? 'the document'}${truncated}`);
  }
  return found.map(({ page, x, y }) => ({ ...field, anchor: undefined, page, x, y, origin: 'bottom-left' as const }));
}

/**
 * Places a field on a draft: by coordinates, or by an anchor in its document's stored text index, which may place
 * several (one per occurrence) or none (`ignoreIfMissing`).
 */
export async function addEnvelopeFields(deps: CoreDeps & Pick<Carriers, 'blobs'>, appId: string, rawId: string, input: AddFieldInput, meta: RequestMeta): Promise<Field[]> {
  const { envelope: draft } = await mutateEnvelope(deps, appId, rawId, meta, () => ({ change: null, result: null }));
  const documents = originals(draft);
  const document = input.documentId === null ? (documents.length === 1 ? documents[0] : undefined) : documents.find((d) => d.id === input.documentId);
  if (input.anchor && input.documentId !== null && !document) throw ValidationError.at('documentId', 'is not a document of this envelope');
  if (input.anchor && !document && documents.length > 1) throw ValidationError.at('documentId', 'is required: name the document the anchor is in');
  const read = pageReader(deps);
  const target = input.anchor && document ? { document, pages: pagesOf(await read([document]), document), index: await textIndexOf(deps, document) } : undefined;
  const placements = placementsOf(input, target, '').map((p) => ({
    documentId: input.documentId ?? document?.id ?? null, signerId: input.signerId, type: p.type, page: p.page ?? 1, x: p.x ?? 0, y: p.y ?? 0, w: p.w, h: p.h,
    required: p.required, origin: p.origin ?? draft.fieldOrigin, label: p.label ?? null, value: p.value ?? null, readOnly: p.readOnly ?? false,
    showIf: p.showIf ?? null, validation: p.validation ?? null,
    ...(p.accept ? { accept: p.accept } : {}), ...(p.maxBytes ? { maxBytes: p.maxBytes } : {}),
  }));
  if (placements.length === 0) return [];
  const { result } = await mutateEnvelope(deps, appId, rawId, meta, async (envelope, ctx) => {
    // Only the document the fields go on is read (once, however often this runs): not every page of the envelope.
    const on = new Set(placements.map((p) => targetDocumentId(envelope, p.documentId)));
    const added = addFields(envelope, placements, await read(originals(envelope).filter((d) => on.has(d.id))), ctx);
    return { change: added.change, result: added.fields };
  });
  return result;
}

