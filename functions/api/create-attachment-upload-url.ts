import { createAttachmentUploadUrl } from '#shared/attachments/attachment-actions.ts';
import { json, jsonBody, linkAccess, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { LINK_BEFORE_OTP, LINK_USED } from '#shared/http/error-docs.ts';
import { TokenParams } from '#shared/signing/signing-schemas.ts';
import { AttachmentUploadUrlRequest } from '#shared/attachments/attachment-schemas.ts';
import { AttachmentUploadUrlResponse } from '#shared/attachments/attachment-response-schemas.ts';

export const definition = route({
  method: 'POST', path: '/v1/signing/{token}/attachments/upload-url', auth: 'link', tag: 'Signing',
  operationId: 'createAttachmentUploadUrl', summary: 'A presigned S3 POST for a file the signer attaches',
  description: 'For one of the signer\'s attachment fields: POST the file to `url` as multipart/form-data, every `fields` entry first and the file last as `file`, within 15 minutes; then call `.../upload-url/{uploadId}/complete`. `filename` names the attachment. The store refuses a file over the field\'s `maxBytes`.',
  params: TokenParams,
  body: jsonBody(AttachmentUploadUrlRequest),
  success: { status: 200, description: 'Where and how to POST the file', content: json(AttachmentUploadUrlResponse) },
  errors: { 400: '`fieldId` is not one of the signer\'s attachment fields, or an invalid filename or sizeBytes', 401: LINK_BEFORE_OTP, 410: LINK_USED, 413: '`sizeBytes` is over the field\'s maxBytes' },
  // The upload is staged from the start: one never completed is deleted by the blob sweep.
  access: { ...linkAccess, documents: { write: ['uploads/'] } },
}, (deps) => async ({ params, body, meta }) =>
  respond(AttachmentUploadUrlResponse, await createAttachmentUploadUrl(deps, params.token, { fieldId: body.fieldId, filename: body.filename, sizeBytes: body.sizeBytes }, meta)));

export const handler = lambda(definition);
