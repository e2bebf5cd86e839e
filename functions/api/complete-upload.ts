import { completeUpload } from '#shared/envelopes/direct-upload-actions.ts';
import { envelopeWrite, json, pdfHandling, respond, route } from '#shared/http/endpoint.ts';
import { CONCURRENT, NO_ENVELOPE, PDF_REFUSED } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { documentUploadView } from '#shared/envelopes/envelope-views.ts';
import { UploadParams } from '#shared/envelopes/envelope-schemas.ts';
import { DocumentUploadResponse } from '#shared/envelopes/envelope-response-schemas.ts';

export const definition = route({
  method: 'POST', path: '/v1/envelopes/{id}/document/upload-url/{uploadId}/complete', auth: 'bearer', tag: 'Envelopes',
  operationId: 'completeDocumentUpload', summary: 'Check and add a document uploaded with a presigned POST',
  description: 'The same checks and answer as `POST /v1/envelopes/{id}/document`, on the file stored through the upload URL; a second call answers the same document.',
  params: UploadParams,
  success: { status: 201, description: 'The stored original document', content: json(DocumentUploadResponse) },
  errors: {
    400: `Not a usable PDF, more than 10 documents or 100 MB together, or the envelope is not in draft; ${PDF_REFUSED}`,
    404: `${NO_ENVELOPE}, or no such upload`,
    409: `Nothing was uploaded yet; or ${CONCURRENT.charAt(0).toLowerCase()}${CONCURRENT.slice(1)}`,
    413: 'The PDF is larger than 25 MB',
  },
  authoring: { kind: 'envelope', mode: 'full' },
  // Reads the staged file, stores the checked copy and its text index, deletes the staged file.
  access: { ...envelopeWrite, documents: { read: ['uploads/'], write: ['original/'], delete: ['original/', 'uploads/'] }, ...pdfHandling },
}, (deps) => async ({ params, principal, meta }) => {
  const document = await completeUpload(deps, principal.appId, params.id, params.uploadId, meta);
  return respond(DocumentUploadResponse, documentUploadView(document), 201);
});

export const handler = lambda(definition);
