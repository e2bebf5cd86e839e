import { templateDocument } from '#shared/templates/template-edit-actions.ts';
import { PDF_REDIRECT, pdfDelivery } from '#shared/envelopes/download-views.ts';
import { bearerAccess, pdfContent, pdfHandling, route } from '#shared/http/endpoint.ts';
import { PDF_HEADERS } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { IdParams } from '#shared/http/common-schemas.ts';
import { TemplateDocumentQuery } from '#shared/templates/template-edit-schemas.ts';

export const definition = route({
  method: 'GET', path: '/v1/templates/{id}/document', auth: 'bearer', tag: 'Templates',
  operationId: 'getTemplateDocument', summary: 'Download a template\'s PDF',
  description: 'The first document, or the one `?documentId=` names. Over DIRECT_DOWNLOAD_MAX_BYTES (about 4.45 MB), 302 to a presigned URL.',
  params: IdParams,
  query: TemplateDocumentQuery,
  success: {
    status: 200, description: 'The PDF', content: pdfContent,
    headers: { 'Content-Disposition': { description: 'inline, named after the template', schema: { type: 'string' } }, 'X-Document-Sha256': PDF_HEADERS.sha256 },
  },
  redirect: PDF_REDIRECT,
  errors: { 404: 'No such template or document, or no document uploaded yet', 410: 'The document is no longer stored' },
  authoring: { kind: 'template', mode: 'fields' },
  access: { ...bearerAccess, documents: { read: ['templates/'] }, ...pdfHandling },
}, (deps) => async ({ params, query, principal }) => {
  const { template, document, delivery } = await templateDocument(deps, principal.appId, params.id, query.documentId ?? null);
  return pdfDelivery(delivery, document, `${template.name.replace(/[^\p{L}\p{N} ._-]+/gu, '').trim() || template.id}.pdf`, 'inline');
});

export const handler = lambda(definition);
