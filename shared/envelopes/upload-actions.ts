import type { TextIndex } from '#shared/pdf/text-anchors.ts';
import { PdfRefused } from '#shared/pdf/pdf-limits.ts';
import type { ApplicationRepository } from '#shared/ports/repositories.ts';
import { addDocument, assertDocumentLimits, named } from './envelope-documents.ts';
import { createEnvelope as newEnvelope, requireDraft, type NewEnvelopeInput } from './envelope.ts';
import { PayloadTooLarge, ValidationError, type FieldErrors } from '../kernel/errors.ts';
import type { CreateEnvelopeInput, UploadInput } from './envelope-inputs.ts';
import { MAX_UPLOAD_BYTES, originals, type Document, type Envelope, type PageGeometry, type RequestMeta, type TenantSettings } from '../kernel/model.ts';
import { originalKey } from './blob-staging.ts';
import { withStagedBlobs, type BlobToStage } from './blob-actions.ts';
import { commitChange, contextOf, loadEnvelope, mutateEnvelope, type CoreDeps, type Carriers } from '../signing/signing-context.ts';
import type { EnvelopeDeps } from './envelope-actions.ts';
import { pagesBlob, pagesKeyOf } from './page-actions.ts';
import { placementsOf } from './placement-actions.ts';
import { tenantForEnvelope } from '../console/branding.ts';

/** The upload use cases also read the application, for its active-content setting. */
export type UploadDeps = CoreDeps & Pick<Carriers, 'blobs'> & { applications: Pick<ApplicationRepository, 'get'> };

/**
 * Everything that takes PDF bytes in (a create with documents, one more document): the only use cases that inspect a
 * PDF and index its text, so only their functions bundle pdf-lib and pdf.js.
 */

/** What an upload is checked against: the application's setting, and the documents it joins (for their limits). */
export interface IntakePolicy {
  allowActiveContent: boolean;
  others: readonly Pick<Document, 'sizeBytes' | 'pageCount'>[];
}

/** Whether the application accepts PDFs with JavaScript or launch actions (off unless its record says so). */
export async function allowsActiveContent(deps: { applications: Pick<ApplicationRepository, 'get'> }, appId: string): Promise<boolean> {
  return (await deps.applications.get(appId))?.allowActiveContent === true;
}

/** A checked upload: the document record to commit, the blobs to stage for it (the PDF, its text index and pages), its index and pages. */
export interface CheckedOriginal {
  document: Document;
  blobs: BlobToStage[];
  index: TextIndex;
  pages: PageGeometry[];
}

/**
 * Checks an uploaded PDF (size, structure, encryption, permissions) and indexes its text once, for anchor placement
 * (decision 17): the index is stored beside the PDF, so placing a field by an anchor later is a lookup. `path`
 * names the upload in a 400; `order` is its position among the envelope's documents.
 */
export async function checkOriginal(upload: UploadInput, ids: { envelopeId: string; documentId: string; now: Date; order: number }, path: string, policy: IntakePolicy = { allowActiveContent: false, others: [] }): Promise<CheckedOriginal> {
  const { bytes } = upload;
  if (bytes.byteLength > MAX_UPLOAD_BYTES) throw new PayloadTooLarge('The uploaded file is larger than 25 MB');
  // The PDF readers load here, on the first upload: the routes that only share this module never evaluate them.
  const [{ inspectPdf }, { extractTextIndex }] = await Promise.all([import('#shared/pdf/inspect.ts'), import('#shared/pdf/text-extraction.ts')]);
  const inspection = await inspectPdf(bytes, { allowActiveContent: policy.allowActiveContent });
  if (!inspection.ok) throw new ValidationError(inspection.message, { [path]: [inspection.message] }, inspection.reason);
  const { info } = inspection;
  // Before the text is read: the envelope's page limit needs only the count.
  assertDocumentLimits([...policy.others, { sizeBytes: info.sizeBytes, pageCount: info.pageCount }], path);
  const blobKey = originalKey(ids.envelopeId, ids.documentId);
  const textIndexKey = blobKey.replace(/\.pdf$/, '.text.json');
  const pagesKey = pagesKeyOf(blobKey);
  const index = await extractTextIndex(inspection.checked).catch((err: unknown) => {
    if (err instanceof PdfRefused) throw new ValidationError(err.message, { [path]: [err.message] }, err.reason);
    throw err;
  });
  const document = named({
    id: ids.documentId, kind: 'original', mimeType: 'application/pdf', sha256: info.sha256, pageCount: info.pageCount,
    sizeBytes: info.sizeBytes, blobKey, textIndexKey, pagesKey, createdAt: ids.now.toISOString(), retentionUntil: null, purgeStatus: 'active',
  }, ids.order, upload.filename);
  const pages = info.pages.map((p) => ({ box: p.box, rotate: p.rotate }));
  const json = new TextEncoder().encode(JSON.stringify(index));
  const blobs = [{ key: blobKey, bytes, contentType: 'application/pdf' }, { key: textIndexKey, bytes: json, contentType: 'application/json' }, pagesBlob(pagesKey, pages)];
  return { document, index, pages, blobs };
}

/**
 * One more document on a draft (the raw upload, or a completed presigned upload); `filename` names it. A completed
 * upload brings its own `documentId` (its upload id): its blobs then go under the stage's own key space, so two
 * completes of one upload racing never share a key, and the loser finds the winner's document and answers it.
 */
export async function uploadDocument(deps: UploadDeps, appId: string, rawId: string, upload: UploadInput, meta: RequestMeta, documentId: string | null = null): Promise<Document> {
  const envelope = await loadEnvelope(deps, appId, rawId);
  requireDraft(envelope, 'upload a document'); // before storing anything
  const order = originals(envelope).length + 1;
  const policy = { allowActiveContent: await allowsActiveContent(deps, appId), others: originals(envelope) };
  const { document, blobs, pages } = await checkOriginal(upload, { envelopeId: envelope.id, documentId: documentId ?? deps.ids.next(), now: deps.clock.now(), order }, 'body', policy);
  const keyed = (stageId: string) => (key: string) => (documentId === null ? key : key.replace(`/${document.id}.`, `/${stageId}/${document.id}.`));
  const { envelope: after } = await withStagedBlobs(deps, envelope.id, (stageId) => blobs.map((b) => ({ ...b, key: keyed(stageId)(b.key) })), (stage) => mutateEnvelope(deps, appId, rawId, meta, (latest, ctx) => {
    if (latest.documents.some((d) => d.id === document.id)) return { change: null, result: null }; // a racing complete won
    const key = keyed(stage.id);
    const positioned = {
      ...document, blobKey: key(document.blobKey), textIndexKey: document.textIndexKey && key(document.textIndexKey), pagesKey: document.pagesKey && key(document.pagesKey),
      order: originals(latest).length + 1, name: upload.filename?.trim() ? document.name : `document-${String(originals(latest).length + 1)}.pdf`,
    };
    return { change: { ...addDocument(latest, positioned, pages, ctx), releases: [stage.id] }, result: null };
  }), (result) => result.change !== null);
  return after.documents.find((d) => d.id === document.id) ?? document;
}

/**
 * The request's fields with signers resolved to indexes (by index or email) and anchors resolved to placements in
 * the uploaded documents (one field per occurrence).
 */
function resolveFields(request: CreateEnvelopeInput, tenant: TenantSettings, documents: readonly CheckedOriginal[]): NewEnvelopeInput['fields'] {
  const errors: FieldErrors = {};
  const fields = request.fields.flatMap((field, i) => {
    const { signerIndex, signerEmail, documentIndex = 0, origin, type, w, h, required, label, value, readOnly, showIf, validation, accept, maxBytes } = field;
    const index = signerIndex ?? request.signers.findIndex((s) => s.email.toLowerCase() === signerEmail?.toLowerCase());
    if (index < 0 || index >= request.signers.length) {
      const key = signerIndex === undefined ? 'signerEmail' : 'signerIndex';
      errors[`fields[${String(i)}].${key}`] = ['does not name a signer of this request'];
    }
    if (documents.length > 0 && documentIndex >= documents.length) {
      errors[`fields[${String(i)}].documentIndex`] = [`does not name a document of this request (it has ${String(documents.length)})`];
      return [];
    }
    const document = documents[documentIndex];
    return placementsOf(field, document, `fields[${String(i)}]`).map(({ page = 1, x = 0, y = 0, origin: placedOrigin }) => ({
      type, page, x, y, w, h, required, label: label ?? null, value: value ?? null, readOnly: readOnly ?? false, showIf: showIf ?? null, validation: validation ?? null,
      ...(accept ? { accept } : {}), ...(maxBytes ? { maxBytes } : {}),
      signerIndex: index, documentIndex, origin: placedOrigin ?? origin ?? request.fieldOrigin ?? tenant.fieldOrigin,
    }));
  });
  if (Object.keys(errors).length > 0) throw new ValidationError('Some fields name no signer or document', errors);
  return fields;
}

/**
 * A new draft: with its documents (a multipart create, several `file` parts in order) or without (a JSON create; the
 * documents are uploaded afterwards). The PDFs and their text indexes are staged, then named by the commit.
 */
export async function createEnvelope(deps: EnvelopeDeps & UploadDeps, appId: string, request: CreateEnvelopeInput, files: readonly UploadInput[], meta: RequestMeta): Promise<Envelope> {
  const { settings: tenant, branding } = await tenantForEnvelope(deps, appId, request.tenantId);
  const ctx = contextOf(deps, meta);
  const id = deps.ids.next();
  assertDocumentLimits(files.map((f) => ({ sizeBytes: f.bytes.byteLength })));
  const allowActiveContent = files.length > 0 && (await allowsActiveContent(deps, appId));
  const checked: CheckedOriginal[] = [];
  for (const [i, file] of files.entries()) {
    const policy = { allowActiveContent, others: checked.map((c) => c.document) };
    checked.push(await checkOriginal(file, { envelopeId: id, documentId: deps.ids.next(), now: ctx.now, order: i + 1 }, files.length > 1 ? `file[${String(i)}]` : 'file', policy));
  }
  const created = newEnvelope({
    id, appId, tenantId: request.tenantId, subject: request.subject, createdBy: request.createdBy,
    expiresInDays: request.expiresInDays ?? tenant.defaultExpiresInDays, retentionDays: tenant.retentionDays, fieldOrigin: request.fieldOrigin ?? tenant.fieldOrigin,
    locale: tenant.defaultLocale, signers: request.signers, fields: resolveFields(request, tenant, checked), documents: checked.map((c) => c.document),
    pages: new Map(checked.map((c) => [c.document.id, c.pages])),
    reminders: request.reminders === undefined ? tenant.defaultReminders ?? null : request.reminders, cc: request.cc ?? [],
    allowReassign: request.allowReassign ?? false,
  }, ctx);
  // Who asks and under which branding: kept with the envelope, so its emails, pages and certificate agree
  const change = { ...created, after: { ...created.after, branding, sender: request.sender ?? null } };
  if (checked.length === 0) {
    await commitChange(deps, change);
    return change.after;
  }
  await withStagedBlobs(deps, id, () => checked.flatMap((c) => c.blobs), (stage) => commitChange(deps, { ...change, releases: [stage.id] }));
  return change.after;
}

