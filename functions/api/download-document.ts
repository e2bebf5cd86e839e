import { downloadSealed } from '#shared/envelopes/download-actions.ts';
import { contentDisposition, PDF_REDIRECT, pdfDelivery, pdfFilename } from '#shared/envelopes/download-views.ts';
import { pdfContent, pdfHandling, route } from '#shared/http/endpoint.ts';
import { CONCURRENT, DOWNLOAD_LINK_UNUSABLE, SEALED_PURGED } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { LinkDocumentQuery } from '#shared/envelopes/envelope-schemas.ts';
import { TokenParams } from '#shared/signing/signing-schemas.ts';

export const definition = route({
  method: 'GET', path: '/v1/download/{token}/document', auth: 'link', tag: 'Signing',
  operationId: 'downloadSealedDocument', summary: 'Download portal: the sealed PDF (the download is recorded)',
  description: 'A sealed PDF (the first, or `?documentId=`: a sealed document or its original). The download is recorded in the audit trail (for a PDF over DIRECT_DOWNLOAD_MAX_BYTES when the presigned URL is handed out) and stops the deletion reminders for this recipient.',
  params: TokenParams,
  query: LinkDocumentQuery,
  success: {
    status: 200, description: 'The sealed PDF', content: pdfContent,
    headers: {
      'Content-Disposition': { description: 'attachment, named after the subject', schema: { type: 'string' } },
      'X-Document-Sha256': { description: 'SHA-256 of the PDF (documentHashFinal)', schema: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
    },
  },
  redirect: PDF_REDIRECT,
  errors: { 401: DOWNLOAD_LINK_UNUSABLE, 409: CONCURRENT, 410: SEALED_PURGED },
  access: { table: 'write', secrets: ['LINK_SECRET'], documents: { read: ['sealed/'] }, ...pdfHandling },
}, (deps) => async ({ params, query, meta }) => {
  const { envelope, sealed, delivery } = await downloadSealed(deps, params.token, query.documentId ?? null, meta, (e, d) => contentDisposition('attachment', pdfFilename(e, d)));
  return pdfDelivery(delivery, sealed, pdfFilename(envelope, sealed));
});

export const handler = lambda(definition);
