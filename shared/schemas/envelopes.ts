import * as v from 'valibot';
import { AUTH_METHODS, ENVELOPE_STATUSES, FIELD_ORIGINS, FIELD_TYPES } from '#domain/model.ts';
import type { AddFieldInput, CreateEnvelopeInput, SignerInput } from '#domain/inputs.ts';
import { finiteNumber, idOf, queryInt, TenantId } from './common.ts';

const text = (max: number) => v.pipe(v.string('must be a string'), v.trim(), v.maxLength(max, `must be at most ${String(max)} characters`));
const requiredText = (max: number) => v.pipe(text(max), v.nonEmpty('is required'));

export const E164 = /^\+[1-9]\d{6,14}$/;

export const CreateSignerRequest = v.pipe(
  v.object({
    name: requiredText(200),
    email: v.pipe(v.string('must be an email address'), v.trim(), v.email('must be an email address'), v.maxLength(254, 'must be at most 254 characters')),
    phone: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.regex(E164, 'must be an E.164 phone number such as +14155550100'))), null),
    routingOrder: v.optional(v.pipe(v.number('must be an integer'), v.integer('must be an integer'), v.minValue(1, 'must be at least 1'), v.maxValue(1000, 'must be at most 1000')), 1),
    authMethod: v.optional(v.picklist(AUTH_METHODS, `must be one of ${AUTH_METHODS.join(', ')}`), 'email_otp'),
  }),
  v.forward(
    v.check((s) => s.authMethod !== 'sms_otp' || s.phone !== null, 'is required when authMethod is sms_otp'),
    ['phone'],
  ),
) satisfies v.GenericSchema<unknown, SignerInput>;

const fieldGeometry = {
  type: v.picklist(FIELD_TYPES, `must be one of ${FIELD_TYPES.join(', ')}`),
  page: v.pipe(v.number('must be an integer'), v.integer('must be an integer'), v.minValue(1, 'must be at least 1')),
  x: finiteNumber,
  y: finiteNumber,
  w: v.pipe(finiteNumber, v.gtValue(0, 'must be greater than 0')),
  h: v.pipe(finiteNumber, v.gtValue(0, 'must be greater than 0')),
  required: v.optional(v.boolean('must be true or false'), true),
  origin: v.optional(v.picklist(FIELD_ORIGINS, `must be one of ${FIELD_ORIGINS.join(', ')}`)),
};

/** A field in a create request: signers have no ids yet, so they are named by index or email (DECISIONS 4). */
export const CreateFieldRequest = v.pipe(
  v.object({
    ...fieldGeometry,
    signerIndex: v.optional(v.pipe(v.number(), v.integer('must be an integer'), v.minValue(0, 'must be at least 0'))),
    signerEmail: v.optional(v.pipe(v.string(), v.trim(), v.email('must be an email address'))),
    signerId: v.optional(v.string()),
  }),
  v.forward(
    v.check((f) => f.signerIndex !== undefined || f.signerEmail !== undefined,
      'name the signer with signerIndex (0-based position in signers) or signerEmail'),
    ['signerIndex'],
  ),
);

export const CreateEnvelopeRequest = v.object({
  tenantId: TenantId,
  subject: v.optional(v.nullable(text(255)), null),
  createdBy: v.optional(v.nullable(text(255)), null),
  signers: v.pipe(v.array(CreateSignerRequest, 'must be an array of signers'), v.minLength(1, 'at least one signer is required')),
  fields: v.optional(v.array(CreateFieldRequest, 'must be an array of fields'), []),
  expiresInDays: v.optional(v.nullable(v.pipe(v.number('must be an integer'), v.integer('must be an integer'), v.minValue(1, 'must be at least 1'), v.maxValue(3650, 'must be at most 3650'))), null),
  fieldOrigin: v.optional(v.picklist(FIELD_ORIGINS, `must be one of ${FIELD_ORIGINS.join(', ')}`)),
}) satisfies v.GenericSchema<unknown, CreateEnvelopeInput>;

export const AddFieldRequest = v.object({
  ...fieldGeometry,
  documentId: v.optional(v.nullable(idOf('doc', 'document')), null),
  signerId: idOf('sgn', 'signer'),
}) satisfies v.GenericSchema<unknown, AddFieldInput>;

export const SendRequest = v.object({
  message: v.optional(v.nullable(text(5000)), null),
});

export const VoidRequest = v.object({
  reason: v.optional(v.nullable(text(1000)), null),
});

export const ListEnvelopesQuery = v.object({
  tenantId: TenantId,
  status: v.optional(v.picklist(ENVELOPE_STATUSES, `must be one of ${ENVELOPE_STATUSES.join(', ')}`)),
  page: queryInt(1, 1_000_000, 1),
  pageSize: queryInt(1, 100, 20),
});

export const DocumentQuery = v.object({
  kind: v.optional(v.picklist(['original', 'sealed'], 'must be original or sealed'), 'original'),
});
