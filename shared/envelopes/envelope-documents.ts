import type { AuditDraft } from '../kernel/audit-chain.ts';
import { changeOf, requireDraft, type Ctx, type EnvelopeChange } from '../kernel/change.ts';
import { InvalidState, NotFound, ValidationError } from '../kernel/errors.ts';
import { fieldErrors } from './fields.ts';
import { MAX_DOCUMENTS, MAX_ENVELOPE_PAGES, MAX_TOTAL_DOCUMENT_BYTES, originals, type Document, type Envelope, type PageGeometry } from '../kernel/model.ts';
import type { JobOutboxItem } from '../notices/outbox.ts';
import { storedKeys } from './page-geometry.ts';
import { assertNoErrors } from './field-placement.ts';

const documentEvent = (event: AuditDraft['event'], document: Document, ctx: Ctx, extra: Record<string, unknown> = {}): AuditDraft => ({
  event, actor: ctx.meta.actor ?? 'system', ip: ctx.meta.ip, userAgent: ctx.meta.userAgent,
  detail: { documentId: document.id, name: document.name ?? null, sha256: document.sha256, pageCount: document.pageCount, sizeBytes: document.sizeBytes, ...extra },
});

/**
 * Refuses a set of originals beyond the envelope's limits (ten documents, 100 MB together; decision 9) or, once their pages are counted,
 * beyond MAX_ENVELOPE_PAGES pages together.
 */
export function assertDocumentLimits(documents: readonly (Pick<Document, 'sizeBytes'> & { pageCount?: number })[], path = 'file'): void {
  if (documents.length > MAX_DOCUMENTS) throw ValidationError.at(path, `an envelope holds at most ${String(MAX_DOCUMENTS)} documents`);
  const total = documents.reduce((sum, d) => sum + d.sizeBytes, 0);
  if (total > MAX_TOTAL_DOCUMENT_BYTES) throw ValidationError.at(path, `the documents of an envelope may be at most ${String(MAX_TOTAL_DOCUMENT_BYTES / 1024 / 1024)} MB together`);
  const pages = documents.reduce((sum, d) => sum + (d.pageCount ?? 0), 0);
  if (pages > MAX_ENVELOPE_PAGES) {
    throw ValidationError.at(path, `the documents together have ${String(pages)} pages; an envelope or template may have at most ${String(MAX_ENVELOPE_PAGES)}`, 'total_page_limit');
  }
}

/** `name` and `order` for an upload: its filename, else `document-N.pdf` with N its position (decision 9). */
export function named(document: Document, order: number, filename: string | null): Document {
  return { ...document, order, name: filename?.trim() ? filename.trim() : `document-${String(order)}.pdf` };
}

/**
 * One more original on a draft, after the others. Fields placed before any document existed (a JSON create) go on the
 * first one, and must fit its `pages`.
 */
export function addDocument(envelope: Envelope, document: Document, pages: readonly PageGeometry[], ctx: Ctx): EnvelopeChange {
  requireDraft(envelope, 'add a document');
  const existing = originals(envelope);
  if (existing.length >= MAX_DOCUMENTS) throw new InvalidState(`An envelope holds at most ${String(MAX_DOCUMENTS)} documents`);
  assertDocumentLimits([...existing, document], 'body');
  const fields = envelope.fields.map((f) => (f.documentId === null ? { ...f, documentId: document.id } : f));
  const documents = [...envelope.documents, document];
  // Only the fields that move onto it are checked again: the others were checked against their own documents.
  const moved = fields.map((f, i) => ({ f, i })).filter(({ i }) => envelope.fields[i]?.documentId === null);
  const errors = fieldErrors(moved.map(({ f }) => f), { signers: envelope.signers, documents }, new Map([[document.id, pages]]), (j) => `fields[${String(moved[j]?.i ?? j)}]`);
  assertNoErrors(errors, 'Fields already placed on this envelope do not fit the uploaded document');
  const first = originals({ documents })[0];
  const after = { ...envelope, documents, fields, documentHashOriginal: first?.sha256 ?? null };
  return changeOf(envelope, after, [documentEvent('document.uploaded', document, ctx, { order: document.order ?? null })], [], ctx);
}

/**
 * Removes an original from a draft with the fields on it; the others keep their order, closing the gap. Its stored
 * files are deleted by a job once the change stands.
 */
export function removeDocument(envelope: Envelope, documentId: string, ctx: Ctx): EnvelopeChange {
  requireDraft(envelope, 'remove a document');
  const document = originals(envelope).find((d) => d.id === documentId);
  if (!document) throw new NotFound('Document not found on this envelope');
  const kept = originals(envelope).filter((d) => d.id !== documentId).map((d, i) => ({ ...d, order: i + 1 }));
  const after: Envelope = {
    ...envelope, documents: kept, fields: envelope.fields.filter((f) => f.documentId !== documentId), documentHashOriginal: kept[0]?.sha256 ?? null,
  };
  const removedFields = envelope.fields.length - after.fields.length;
  const keys = storedKeys(document);
  const cleanup: JobOutboxItem = { kind: 'job', id: ctx.nextId(), envelopeId: envelope.id, createdAt: ctx.now.toISOString(), job: { type: 'blobs.delete', envelopeId: envelope.id, keys } };
  return changeOf(envelope, after, [documentEvent('document.removed', document, ctx, { fieldsRemoved: removedFields })], [cleanup], ctx);
}
