import { downloadDocument } from '#shared/envelopes/document-actions.ts';
import { contentDisposition, PDF_REDIRECT, pdfDelivery, pdfFilename } from '#shared/envelopes/download-views.ts';
import { envelopeWrite, pdfContent, pdfHandling, route } from '#shared/http/endpoint.ts';
import { PDF_HEADERS } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { IdParams } from '#shared/http/common-schemas.ts';
import { DocumentQuery } from '#shared/envelopes/envelope-schemas.ts';

export const definition = route({
  method: 'GET', path: '/v1/envelopes/{id}/document', auth: 'bearer', tag: 'Envelopes',
  operationId: 'getDocument', summary: 'Download the original or sealed PDF',
  description: 'The first document, or the one `?documentId=` names; `?kind=sealed` once the envelope is completed. Over DIRECT_DOWNLOAD_MAX_BYTES (about 4.45 MB), 302 to a presigned URL.',
  params: IdParams,
  query: DocumentQuery,
  success: {
    status: 200, description: 'The PDF', content: pdfContent,
    headers: { 'Content-Disposition': { description: 'attachment, named after the subject', schema: { type: 'string' } }, 'X-Document-Sha256': PDF_HEADERS.sha256 },
  },
  redirect: PDF_REDIRECT,
  errors: { 400: 'Invalid kind', 404: 'No such envelope or document, or no document uploaded yet', 409: 'The sealed document is requested before completion', 410: 'The document was purged' },
  authoring: { kind: 'envelope', mode: 'fields' },
  access: { ...envelopeWrite, documents: { read: ['original/', 'sealed/'] }, ...pdfHandling },
}, (deps) => async ({ params, query, principal }) => {
  const { envelope, document, delivery } = await downloadDocument(deps, principal.appId, params.id, query.kind, query.documentId ?? null, (e, d) => contentDisposition('attachment', pdfFilename(e, d)));
  return pdfDelivery(delivery, document, pdfFilename(envelope, document));
});

export const handler = lambda(definition);
