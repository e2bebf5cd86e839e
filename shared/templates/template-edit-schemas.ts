/** What the template edits take (template-edit-actions.ts). */
import * as v from 'valibot';
import { finiteNumber } from '../http/common-schemas.ts';
import { fieldGeometry } from '../envelopes/envelope-schemas.ts';
import { TemplateRoleRequest } from './template-schemas.ts';
import type { TemplateDetails, TemplateFieldReplacement } from './template-edit-actions.ts';

const { anchor: _anchor, page: _page, x: _x, y: _y, origin, ...attributes } = fieldGeometry;
const roleName = v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'is required'), v.maxLength(50, 'must be at most 50 characters'));
const text = (max: number) => v.pipe(v.string('must be a string'), v.trim(), v.maxLength(max, `must be at most ${String(max)} characters`));

/** A template field's new placement (by coordinates), role and attributes. */
export const ReplaceTemplateFieldRequest = v.object({
  ...attributes,
  page: v.pipe(v.number('must be an integer'), v.integer('must be an integer'), v.minValue(1, 'must be at least 1')),
  x: finiteNumber,
  y: finiteNumber,
  origin: v.pipe(origin, v.description("Absent: the field's own origin")),
  role: roleName,
  documentId: v.optional(v.nullable(v.pipe(v.string('must be a document id'), v.description('Moves the field to another document; absent: it stays on its own'))), null),
}) satisfies v.GenericSchema<unknown, TemplateFieldReplacement>;

/** A role of PATCH: as the create body takes it, or renamed from one of the template's roles (its fields follow). */
const RoleChangeRequest = v.object({
  ...TemplateRoleRequest.entries,
  renamedFrom: v.optional(v.pipe(roleName, v.description('The role\'s name before: its fields are kept, bound to the new name'))),
});

export const UpdateTemplateRequest = v.object({
  name: v.optional(v.pipe(text(200), v.nonEmpty('is required'))),
  subject: v.optional(v.nullable(text(255))),
  message: v.optional(v.nullable(text(5000))),
  roles: v.optional(v.pipe(
    v.array(RoleChangeRequest, 'must be an array of roles'), v.minLength(1, 'at least one role is required'), v.maxLength(50, 'at most 50 roles'),
    v.description('Replaces every role; a role named by another\'s `renamedFrom` keeps its fields under the new name, the fields of a role left out are removed with it'),
  )),
}) satisfies v.GenericSchema<unknown, TemplateDetails>;

export const TemplateDocumentQuery = v.object({
  documentId: v.optional(v.pipe(v.string(), v.maxLength(64, 'is not a document id'), v.description('Default the first document'))),
});
