import { signingDocument } from '#shared/signing/signing-actions.ts';
import { contentDisposition, PDF_REDIRECT, pdfDelivery } from '#shared/envelopes/download-views.ts';
import { linkAccess, pdfContent, pdfHandling, route } from '#shared/http/endpoint.ts';
import { LINK_BEFORE_OTP, LINK_USED, PDF_HEADERS } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { LinkDocumentQuery } from '#shared/envelopes/envelope-schemas.ts';
import { TokenParams } from '#shared/signing/signing-schemas.ts';

export const definition = route({
  method: 'GET', path: '/v1/signing/{token}/document', auth: 'link', tag: 'Signing',
  operationId: 'getSigningDocument', summary: 'The original PDF',
  description: 'An original PDF (the first, or `?documentId=`), for rendering on the signing page and for the signer to download; available once the one-time code (where needed) is verified. Always an attachment: a document the sender uploaded is never opened as a page of the signing origin.',
  params: TokenParams,
  query: LinkDocumentQuery,
  success: {
    status: 200, description: 'The original PDF', content: pdfContent,
    headers: { 'Content-Disposition': { description: '`attachment`, named after the document', schema: { type: 'string' } }, 'X-Document-Sha256': PDF_HEADERS.sha256 },
  },
  redirect: PDF_REDIRECT,
  errors: { 401: LINK_BEFORE_OTP, 410: `${LINK_USED}; or the document is no longer available` },
  access: { ...linkAccess, documents: { read: ['original/'] }, ...pdfHandling },
}, (deps) => async ({ params, query, meta }) => {
  const { document, delivery } = await signingDocument(deps, params.token, query.documentId ?? null, meta, (_e, d) => contentDisposition('attachment', d.name ?? 'document.pdf'));
  return pdfDelivery(delivery, document, document.name ?? 'document.pdf');
});

export const handler = lambda(definition);
