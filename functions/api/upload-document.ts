import { UnsupportedMediaType, ValidationError } from '#shared/kernel/errors.ts';
import { uploadDocument } from '#shared/envelopes/upload-actions.ts';
import type { BodyRule } from '#shared/http/body-rules.ts';
import { envelopeWrite, json, PDF_SCHEMA, pdfHandling, respond, route } from '#shared/http/endpoint.ts';
import { CONCURRENT, NO_ENVELOPE, PDF_REFUSED } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { documentUploadView } from '#shared/envelopes/envelope-views.ts';
import { IdParams } from '#shared/http/common-schemas.ts';
import { UploadQuery } from '#shared/envelopes/envelope-schemas.ts';
import { DocumentUploadResponse } from '#shared/envelopes/envelope-response-schemas.ts';

/** The raw PDF: `application/octet-stream` (decision 8) or `application/pdf`; any other type of body is a 415. */
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
  method: 'POST', path: '/v1/envelopes/{id}/document', auth: 'bearer', tag: 'Envelopes',
  operationId: 'uploadDocument', summary: 'Add a document to a draft, as raw PDF bytes',
  description: 'Adds one more document to a draft, after the others; `?filename=` names it, else `document-N.pdf`. Its text is indexed once for anchor placement.',
  params: IdParams,
  query: UploadQuery,
  body: rawPdf,
  requestContent: { required: true, description: 'The PDF bytes', content: { 'application/octet-stream': { jsonSchema: PDF_SCHEMA }, 'application/pdf': { jsonSchema: PDF_SCHEMA } } },
  success: { status: 201, description: 'The stored original document', content: json(DocumentUploadResponse) },
  errors: {
    400: `Empty body, not a usable PDF, more than 10 documents or 100 MB together, or the envelope is not in draft; ${PDF_REFUSED}`,
    404: NO_ENVELOPE,
    409: CONCURRENT,
    413: 'The PDF is larger than 25 MB',
  },
  authoring: { kind: 'envelope', mode: 'full' },
  access: { ...envelopeWrite, documents: { write: ['original/'], delete: ['original/'] }, ...pdfHandling },
}, (deps) => async ({ params, query, body, principal, meta }) => {
  const document = await uploadDocument(deps, principal.appId, params.id, { bytes: body, filename: query.filename ?? null }, meta);
  return respond(DocumentUploadResponse, documentUploadView(document), 201);
});

export const handler = lambda(definition);
