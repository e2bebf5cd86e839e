/**
 * The OpenAPI components the operations refer to: the valibot schemas published under `components/schemas`, the
 * rules JSON Schema cannot express, the shared error responses, and the helpers that build media objects from them.
 */
import type { JsonSchema } from '@valibot/to-json-schema';
import {
  AddFieldRequest, CreateEnvelopeRequest, CreateFieldRequest, CreateSignerRequest, SendRequest, VoidRequest,
} from '#schemas/envelopes.ts';
import { TokenRequest } from '#schemas/auth.ts';
import { TenantSettingsRequest } from '#schemas/tenants.ts';
import { ContactRequest } from '#schemas/console.ts';
import { CreateWebhookRequest } from '#schemas/webhooks.ts';
import { DeclineRequest, OtpVerifyRequest, SignRequest } from '#schemas/signing.ts';
import * as res from '#schemas/responses.ts';

export const COMPONENT_SCHEMAS = {
  Envelope: res.EnvelopeResponse,
  Signer: res.SignerResponse,
  Field: res.FieldResponse,
  AnchoredFields: res.AnchoredFieldsResponse,
  Document: res.DocumentResponse,
  AuditEvent: res.AuditEventResponse,
  EnvelopeList: res.EnvelopeListResponse,
  DocumentUpload: res.DocumentUploadResponse,
  AuditVerification: res.AuditVerificationResponse,
  TokenResponse: res.TokenResponse,
  SigningContext: res.SigningContextResponse,
  OtpRequested: res.OtpRequestedResponse,
  OtpVerification: res.OtpVerificationResponse,
  Consent: res.ConsentResponse,
  SignResult: res.SignResultResponse,
  DeclineResult: res.DeclineResultResponse,
  SigningLink: res.SigningLinkResponse,
  DownloadStatus: res.DownloadStatusResponse,
  Webhook: res.WebhookResponse,
  TenantSettings: res.TenantSettingsResponse,
  Contact: res.ContactResponse,
  ContactList: res.ContactListResponse,
  Usage: res.UsageResponse,
  ContactRequest,
  TenantSettingsRequest,
  WebhookList: res.WebhookListResponse,
  Delivery: res.DeliveryResponse,
  DeliveryList: res.DeliveryListResponse,
  CreateWebhookRequest,
  Error: res.ErrorResponse,
  OpenApiDocument: res.OpenApiDocumentResponse,
  TokenRequest,
  CreateEnvelopeRequest,
  CreateSignerRequest,
  CreateFieldRequest,
  AddFieldRequest,
  SendRequest,
  VoidRequest,
  OtpVerifyRequest,
  SignRequest,
  DeclineRequest,
};
export type ComponentName = keyof typeof COMPONENT_SCHEMAS;

/** Rules the request schemas check in code (`v.check`) and JSON Schema cannot say. */
export const COMPONENT_NOTES: Partial<Record<ComponentName, string>> = {
  CreateSignerRequest: '`phone` is required when `authMethod` is `sms_otp`.',
  CreateFieldRequest: 'Name the signer with `signerIndex` (0-based position in `signers`) or `signerEmail`: signers have no ids yet (DECISIONS 4).',
  AddFieldRequest: '`signerId` and `documentId` take a UUID or the prefixed form (`sgn_<uuid>`, `doc_<uuid>`); the field must lie inside the page (DECISIONS 25).',
  SignRequest:
    'Every required field of the signer needs a value, and a value for a field that is not the signer\'s is a 400 (DECISIONS 26). ' +
    '`signature`/`initial`: `signatureImageBase64` (a PNG, at most 1 MB decoded) or, typed, `textValue` with `fontLabel`; ' +
    '`date`: filled by the service with the signing date (a submitted value is ignored); `text`: `textValue`, at most 1,000 characters; ' +
    '`checkbox`: `textValue` `"true"` or `"false"`. `fieldId` takes a UUID or the prefixed form `fld_<uuid>`.',
  Error: 'One body that is both published error shapes (DECISIONS 7).',
};

/** A schema object: JSON Schema 2020-12 plus the content keywords the converter's type leaves out. */
export interface SchemaObject extends JsonSchema {
  contentSchema?: SchemaObject;
}

export interface Media { schema: SchemaObject; encoding?: Record<string, { contentType: string }> }
export type Content = Record<string, Media>;
export interface HeaderDoc { description: string; schema: SchemaObject }

export const ERROR_STATUSES = [400, 401, 403, 404, 409, 410, 413, 415, 429, 500] as const;
export type ErrorStatus = (typeof ERROR_STATUSES)[number];

export const ref = (name: ComponentName): SchemaObject => ({ $ref: `#/components/schemas/${name}` });
export const json = (name: ComponentName): Content => ({ 'application/json': { schema: ref(name) } });
export const pdf: SchemaObject = { type: 'string', contentMediaType: 'application/pdf' };
const jsonText = (schema: SchemaObject): SchemaObject => ({ type: 'string', contentMediaType: 'application/json', contentSchema: schema });
const createProperty = (name: keyof typeof CreateEnvelopeRequest.entries): SchemaObject => ({ $ref: `#/components/schemas/CreateEnvelopeRequest/properties/${name}` });

/** Variant A (DECISIONS 4): the PDF plus either a `data` part with the JSON request or flat form fields. */
export const multipartCreate: Media = {
  schema: {
    anyOf: [
      { title: 'PDF and data part', type: 'object', required: ['file', 'data'], properties: { file: pdf, data: jsonText(ref('CreateEnvelopeRequest')) } },
      {
        title: 'PDF and flat fields',
        type: 'object',
        required: ['file', 'tenantId', 'signers'],
        properties: {
          file: pdf,
          ...Object.fromEntries((['tenantId', 'subject', 'createdBy', 'expiresInDays', 'fieldOrigin'] as const).map((name) => [name, createProperty(name)])),
          signers: jsonText({ type: 'array', minItems: 1, items: ref('CreateSignerRequest') }),
          fields: jsonText({ type: 'array', items: ref('CreateFieldRequest') }),
        },
      },
    ],
  },
  encoding: { file: { contentType: 'application/pdf' }, data: { contentType: 'application/json' }, signers: { contentType: 'application/json' }, fields: { contentType: 'application/json' } },
};

export const ERROR_RESPONSES: Record<ErrorStatus, { name: string; description: string }> = {
  400: { name: 'BadRequest', description: 'Validation error (`validation_error`) or a state that does not allow the request (`invalid_state`)' },
  401: { name: 'Unauthorized', description: 'Missing, expired or invalid credentials' },
  403: { name: 'Forbidden', description: 'The credentials are valid but not permitted here' },
  404: { name: 'NotFound', description: 'Not found, or not owned by the caller' },
  409: { name: 'Conflict', description: 'Conflict with the current state' },
  410: { name: 'Gone', description: 'No longer available' },
  413: { name: 'PayloadTooLarge', description: 'The body or file is larger than 25 MB' },
  415: { name: 'UnsupportedMediaType', description: 'This endpoint does not accept the request\'s Content-Type' },
  429: { name: 'TooManyRequests', description: 'Rate limited; retry after the seconds in `Retry-After`' },
  500: { name: 'InternalError', description: 'Internal error; the body carries the request id to quote' },
};
