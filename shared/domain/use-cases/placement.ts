import { findAnchor, type TextIndex } from '#pdf/anchors.ts';
import { ValidationError } from '../errors.ts';
import { addFields } from '../fields.ts';
import type { AddFieldInput, FieldPlacement } from '../inputs.ts';
import { originals, type Document, type Field, type RequestMeta } from '../model.ts';
import { mutateEnvelope, type CoreDeps } from './context.ts';

/** A document's stored text index (for anchors placed after its upload). */
export async function textIndexOf(deps: Pick<CoreDeps, 'blobs'>, document: Document): Promise<TextIndex> {
  const stored = document.textIndexKey ? await deps.blobs.get(document.textIndexKey) : undefined;
  if (!stored) throw new ValidationError('This document has no text index (uploaded before anchors existed): place its fields by coordinates', { anchor: ['is not available for this document'] });
  return JSON.parse(new TextDecoder().decode(stored)) as TextIndex;
}

/**
 * The placements a field stands for: itself when it has coordinates; one per occurrence of its anchor (or the first)
 * otherwise, bottom-left origin, in the document's displayed coordinates (ADDITIONS A3). An anchor that is not
 * found is a 400 naming it, unless the field says `ignoreIfMissing` (then it places nothing).
 */
export function placementsOf<F extends FieldPlacement>(field: F, document: Document | undefined, index: TextIndex | undefined, path: string): F[] {
  if (!field.anchor) return [field];
  const { anchor } = field;
  const at = path ? `${path}.anchor` : 'anchor';
  if (!document || !index) throw ValidationError.at(at, 'placing by anchor needs the document: upload it first, or give page, x and y');
  const found = findAnchor(index, document.pages, anchor);
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
export async function addEnvelopeFields(deps: CoreDeps, appId: string, rawId: string, input: AddFieldInput, meta: RequestMeta): Promise<Field[]> {
  const { envelope: draft } = await mutateEnvelope(deps, appId, rawId, meta, () => ({ change: null, result: null }));
  const documents = originals(draft);
  const document = input.documentId === null ? (documents.length === 1 ? documents[0] : undefined) : documents.find((d) => d.id === input.documentId);
  if (input.anchor && input.documentId !== null && !document) throw ValidationError.at('documentId', 'is not a document of this envelope');
  if (input.anchor && !document && documents.length > 1) throw ValidationError.at('documentId', 'is required: name the document the anchor is in');
  const index = input.anchor && document ? await textIndexOf(deps, document) : undefined;
  const placements = placementsOf(input, document, index, '').map((p) => ({
    documentId: input.documentId ?? document?.id ?? null, signerId: input.signerId, type: p.type, page: p.page ?? 1, x: p.x ?? 0, y: p.y ?? 0, w: p.w, h: p.h,
    required: p.required, origin: p.origin ?? draft.fieldOrigin, label: p.label ?? null, value: p.value ?? null, readOnly: p.readOnly ?? false,
  }));
  if (placements.length === 0) return [];
  const { result } = await mutateEnvelope(deps, appId, rawId, meta, (envelope, ctx) => {
    const added = addFields(envelope, placements, ctx);
    return { change: added.change, result: added.fields };
  });
  return result;
}

