/**
 * The OpenAPI components the operations refer to: the valibot schemas published under `components/schemas` (a route
 * declaration that names one of these schema objects gets a $ref to it), the rules JSON Schema cannot express, and
 * the shared error responses.
 */
import type { JsonSchema } from '@valibot/to-json-schema';
import type { ErrorStatus } from '#shared/http/declaration.ts';
import { AddFieldRequest, CreateEnvelopeRequest, CreateFieldRequest, CreateSignerRequest, SendRequest, VoidRequest } from '#shared/envelopes/envelope-schemas.ts';
import { TokenRequest, TokenResponse } from '#shared/console/auth-schemas.ts';
import { TenantSettingsRequest } from '#shared/console/tenant-schemas.ts';
import { ContactRequest } from '#shared/console/console-schemas.ts';
import { CreateWebhookRequest } from '#shared/webhooks/webhook-schemas.ts';
import { DeclineRequest, OtpVerifyRequest, SignRequest } from '#shared/signing/signing-schemas.ts';
import { AnchoredFieldsResponse, AuditEventResponse, AuditVerificationResponse, DocumentResponse, DocumentUploadResponse, EnvelopeListResponse, EnvelopeResponse, FieldResponse, SignerResponse } from '#shared/envelopes/envelope-response-schemas.ts';
import { ConsentResponse, DeclineResultResponse, DownloadStatusResponse, OtpRequestedResponse, OtpVerificationResponse, SignResultResponse, SigningContextResponse, SigningLinkResponse } from '#shared/signing/signing-response-schemas.ts';
import { ContactListResponse, ContactResponse, TenantSettingsResponse, UsageResponse } from '#shared/console/console-response-schemas.ts';
import { DeliveryListResponse, DeliveryResponse, WebhookListResponse, WebhookResponse } from '#shared/webhooks/webhook-response-schemas.ts';
import { ErrorResponse, OpenApiDocumentResponse } from '#shared/http/error-schemas.ts';

export const COMPONENT_SCHEMAS = {
  Envelope: EnvelopeResponse,
  Signer: SignerResponse,
  Field: FieldResponse,
  AnchoredFields: AnchoredFieldsResponse,
  Document: DocumentResponse,
  AuditEvent: AuditEventResponse,
  EnvelopeList: EnvelopeListResponse,
  DocumentUpload: DocumentUploadResponse,
  AuditVerification: AuditVerificationResponse,
  TokenResponse: TokenResponse,
  SigningContext: SigningContextResponse,
  OtpRequested: OtpRequestedResponse,
  OtpVerification: OtpVerificationResponse,
  Consent: ConsentResponse,
  SignResult: SignResultResponse,
  DeclineResult: DeclineResultResponse,
  SigningLink: SigningLinkResponse,
  DownloadStatus: DownloadStatusResponse,
  Webhook: WebhookResponse,
  TenantSettings: TenantSettingsResponse,
  Contact: ContactResponse,
  ContactList: ContactListResponse,
  Usage: UsageResponse,
  ContactRequest,
  TenantSettingsRequest,
  WebhookList: WebhookListResponse,
  Delivery: DeliveryResponse,
  DeliveryList: DeliveryListResponse,
  CreateWebhookRequest,
  Error: ErrorResponse,
  OpenApiDocument: OpenApiDocumentResponse,
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
  CreateFieldRequest: 'Name the signer with `signerIndex` (0-based position in `signers`) or `signerEmail`: signers have no ids yet.',
  AddFieldRequest: '`signerId` and `documentId` take a UUID or the prefixed form (`sgn_<uuid>`, `doc_<uuid>`); the field must lie inside the page\'s crop box (PDF points, origin bottom-left unless `origin` says `top-left`).',
  SignRequest:
    'Every required field of the signer needs a value, and a value for a field that is not the signer\'s is a 400 (`validation_error`). ' +
    '`signature`/`initial`: `signatureImageBase64` (a PNG, at most 1 MB decoded; `signatureSource` says whether it was drawn or uploaded) or, typed, `textValue` with `fontLabel`; ' +
    '`date`: filled by the service with the signing date (a submitted value is ignored); `text`: `textValue`, at most 1,000 characters; ' +
    '`checkbox`: `textValue` `"true"` or `"false"`. `fieldId` takes a UUID or the prefixed form `fld_<uuid>`.',
};

/** A schema object: JSON Schema 2020-12 plus the content keywords the converter's type leaves out. */
export interface SchemaObject extends JsonSchema {
  contentSchema?: SchemaObject;
}

export const ERROR_RESPONSES: Record<ErrorStatus, { name: string; description: string }> = {
  400: { name: 'BadRequest', description: 'Validation error (`validation_error`) or a state that does not allow the request (`invalid_state`)' },
  401: { name: 'Unauthorized', description: 'Missing, expired or invalid credentials' },
  403: { name: 'Forbidden', description: 'The credentials are valid but not permitted here' },
  404: { name: 'NotFound', description: 'Not found, or not owned by the caller' },
  409: { name: 'Conflict', description: 'Conflict with the current state' },
  410: { name: 'Gone', description: 'No longer available' },
  413: { name: 'PayloadTooLarge', description: 'The body or file is larger than 25 MB; on AWS, a request body over 4 MB (upload larger PDFs with `POST /v1/envelopes/{id}/document/upload-url`)' },
  415: { name: 'UnsupportedMediaType', description: 'This endpoint does not accept the request\'s Content-Type' },
  429: { name: 'TooManyRequests', description: 'Rate limited; retry after the seconds in `Retry-After`' },
  500: { name: 'InternalError', description: 'Internal error; the body carries the request id to quote' },
};
