/** The envelope or template being edited, as the API answers it, and the field routes that save it. */
import type { ShowIf } from '#shared/envelopes/field-conditions.ts';
import type { TextValidation } from '#shared/envelopes/text-validation.ts';
import type { AttachmentFormat, AuthMethod, FieldOrigin, FieldType } from '#shared/kernel/model.ts';
import type { AuthorApi } from './author-api.ts';
import { COLOURS, type Recipient } from './author-state.ts';
import type { EditorField, FieldSaver } from './author-store.ts';

export interface ApiField {
  id: string; documentId: string | null; signerId?: string; role?: string; type: FieldType; page: number;
  x: number; y: number; w: number; h: number; origin: FieldOrigin; required: boolean;
  label: string | null; value: string | null; readOnly: boolean;
  showIf?: ShowIf | null; validation?: TextValidation | null; accept?: AttachmentFormat[]; maxBytes?: number;
}
export interface ApiSigner { id: string; name: string; email: string; phone?: string | null; routingOrder: number; authMethod: AuthMethod; locale?: string | null }
export interface ApiRole { role: string; routingOrder: number; authMethod: AuthMethod }
export interface ApiDocument { id: string; kind?: string; name?: string; order?: number; pageCount?: number }

export interface Resource {
  kind: 'envelope' | 'template';
  id: string;
  status?: string;
  name?: string;
  subject: string | null;
  message: string | null;
  fieldOrigin: FieldOrigin;
  signers?: ApiSigner[];
  roles?: ApiRole[];
  fields: ApiField[];
  documents: ApiDocument[];
}

export const basePath = (kind: Resource['kind'], id: string) => `/v1/${kind === 'envelope' ? 'envelopes' : 'templates'}/${encodeURIComponent(id)}`;

export async function loadResource(api: AuthorApi, kind: Resource['kind'], id: string): Promise<Resource> {
  const body = await api.call<Omit<Resource, 'kind'>>('GET', basePath(kind, id));
  return { ...body, kind };
}

export const originals = (resource: Resource) =>
  resource.documents.filter((d) => (d.kind ?? 'original') === 'original').sort((a, b) => (a.order ?? 0) - (b.order ?? 0));

export const documentUrl = (resource: Resource, documentId: string) => `${basePath(resource.kind, resource.id)}/document?documentId=${encodeURIComponent(documentId)}`;

export function recipientsOf(resource: Resource): Recipient[] {
  const list = resource.kind === 'envelope'
    ? [...(resource.signers ?? [])].sort((a, b) => a.routingOrder - b.routingOrder).map((s) => ({ key: s.id, name: s.name || s.email }))
    : [...(resource.roles ?? [])].sort((a, b) => a.routingOrder - b.routingOrder).map((r) => ({ key: r.role, name: r.role }));
  return list.map((r, i) => ({ ...r, colour: COLOURS[i % COLOURS.length] ?? '#1d4ed8' }));
}

export const toEditorField = (f: ApiField): EditorField => ({
  id: f.id, documentId: f.documentId, recipient: f.signerId ?? f.role ?? '', type: f.type, page: f.page,
  x: f.x, y: f.y, w: f.w, h: f.h, origin: f.origin, required: f.required, label: f.label, value: f.value, readOnly: f.readOnly,
  showIf: f.showIf ?? null, validation: f.validation ?? null, ...(f.type === 'attachment' ? { accept: f.accept, maxBytes: f.maxBytes } : {}),
});

export function fieldSaver(api: AuthorApi, resource: Pick<Resource, 'kind' | 'id'>): FieldSaver {
  const base = `${basePath(resource.kind, resource.id)}/fields`;
  const body = (f: EditorField) => ({
    type: f.type, documentId: f.documentId, page: f.page, x: f.x, y: f.y, w: f.w, h: f.h, origin: f.origin,
    required: f.required, label: f.label, value: f.value, readOnly: f.readOnly, showIf: f.showIf, validation: f.type === 'text' ? f.validation : null,
    // Formats and size are an attachment field's alone (the API refuses them on another type)
    ...(f.type === 'attachment' ? { ...(f.accept ? { accept: f.accept } : {}), ...(f.maxBytes ? { maxBytes: f.maxBytes } : {}) } : {}),
    ...(resource.kind === 'envelope' ? { signerId: f.recipient } : { role: f.recipient }),
  });
  return {
    create: async (f) => {
      // An envelope answers the Field; a template `{ data: [Field] }`
      const answer = await api.call<ApiField | { data: ApiField[] }>('POST', base, body(f));
      const field = 'data' in answer ? answer.data[0] : answer;
      if (!field) throw new Error('The API placed no field');
      return toEditorField(field);
    },
    update: async (f) => toEditorField(await api.call<ApiField>('PUT', `${base}/${encodeURIComponent(f.id)}`, body(f))),
    remove: async (f) => { await api.call('DELETE', `${base}/${encodeURIComponent(f.id)}`); },
  };
}
