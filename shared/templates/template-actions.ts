import { attachmentSettings } from '../attachments/attachment-fields.ts';
import type { TemplateListQuery, TemplateRepository, TenantRepository } from '#shared/ports/repositories.ts';
import { ConcurrentModification, Conflict, NotFound, ValidationError } from '../kernel/errors.ts';
import { parseId } from '../kernel/ids.ts';
import type { FieldPlacement, UploadInput } from '../envelopes/envelope-inputs.ts';
import type { AuthMethod, Document, FieldOrigin } from '../kernel/model.ts';
import { storedKeys } from '../envelopes/page-geometry.ts';
import { assertDocumentLimits } from '../envelopes/envelope-documents.ts';
import { assertNoErrors } from '../envelopes/field-placement.ts';
import { assertConditions } from '../envelopes/fields.ts';
import { assertTemplate, MAX_TEMPLATE_DOCUMENTS, templateDocumentKey, templateFieldErrors, type Template, type TemplateField } from './templates.ts';
import type { CoreDeps, Carriers } from '../signing/signing-context.ts';
import { pagesKeyOf, readPages } from '../envelopes/page-actions.ts';
import { textIndexOf, placementsOf, type PlacementTarget } from '../envelopes/placement-actions.ts';
import { allowsActiveContent, checkOriginal, type CheckedOriginal, type IntakePolicy, type UploadDeps } from '../envelopes/upload-actions.ts';

export interface TemplateDeps extends UploadDeps {
  templates: TemplateRepository;
  tenants: TenantRepository;
}

export interface CreateTemplateInput {
  tenantId: string;
  name: string;
  subject: string | null;
  message: string | null;
  expiresInDays: number | null;
  fieldOrigin?: FieldOrigin | undefined;
  roles: { role: string; routingOrder: number; authMethod: AuthMethod }[];
  fields: (FieldPlacement & { role: string; documentIndex: number })[];
  /** Envelopes made from it let a signer hand their place to someone else. */
  allowReassign?: boolean | undefined;
}

export type AddTemplateFieldInput = FieldPlacement & { role: string; documentId: string | null };

/** A checked upload stored under the template's own keys (`templates/<id>/<doc>.pdf`, its text index and pages). */
async function checkTemplateDocument(upload: UploadInput, templateId: string, documentId: string, now: Date, order: number, path: string, policy: IntakePolicy): Promise<CheckedOriginal> {
  const checked = await checkOriginal(upload, { envelopeId: templateId, documentId, now, order }, path, policy);
  const blobKey = templateDocumentKey(templateId, documentId);
  const textIndexKey = blobKey.replace(/\.pdf$/, '.text.json');
  const pagesKey = pagesKeyOf(blobKey);
  const renamed = new Map([[checked.document.blobKey, blobKey], [checked.document.textIndexKey, textIndexKey], [checked.document.pagesKey, pagesKey]]);
  const rename = (key: string) => renamed.get(key) ?? key;
  return { ...checked, document: { ...checked.document, blobKey, textIndexKey, pagesKey }, blobs: checked.blobs.map((b) => ({ ...b, key: rename(b.key) })) };
}

/** The template's blobs are written before its record; a record refused deletes them (templates are few and small). */
async function storeThen(deps: Pick<CoreDeps & Carriers, 'blobs' | 'logger'>, checked: readonly CheckedOriginal[], save: () => Promise<void>): Promise<void> {
  const blobs = checked.flatMap((c) => c.blobs);
  await Promise.all(blobs.map((b) => deps.blobs.put(b.key, b.bytes, b.contentType)));
  try {
    await save();
  } catch (error) {
    await Promise.all(blobs.map((b) => deps.blobs.delete(b.key))).catch(() => undefined);
    throw error;
  }
}

function placedFields(fields: readonly (FieldPlacement & { role: string })[], documents: readonly PlacementTarget[], at: (i: number) => number, fieldOrigin: FieldOrigin, ids: () => string, path: (i: number) => string): TemplateField[] {
  return fields.flatMap((field, i) => {
    const target = documents[at(i)];
    if (!target) throw ValidationError.at(`${path(i)}.documentIndex`, `does not name a document of this template (it has ${String(documents.length)})`);
    return placementsOf(field, target, path(i)).map((p) => ({
      id: ids(), role: field.role, documentId: target.document.id, type: p.type, page: p.page ?? 1, x: p.x ?? 0, y: p.y ?? 0, w: p.w, h: p.h,
      required: p.readOnly ? false : p.required, origin: p.origin ?? fieldOrigin, label: p.label ?? null, value: p.value ?? null, readOnly: p.readOnly ?? false,
      showIf: p.showIf ?? null, validation: p.validation ?? null,
      ...attachmentSettings(p),
    }));
  });
}

/** A new template: with its documents and fields (multipart), or roles only (JSON; documents and fields follow). */
export async function createTemplate(deps: TemplateDeps, appId: string, input: CreateTemplateInput, files: readonly UploadInput[]): Promise<Template> {
  if (files.length === 0 && input.fields.length > 0) throw ValidationError.at('fields', 'need the documents: create with multipart `file` parts, or add fields after uploading');
  if (files.length > MAX_TEMPLATE_DOCUMENTS) throw ValidationError.at('file', `at most ${String(MAX_TEMPLATE_DOCUMENTS)} documents`);
  assertDocumentLimits(files.map((f) => ({ sizeBytes: f.bytes.byteLength })));
  const tenant = await deps.tenants.get(appId, input.tenantId);
  const id = deps.ids.next();
  const now = deps.clock.now();
  const allowActiveContent = files.length > 0 && (await allowsActiveContent(deps, appId));
  const checked: CheckedOriginal[] = [];
  for (const [i, file] of files.entries()) {
    const policy = { allowActiveContent, others: checked.map((c) => c.document) };
    checked.push(await checkTemplateDocument(file, id, deps.ids.next(), now, i + 1, files.length > 1 ? `file[${String(i)}]` : 'file', policy));
  }
  const fieldOrigin = input.fieldOrigin ?? tenant.fieldOrigin;
  const fields = placedFields(input.fields, checked, (i) => input.fields[i]?.documentIndex ?? 0, fieldOrigin, () => deps.ids.next(), (i) => `fields[${String(i)}]`);
  const template: Template = {
    id, appId, tenantId: input.tenantId, name: input.name, subject: input.subject, message: input.message, expiresInDays: input.expiresInDays,
    fieldOrigin, roles: input.roles, fields, documents: checked.map((c) => c.document), createdAt: now.toISOString(), version: 1,
    ...(input.allowReassign ? { allowReassign: true } : {}),
  };
  assertTemplate(template, new Map(checked.map((c) => [c.document.id, c.pages])));
  await storeThen(deps, checked, () => deps.templates.create(template));
  return template;
}

export async function readTemplate(deps: Pick<TemplateDeps, 'templates'>, appId: string, rawId: string): Promise<Template> {
  const id = parseId('tpl', rawId);
  const template = id ? await deps.templates.get(appId, id) : undefined;
  if (!template) throw new NotFound('Template not found');
  return template;
}

export function listTemplates(deps: Pick<TemplateDeps, 'templates'>, query: TemplateListQuery) {
  return deps.templates.list(query);
}

/** Deletes the template and then its documents; envelopes made from it hold their own copies. */
export async function deleteTemplate(deps: Pick<TemplateDeps, 'templates' | 'blobs' | 'logger'>, appId: string, rawId: string): Promise<void> {
  const template = await readTemplate(deps, appId, rawId);
  if (!(await deps.templates.delete(appId, template.id))) throw new NotFound('Template not found');
  const keys = template.documents.flatMap(storedKeys);
  await Promise.all(keys.map((key) => deps.blobs.delete(key))).catch((error: unknown) => {
    deps.logger.warn('template documents not deleted', { templateId: template.id, error: (error as Error).message });
  });
}

/** Saves a change to the latest template; a concurrent change is a 409 (the client retries). */
export async function saveNext(deps: Pick<TemplateDeps, 'templates'>, template: Template, next: Omit<Template, 'version'>): Promise<Template> {
  const saved = { ...next, version: template.version + 1 };
  try {
    await deps.templates.save(saved);
  } catch (error) {
    if (error instanceof ConcurrentModification) throw new Conflict('The template is being changed by another request; retry');
    throw error;
  }
  return saved;
}

/** One more document on the template (raw bytes, `?filename=`). */
export async function uploadTemplateDocument(deps: TemplateDeps, appId: string, rawId: string, upload: UploadInput): Promise<Document> {
  const template = await readTemplate(deps, appId, rawId);
  if (template.documents.length >= MAX_TEMPLATE_DOCUMENTS) throw ValidationError.at('body', `a template has at most ${String(MAX_TEMPLATE_DOCUMENTS)} documents`);
  assertDocumentLimits([...template.documents, { sizeBytes: upload.bytes.byteLength }]);
  const policy = { allowActiveContent: await allowsActiveContent(deps, appId), others: template.documents };
  const checked = await checkTemplateDocument(upload, template.id, deps.ids.next(), deps.clock.now(), template.documents.length + 1, 'body', policy);
  await storeThen(deps, [checked], async () => { await saveNext(deps, template, { ...template, documents: [...template.documents, checked.document] }); });
  return checked.document;
}

/** Places a field (or one per anchor occurrence) on one of the template's documents, bound to a role. */
export async function addTemplateFields(deps: TemplateDeps, appId: string, rawId: string, input: AddTemplateFieldInput): Promise<TemplateField[]> {
  const template = await readTemplate(deps, appId, rawId);
  const documentId = input.documentId === null ? null : parseId('doc', input.documentId);
  const document = documentId === null && input.documentId === null && template.documents.length === 1
    ? template.documents[0] : template.documents.find((d) => d.id === documentId);
  if (!document) {
    const reason = template.documents.length === 0 ? 'the template has no document: upload one first' : input.documentId === null ? 'is required: name the document the field is on' : 'is not a document of this template';
    throw ValidationError.at('documentId', reason);
  }
  const [pages, index] = await Promise.all([readPages(deps, [document]), input.anchor ? textIndexOf(deps, document) : undefined]);
  const fields = placedFields([input], [{ document, pages: pages.get(document.id) ?? [], index }], () => 0, template.fieldOrigin, () => deps.ids.next(), () => '');
  assertNoErrors(Object.fromEntries(Object.entries(templateFieldErrors(fields, template, pages, () => '')).map(([k, val]) => [k.replace(/^\./, ''), val])), 'The field is invalid');
  const existing = template.fields.length;
  assertConditions([...template.fields, ...fields], (i) => (i < existing ? `template.fields[${String(i)}]` : ''));
  if (fields.length === 0) return [];
  await saveNext(deps, template, { ...template, fields: [...template.fields, ...fields] });
  return fields;
}
