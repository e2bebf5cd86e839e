import * as v from 'valibot';
import { attachmentFieldEntries } from '../attachments/attachment-response-schemas.ts';
import { AUTH_METHODS, ENVELOPE_STATUSES, FIELD_ORIGINS, FIELD_TYPES } from '#shared/kernel/model.ts';
import { FieldResponse } from '../envelopes/envelope-response-schemas.ts';

/** Response bodies of the template and bulk-send routes (decision 34, decision 35), for the OpenAPI document. */
const uuid = v.pipe(v.string(), v.uuid());
const timestamp = v.pipe(v.string(), v.isoTimestamp());
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const positive = v.pipe(v.number(), v.integer(), v.minValue(1));

export const TemplateResponse = v.object({
  id: uuid,
  tenantId: v.string(),
  name: v.string(),
  subject: v.nullable(v.string()),
  message: v.nullable(v.string()),
  expiresInDays: v.nullable(positive),
  fieldOrigin: v.picklist(FIELD_ORIGINS),
  roles: v.array(v.object({ role: v.string(), routingOrder: positive, authMethod: v.picklist(AUTH_METHODS) })),
  fields: v.array(v.object({
    id: uuid, role: v.string(), documentId: v.nullable(uuid), type: v.picklist(FIELD_TYPES), page: positive, x: v.number(), y: v.number(),
    w: v.number(), h: v.number(), required: v.boolean(), origin: v.picklist(FIELD_ORIGINS), label: v.nullable(v.string()), value: v.nullable(v.string()), readOnly: v.boolean(),
    showIf: FieldResponse.entries.showIf, validation: FieldResponse.entries.validation,
    ...attachmentFieldEntries,
  })),
  allowReassign: v.pipe(v.boolean(), v.description('Envelopes made from it let a signer hand their place to someone else')),
  documents: v.array(v.object({ id: uuid, name: v.string(), pageCount: positive, sha256: v.string() })),
  createdAt: timestamp,
});

export const TemplateListResponse = v.object({
  data: v.pipe(v.array(TemplateResponse), v.description('Newest first')),
  total: count,
  page: positive,
  pageSize: positive,
});

export const TemplateDocumentResponse = v.object({ documentId: uuid, name: v.string(), sha256: v.string(), pageCount: positive });

export const TemplateFieldsResponse = v.object({ data: v.array(TemplateResponse.entries.fields.item) });

export const BulkSendAcceptedResponse = v.object({ id: uuid, templateId: uuid, status: v.literal('queued'), total: positive });

export const BulkSendResponse = v.object({
  id: uuid,
  templateId: uuid,
  status: v.picklist(['queued', 'running', 'completed', 'completed_with_errors']),
  total: positive,
  sent: count,
  failed: count,
  errors: v.pipe(v.array(v.object({ row: positive, error: v.string(), message: v.string() })), v.description('Rows numbered from 1 in the order given (a CSV header is not a row)')),
  createdAt: timestamp,
});

export const BulkSendEnvelopesResponse = v.object({
  data: v.array(v.object({ row: positive, envelopeId: uuid, status: v.picklist(ENVELOPE_STATUSES) })),
  total: count,
  page: positive,
  pageSize: positive,
});
