import * as v from 'valibot';
import { MAX_BULK_ROWS } from '#shared/templates/bulk-send.ts';
import { AUTH_METHODS, FIELD_ORIGINS } from '#shared/kernel/model.ts';
import { queryInt, TenantId } from '../http/common-schemas.ts';
import { E164, fieldGeometry, PLACEMENT_MESSAGE, placementProblem, SenderRequest } from '../envelopes/envelope-schemas.ts';

/** Templates and bulk send (decision 34, decision 35). */
const text = (max: number) => v.pipe(v.string('must be a string'), v.trim(), v.maxLength(max, `must be at most ${String(max)} characters`));
const requiredText = (max: number) => v.pipe(text(max), v.nonEmpty('is required'));
const days = (max: number) => v.pipe(v.number('must be an integer'), v.integer('must be an integer'), v.minValue(1, 'must be at least 1'), v.maxValue(max, `must be at most ${String(max)}`));
const email = v.pipe(v.string('must be an email address'), v.trim(), v.email('must be an email address'), v.maxLength(254, 'must be at most 254 characters'));
const authMethod = v.picklist(AUTH_METHODS, `must be one of ${AUTH_METHODS.join(', ')}`);
const roleName = v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'is required'), v.maxLength(50, 'must be at most 50 characters'));

export const TemplateRoleRequest = v.object({
  role: roleName,
  routingOrder: v.optional(v.pipe(v.number('must be an integer'), v.integer('must be an integer'), v.minValue(1, 'must be at least 1'), v.maxValue(1000, 'must be at most 1000')), 1),
  authMethod: v.optional(authMethod, 'email_otp'),
});

/** A field of a template create: bound to a role, on the request's `documentIndex`-th `file` part. */
export const TemplateFieldRequest = v.pipe(
  v.object({
    ...fieldGeometry,
    role: roleName,
    documentIndex: v.optional(v.pipe(v.number('must be an integer'), v.integer('must be an integer'), v.minValue(0, 'must be at least 0')), 0),
  }),
  // Coordinates, or an anchor: one of the two.
  v.forward(v.check((f) => placementProblem(f) !== 'page', PLACEMENT_MESSAGE), ['page']),
  v.forward(v.check((f) => placementProblem(f) !== 'x', PLACEMENT_MESSAGE), ['x']),
  v.forward(v.check((f) => placementProblem(f) !== 'y', PLACEMENT_MESSAGE), ['y']),
  v.forward(v.check((f) => placementProblem(f) !== 'anchor', PLACEMENT_MESSAGE), ['anchor']),
);

/** One more field on a template: its role and the document it is on. */
export const AddTemplateFieldRequest = v.pipe(
  v.object({
    ...fieldGeometry,
    role: roleName,
    documentId: v.optional(v.nullable(v.string('must be a document id')), null),
  }),
  v.forward(v.check((f) => placementProblem(f) !== 'page', PLACEMENT_MESSAGE), ['page']),
  v.forward(v.check((f) => placementProblem(f) !== 'x', PLACEMENT_MESSAGE), ['x']),
  v.forward(v.check((f) => placementProblem(f) !== 'y', PLACEMENT_MESSAGE), ['y']),
  v.forward(v.check((f) => placementProblem(f) !== 'anchor', PLACEMENT_MESSAGE), ['anchor']),
);

export const CreateTemplateRequest = v.object({
  tenantId: TenantId,
  name: requiredText(200),
  subject: v.optional(v.nullable(text(255)), null),
  message: v.optional(v.nullable(text(5000)), null),
  expiresInDays: v.optional(v.nullable(days(3650)), null),
  fieldOrigin: v.optional(v.picklist(FIELD_ORIGINS, `must be one of ${FIELD_ORIGINS.join(', ')}`)),
  roles: v.pipe(v.array(TemplateRoleRequest, 'must be an array of roles'), v.minLength(1, 'at least one role is required'), v.maxLength(50, 'at most 50 roles')),
  fields: v.optional(v.array(TemplateFieldRequest, 'must be an array of fields'), []),
  allowReassign: v.optional(v.pipe(v.boolean('must be true or false'), v.description('Envelopes made from it let a signer hand their place to someone else')), false),
});

export const RecipientRequest = v.pipe(
  v.object({
    name: requiredText(200),
    email,
    phone: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.regex(E164, 'must be an E.164 phone number such as +14155550100'))), null),
    authMethod: v.optional(authMethod),
    locale: v.optional(v.pipe(v.string('must be a string'), v.maxLength(10, 'must be at most 10 characters'))),
  }),
  v.forward(v.check((r) => r.authMethod !== 'sms_otp' || r.phone !== null, 'is required when authMethod is sms_otp'), ['phone']),
);

const Recipients = v.record(roleName, RecipientRequest, 'must map each role to its recipient');
const Prefill = v.record(v.pipe(v.string(), v.maxLength(100, 'must be at most 100 characters')), v.pipe(v.string('must be a string'), v.maxLength(1000, 'must be at most 1000 characters')), 'must map field labels to values');

/** One bulk-send row, checked when its job runs (a bad row fails alone). */
export const BulkRowRequest = v.object({
  recipients: Recipients,
  prefill: v.optional(Prefill, {}),
  subject: v.optional(v.nullable(text(255)), null),
});

export const CreateFromTemplateRequest = v.object({
  tenantId: v.optional(TenantId),
  templateId: v.pipe(v.string('must be a template id'), v.description('The template to make the envelope from')),
  recipients: Recipients,
  prefill: v.optional(Prefill, {}),
  subject: v.optional(v.nullable(text(255)), null),
  message: v.optional(v.nullable(text(5000)), null),
  cc: v.optional(v.pipe(v.array(v.object({ name: requiredText(200), email }), 'must be an array of { name, email }'), v.maxLength(20, 'at most 20 carbon copies')), []),
  reminders: v.optional(v.nullable(v.object({ firstAfterDays: days(60), everyDays: v.optional(v.nullable(days(60)), null) })), null),
  send: v.optional(v.boolean('must be true or false'), false),
  sender: v.optional(SenderRequest),
});

export const BulkSendRequest = v.object({
  rows: v.pipe(
    v.array(v.record(v.string(), v.unknown(), 'must be an object'), 'must be an array of rows'),
    v.minLength(1, 'at least one row is required'), v.maxLength(MAX_BULK_ROWS, `at most ${String(MAX_BULK_ROWS)} rows`),
  ),
});

export const ListTemplatesQuery = v.object({
  tenantId: TenantId,
  page: queryInt(1, 1_000_000, 1),
  pageSize: queryInt(1, 100, 20),
});

export const PageQuery = v.object({
  page: queryInt(1, 1_000_000, 1),
  pageSize: queryInt(1, 100, 20),
});
