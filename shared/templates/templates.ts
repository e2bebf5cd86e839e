import { createEnvelope as newEnvelope, type Ctx, type EnvelopeChange, type NewEnvelopeInput } from '../envelopes/envelope.ts';
import { ValidationError, type FieldErrors } from '../kernel/errors.ts';
import { assertConditions, MAX_FIELDS, valueErrors } from '../envelopes/fields.ts';
import type { AttachmentFormat, AuthMethod, Document, DocumentPages, Field, FieldOrigin, FieldType } from '../kernel/model.ts';
import { attachmentCountErrors } from '../attachments/attachment-fields.ts';
import { pagesOf } from '../envelopes/page-geometry.ts';
import { assertNoErrors, placementErrors } from '../envelopes/field-placement.ts';

/**
 * Templates (decision 34): documents with fields bound to roles instead of signers. An envelope made from one holds
 * copies of its documents (its own storage keys) and signers made from the roles; the template is not referenced
 * again, so deleting it changes no envelope.
 */
export interface TemplateRole {
  role: string;
  routingOrder: number;
  authMethod: AuthMethod;
}

export interface TemplateField {
  id: string;
  role: string;
  documentId: string | null;
  type: FieldType;
  page: number;
  x: number;
  y: number;
  w: number;
  h: number;
  required: boolean;
  origin: FieldOrigin;
  label: string | null;
  value: string | null;
  readOnly: boolean;
  showIf?: Field['showIf'];
  validation?: Field['validation'];
  /** Attachment fields: formats and size (docs/attachments.md). */
  accept?: AttachmentFormat[];
  maxBytes?: number;
}

export interface Template {
  id: string;
  appId: string;
  tenantId: string;
  name: string;
  subject: string | null;
  message: string | null;
  expiresInDays: number | null;
  fieldOrigin: FieldOrigin;
  roles: TemplateRole[];
  fields: TemplateField[];
  /** Originals stored under `templates/<templateId>/`. */
  documents: Document[];
  createdAt: string;
  /** Optimistic lock for adding documents and fields. */
  version: number;
  /** Envelopes made from it let a signer hand their place to someone else. */
  allowReassign?: boolean;
}

export const MAX_ROLES = 50;
export const MAX_TEMPLATE_DOCUMENTS = 10;

export const templateDocumentKey = (templateId: string, documentId: string) => `templates/${templateId}/${documentId}.pdf`;

/** Problems with template fields: their role, document, value rules (decision 17) and placement on `pages`; `path(i)` names field i. */
export function templateFieldErrors(fields: readonly TemplateField[], template: Pick<Template, 'roles' | 'documents'>, pages: DocumentPages, path: (i: number) => string): FieldErrors {
  const errors: FieldErrors = attachmentCountErrors(fields, 'fields');
  fields.forEach((field, i) => {
    if (!template.roles.some((r) => r.role === field.role)) {
      errors[`${path(i)}.role`] = ['is not a role of this template'];
      return;
    }
    const document = template.documents.find((d) => d.id === field.documentId);
    if (!document) {
      errors[`${path(i)}.documentId`] = ['is not a document of this template'];
      return;
    }
    Object.assign(errors, valueErrors(field, path(i)));
    Object.assign(errors, placementErrors(field, pagesOf(pages, document), path(i)));
  });
  return errors;
}

/** Checks a template as a whole: unique roles, fields within limits and placed on its documents (of these `pages`). */
export function assertTemplate(template: Template, pages: DocumentPages): void {
  if (template.fields.length > MAX_FIELDS) throw ValidationError.at('fields', `at most ${String(MAX_FIELDS)} fields`);
  if (template.documents.length > MAX_TEMPLATE_DOCUMENTS) throw ValidationError.at('file', `at most ${String(MAX_TEMPLATE_DOCUMENTS)} documents`);
  const seen = new Set<string>();
  const errors: FieldErrors = {};
  template.roles.forEach((r, i) => {
    if (seen.has(r.role)) errors[`roles[${String(i)}].role`] = ['another role of this template has the same name'];
    seen.add(r.role);
  });
  assertNoErrors(errors, 'Role names must be unique');
  assertNoErrors(templateFieldErrors(template.fields, template, pages, (i) => `fields[${String(i)}]`), 'Some fields are invalid');
  assertConditions(template.fields, (i) => `fields[${String(i)}]`);
}

export interface Recipient {
  name: string;
  email: string;
  phone: string | null;
  authMethod?: AuthMethod | undefined;
  locale?: string | undefined;
}

/** What an envelope made from a template is given (decision 34; one bulk-send row is the same). */
export interface FromTemplateInput {
  recipients: Record<string, Recipient>;
  prefill: Record<string, string>;
  subject: string | null;
}

/** Recipients bound to roles: every role needs one, and no recipient may name a role the template lacks. */
export function bindRoles(template: Pick<Template, 'roles'>, recipients: Record<string, Recipient>): NewEnvelopeInput['signers'] {
  const errors: FieldErrors = {};
  for (const role of Object.keys(recipients)) {
    if (!template.roles.some((r) => r.role === role)) errors[`recipients.${role}`] = ['is not a role of this template'];
  }
  for (const { role, authMethod } of template.roles) {
    const recipient = recipients[role];
    if (!recipient) errors[`recipients.${role}`] = [`is required: the template has the role "${role}"`];
    else if ((recipient.authMethod ?? authMethod) === 'sms_otp' && !recipient.phone) errors[`recipients.${role}.phone`] = ['is required: the role signs with an SMS code'];
  }
  assertNoErrors(errors, 'Every role of the template needs a recipient');
  return template.roles.flatMap((r) => {
    const recipient = recipients[r.role];
    if (!recipient) return [];
    return { name: recipient.name, email: recipient.email, phone: recipient.phone, routingOrder: r.routingOrder, authMethod: recipient.authMethod ?? r.authMethod };
  });
}

/** Field values by label: every label given must be on a field of the template; each field with it takes the value. */
export function prefillByLabel<F extends Pick<TemplateField, 'label' | 'value'>>(fields: readonly F[], prefill: Record<string, string>): F[] {
  const labels = new Set(fields.map((f) => f.label).filter((l) => l !== null));
  const errors: FieldErrors = {};
  for (const label of Object.keys(prefill)) {
    if (!labels.has(label)) errors[`prefill.${label}`] = ['is not the label of a field of this template'];
  }
  assertNoErrors(errors, 'Prefill names a label no field has');
  return fields.map((f) => (f.label !== null && Object.hasOwn(prefill, f.label) ? { ...f, value: prefill[f.label] ?? null } : f));
}

export interface EnvelopeFromTemplate {
  id: string;
  appId: string;
  tenantId: string;
  subject: string | null;
  expiresInDays: number;
  retentionDays: number;
  /** The envelope's copies of the template's documents, in the template's order. */
  documents: Document[];
  /** The copies' page geometry, by their ids. */
  pages: DocumentPages;
}

/** The draft made from a template: signers from roles, fields bound to them, prefilled by label (pure). */
export function envelopeFromTemplate(template: Template, input: FromTemplateInput, envelope: EnvelopeFromTemplate, ctx: Ctx): EnvelopeChange {
  const signers = bindRoles(template, input.recipients);
  const fields = prefillByLabel(template.fields, input.prefill).map(({ role, documentId, id: _id, ...f }) => ({
    ...f, signerIndex: template.roles.findIndex((r) => r.role === role), documentIndex: Math.max(0, template.documents.findIndex((d) => d.id === documentId)),
  }));
  const change = newEnvelope({
    id: envelope.id, appId: envelope.appId, tenantId: envelope.tenantId, subject: input.subject ?? template.subject, createdBy: null,
    expiresInDays: envelope.expiresInDays, retentionDays: envelope.retentionDays, fieldOrigin: template.fieldOrigin,
    signers, fields, documents: envelope.documents, pages: envelope.pages, allowReassign: template.allowReassign ?? false,
  }, ctx);
  return { ...change, after: { ...change.after, templateId: template.id } };
}
