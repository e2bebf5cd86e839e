import { createUploadUrl } from '#shared/envelopes/direct-upload-actions.ts';
import { envelopeWrite, json, jsonBody, respond, route } from '#shared/http/endpoint.ts';
import { NO_ENVELOPE } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { IdParams } from '#shared/http/common-schemas.ts';
import { UploadUrlRequest } from '#shared/envelopes/envelope-schemas.ts';
import { UploadUrlResponse } from '#shared/envelopes/envelope-response-schemas.ts';

export const definition = route({
  method: 'POST', path: '/v1/envelopes/{id}/document/upload-url', auth: 'bearer', tag: 'Envelopes',
  operationId: 'createDocumentUploadUrl', summary: 'A presigned S3 POST for a document too large for a request body',
  description: 'For PDFs up to 25 MB whatever the deployment\'s request limits (an API Gateway request carries at most 10 MB, a Lambda payload 6 MB): POST the file to `url` as multipart/form-data, every `fields` entry first and the PDF last as `file`, within 15 minutes; then call `.../upload-url/{uploadId}/complete`. `filename` names the document, else `document-N.pdf`.',
  params: IdParams,
  body: jsonBody(UploadUrlRequest, { optional: true }),
  success: { status: 200, description: 'Where and how to POST the file', content: json(UploadUrlResponse) },
  errors: { 400: 'Invalid filename or sizeBytes, or the envelope is not in draft', 404: NO_ENVELOPE, 413: '`sizeBytes` is over 25 MB' },
  authoring: { kind: 'envelope', mode: 'full' },
  access: { ...envelopeWrite, documents: { write: ['uploads/'] } },
}, (deps) => async ({ params, body, principal }) => {
  const upload = await createUploadUrl(deps, principal.appId, params.id, { filename: body.filename, sizeBytes: body.sizeBytes });
  return respond(UploadUrlResponse, upload);
});

export const handler = lambda(definition);
