/**
 * Changing a template after it was made: replacing or removing a field, its name, subject, message and roles (a
 * role no longer there takes its fields with it), and reading its documents. Each change is saved against the
 * version read, so a concurrent one is a 409 (the client retries).
 */
import type { Config } from '../config.ts';
import { NotFound, ValidationError, type FieldErrors } from '../kernel/errors.ts';
import { parseId } from '../kernel/ids.ts';
import type { Document, FieldOrigin } from '../kernel/model.ts';
import type { FieldPlacement } from '../envelopes/envelope-inputs.ts';
import { assertNoErrors } from '../envelopes/field-placement.ts';
import { assertConditions } from '../envelopes/fields.ts';
import { attachmentSettings } from '../attachments/attachment-fields.ts';
import { readPages } from '../envelopes/page-actions.ts';
import { documentBytes, DOWNLOAD_URL_SECONDS, type Delivery } from '../envelopes/document-actions.ts';
import { MAX_ROLES, templateFieldErrors, type Template, type TemplateField, type TemplateRole } from './templates.ts';
import { readTemplate, saveNext, type TemplateDeps } from './template-actions.ts';

export type TemplateFieldReplacement = Omit<FieldPlacement, 'anchor' | 'page' | 'x' | 'y' | 'origin'> & {
  page: number; x: number; y: number; origin?: FieldOrigin | undefined; role: string; documentId: string | null;
};

function fieldOf(template: Template, rawFieldId: string): TemplateField {
  const id = parseId('fld', rawFieldId);
  const field = id === undefined ? undefined : template.fields.find((f) => f.id === id);
  if (!field) throw new NotFound('Field not found on this template');
  return field;
}

/** PUT /v1/templates/{id}/fields/{fieldId}: checked as a new field is, on the pages of the document it ends up on. */
export async function replaceTemplateField(deps: TemplateDeps, appId: string, rawId: string, rawFieldId: string, input: TemplateFieldReplacement): Promise<TemplateField> {
  const template = await readTemplate(deps, appId, rawId);
  const before = fieldOf(template, rawFieldId);
  const documentId = input.documentId === null ? before.documentId : parseId('doc', input.documentId) ?? input.documentId;
  const field: TemplateField = {
    id: before.id, role: input.role, documentId, type: input.type, page: input.page, x: input.x, y: input.y, w: input.w, h: input.h,
    required: input.readOnly ? false : input.required, origin: input.origin ?? before.origin, label: input.label ?? null, value: input.value ?? null, readOnly: input.readOnly ?? false,
    showIf: input.showIf ?? null, validation: input.validation ?? null, ...attachmentSettings(input),
  };
  const pages = await readPages(deps, template.documents.filter((d) => d.id === documentId));
  const errors = templateFieldErrors([field], template, pages, () => '');
  assertNoErrors(Object.fromEntries(Object.entries(errors).map(([k, v]) => [k.replace(/^\./, ''), v])), 'The field is invalid');
  const fields = template.fields.map((f) => (f.id === field.id ? field : f));
  // The field's own condition, and the conditions that name its label, hold as at create
  assertConditions(fields, (i) => (fields[i]?.id === field.id ? '' : `template.fields[${String(i)}]`));
  await saveNext(deps, template, { ...template, fields });
  return field;
}

export async function removeTemplateField(deps: Pick<TemplateDeps, 'templates'>, appId: string, rawId: string, rawFieldId: string): Promise<void> {
  const template = await readTemplate(deps, appId, rawId);
  const field = fieldOf(template, rawFieldId);
  const fields = template.fields.filter((f) => f.id !== field.id);
  // A field whose label a condition names stays until that condition goes
  assertConditions(fields, (i) => `template.fields[${String(template.fields.findIndex((f) => f.id === fields[i]?.id))}]`);
  await saveNext(deps, template, { ...template, fields });
}

export interface TemplateDetails {
  name?: string | undefined;
  subject?: string | null | undefined;
  message?: string | null | undefined;
  roles?: RoleChange[] | undefined;
}

/** A role as PATCH gives it: `renamedFrom` names the role it was, whose fields it keeps. */
export type RoleChange = TemplateRole & { renamedFrom?: string | undefined };

function roleErrors(roles: readonly RoleChange[], before: readonly TemplateRole[]): FieldErrors {
  const errors: FieldErrors = {};
  if (roles.length === 0) errors.roles = ['at least one role is required'];
  if (roles.length > MAX_ROLES) errors.roles = [`at most ${String(MAX_ROLES)} roles`];
  const seen = new Set<string>();
  roles.forEach((r, i) => {
    if (seen.has(r.role)) errors[`roles[${String(i)}].role`] = ['another role of this template has the same name'];
    seen.add(r.role);
  });
  const renamed = new Set<string>();
  roles.forEach((r, i) => {
    if (r.renamedFrom === undefined) return;
    if (!before.some((b) => b.role === r.renamedFrom)) errors[`roles[${String(i)}].renamedFrom`] = ['is not a role of this template'];
    else if (renamed.has(r.renamedFrom)) errors[`roles[${String(i)}].renamedFrom`] = ['another role is renamed from the same role'];
    renamed.add(r.renamedFrom);
  });
  return errors;
}

/**
 * The template's roles replaced: a renamed role's fields follow it to its new name; a role neither kept by name
 * nor renamed takes its fields with it (pure; decision 49).
 */
export function withRoles(template: Pick<Template, 'roles' | 'fields'>, changes: readonly RoleChange[]): Pick<Template, 'roles' | 'fields'> {
  assertNoErrors(roleErrors(changes, template.roles), 'The roles are invalid');
  // A role's fields go to the entry renamed from it, else to the entry of its own name (unless that one was renamed from another)
  const next = new Map<string, string>();
  for (const r of changes) if (r.renamedFrom !== undefined) next.set(r.renamedFrom, r.role);
  for (const r of changes) if (r.renamedFrom === undefined && !next.has(r.role)) next.set(r.role, r.role);
  const fields = template.fields.flatMap((f) => {
    const role = next.get(f.role);
    return role === undefined ? [] : [{ ...f, role }];
  });
  return { roles: changes.map(({ role, routingOrder, authMethod }) => ({ role, routingOrder, authMethod })), fields };
}

/** PATCH /v1/templates/{id}: what the request gives replaces what the template has; `roles` replaces them all (withRoles). */
export async function updateTemplate(deps: Pick<TemplateDeps, 'templates'>, appId: string, rawId: string, input: TemplateDetails): Promise<Template> {
  if (Object.values(input).every((value) => value === undefined)) throw ValidationError.at('body', 'give name, subject, message or roles');
  const template = await readTemplate(deps, appId, rawId);
  const { roles, fields } = input.roles ? withRoles(template, input.roles) : template;
  return saveNext(deps, template, {
    ...template,
    name: input.name ?? template.name,
    subject: input.subject === undefined ? template.subject : input.subject,
    message: input.message === undefined ? template.message : input.message,
    roles,
    fields,
  });
}

/** A template's document for its owner: bytes, or a presigned URL over the direct-download size (decision 18). */
export async function templateDocument(deps: Pick<TemplateDeps, 'templates' | 'blobs'> & { config: Pick<Config, 'directDownloadMaxBytes'> }, appId: string, rawId: string, rawDocumentId: string | null): Promise<{ template: Template; document: Document; delivery: Delivery }> {
  const template = await readTemplate(deps, appId, rawId);
  const id = rawDocumentId === null ? null : parseId('doc', rawDocumentId);
  const document = id === null ? template.documents[0] : template.documents.find((d) => d.id === id);
  if (!document) throw new NotFound(rawDocumentId === null ? 'The template has no document yet' : 'Document not found on this template');
  if (document.sizeBytes <= deps.config.directDownloadMaxBytes) return { template, document, delivery: { bytes: await documentBytes(deps, document) } };
  const url = await deps.blobs.presignGet(document.blobKey, { expiresInSeconds: DOWNLOAD_URL_SECONDS, contentType: 'application/pdf', contentDisposition: `inline; filename="${document.id}.pdf"` });
  return { template, document, delivery: { url } };
}
