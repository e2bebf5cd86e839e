import { documentName } from '#shared/kernel/model.ts';
import type { Template, TemplateField } from '#shared/templates/templates.ts';

/** Templates as the API answers them (decision 34). */
export function templateFieldView(f: TemplateField) {
  const { id, role, documentId, type, page, x, y, w, h, required, origin, label, value, readOnly, accept, maxBytes } = f;
  return {
    id, role, documentId, type, page, x, y, w, h, required, origin, label, value, readOnly, showIf: f.showIf ?? null, validation: f.validation ?? null,
    ...(accept ? { accept, maxBytes } : {}),
  };
}

export function templateView(t: Template) {
  return {
    id: t.id, tenantId: t.tenantId, name: t.name, subject: t.subject, message: t.message, expiresInDays: t.expiresInDays, fieldOrigin: t.fieldOrigin,
    roles: t.roles.map(({ role, routingOrder, authMethod }) => ({ role, routingOrder, authMethod })),
    fields: t.fields.map(templateFieldView),
    documents: t.documents.map((d) => ({ id: d.id, name: documentName(d), pageCount: d.pageCount, sha256: d.sha256 })),
    createdAt: t.createdAt, allowReassign: t.allowReassign ?? false,
  };
}
