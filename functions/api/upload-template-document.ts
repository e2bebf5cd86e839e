import { UnsupportedMediaType, ValidationError } from '#shared/kernel/errors.ts';
import { uploadTemplateDocument } from '#shared/templates/template-actions.ts';
import type { BodyRule } from '#shared/http/body-rules.ts';
import { json, PDF_SCHEMA, pdfHandling, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { IdParams } from '#shared/http/common-schemas.ts';
import { UploadQuery } from '#shared/envelopes/envelope-schemas.ts';
import { TemplateDocumentResponse } from '#shared/templates/template-response-schemas.ts';
import { documentName } from '#shared/kernel/model.ts';
import { PDF_REFUSED } from '#shared/http/error-docs.ts';

const RAW_TYPES = ['application/octet-stream', 'application/pdf'];

const rawPdf: BodyRule<Uint8Array> = {
  accepts: ['binary', 'empty'],
  read: (body) => {
    if (body.kind === 'binary' && !RAW_TYPES.includes(body.contentType)) {
      throw new UnsupportedMediaType(`This endpoint does not accept ${body.contentType || 'a body without Content-Type'}; send the PDF as application/octet-stream`);
    }
    if (body.kind !== 'binary' || body.bytes.byteLength === 0) throw ValidationError.at('body', 'must be the PDF bytes (Content-Type: application/octet-stream)');
    return body.bytes;
  },
};

export const definition = route({
  method: 'POST', path: '/v1/templates/{id}/document', auth: 'bearer', tag: 'Templates',
  operationId: 'uploadTemplateDocument', summary: 'Add a document to a template, as raw PDF bytes',
  description: 'Adds one more document after the others; `?filename=` names it, else `document-N.pdf`.',
  params: IdParams,
  query: UploadQuery,
  body: rawPdf,
  requestContent: { required: true, description: 'The PDF bytes', content: { 'application/octet-stream': { jsonSchema: PDF_SCHEMA }, 'application/pdf': { jsonSchema: PDF_SCHEMA } } },
  success: { status: 201, description: 'The stored document', content: json(TemplateDocumentResponse) },
  errors: { 400: `Empty body, not a usable PDF, or more than 10 documents; ${PDF_REFUSED}`, 404: 'No such template for this application', 409: 'The template is being changed by another request', 413: 'The PDF is larger than 25 MB' },
  authoring: { kind: 'template', mode: 'full' },
  access: { table: 'write', secrets: ['JWT_SECRET'], documents: { write: ['templates/'], delete: ['templates/'] }, ...pdfHandling },
}, (deps) => async ({ params, query, body, principal }) => {
  const document = await uploadTemplateDocument(deps, principal.appId, params.id, { bytes: body, filename: query.filename ?? null });
  return respond(TemplateDocumentResponse, { documentId: document.id, name: documentName(document), sha256: document.sha256, pageCount: document.pageCount }, 201);
});

export const handler = lambda(definition);
