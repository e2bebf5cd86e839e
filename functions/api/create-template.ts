import { ValidationError } from '#shared/kernel/errors.ts';
import type { UploadInput } from '#shared/envelopes/envelope-inputs.ts';
import { createTemplate } from '#shared/templates/template-actions.ts';
import type { BodyRule } from '#shared/http/body-rules.ts';
import { json, PDF_SCHEMA, pdfHandling, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { templateView } from '#shared/templates/template-views.ts';
import { parseWith } from '#shared/http/validation.ts';
import { CreateTemplateRequest } from '#shared/templates/template-schemas.ts';
import { TemplateResponse } from '#shared/templates/template-response-schemas.ts';
import { PDF_REFUSED } from '#shared/http/error-docs.ts';

interface CreateInput { request: ReturnType<typeof parseRequest>; files: UploadInput[] }

const parseRequest = (value: unknown) => parseWith(CreateTemplateRequest, value);

/** Multipart (`file` parts and a `data` JSON part with the fields) or JSON without fields. */
const createBody: BodyRule<CreateInput> = {
  accepts: ['json', 'multipart'],
  read: (body) => {
    if (body.kind === 'json') return { request: parseRequest(body.value), files: [] };
    if (body.kind !== 'multipart') throw ValidationError.at('body', 'must be JSON or multipart/form-data');
    let data: unknown;
    try {
      data = JSON.parse(body.fields.data ?? '') as unknown;
    } catch {
      throw ValidationError.at('data', 'is required: the template as JSON');
    }
    const files = body.files.filter((f) => f.field === 'file').map((f) => ({ bytes: f.bytes, filename: f.filename }));
    const request = parseRequest(data);
    if (files.length === 0) throw ValidationError.at('file', 'is required: attach the PDF as the `file` part');
    return { request, files };
  },
};

export const definition = route({
  method: 'POST', path: '/v1/templates', auth: 'bearer', tag: 'Templates',
  operationId: 'createTemplate', summary: 'Create a template (multipart with the PDFs and fields, or JSON with roles only)',
  description: 'Roles instead of signers; fields bound to roles, by coordinates or anchors, with labels, prefills and read-only values. '
    + 'A JSON create carries no fields (400): add documents with `POST /v1/templates/{id}/document` and fields with `POST /v1/templates/{id}/fields`.',
  body: createBody,
  requestContent: {
    required: true,
    content: {
      'multipart/form-data': {
        jsonSchema: { type: 'object', required: ['file', 'data'], properties: { file: PDF_SCHEMA, data: { type: 'string', contentMediaType: 'application/json' } } },
        encoding: { file: { contentType: 'application/pdf' }, data: { contentType: 'application/json' } },
      },
      ...json(CreateTemplateRequest),
    },
  },
  success: { status: 201, description: 'The template', content: json(TemplateResponse) },
  errors: { 400: `Validation error, a field on no role or document, or a file is not a usable PDF; ${PDF_REFUSED}`, 413: 'A file is larger than 25 MB' },
  access: { table: 'write', secrets: ['JWT_SECRET'], documents: { write: ['templates/'], delete: ['templates/'] }, ...pdfHandling },
}, (deps) => async ({ body, principal }) =>
  respond(TemplateResponse, templateView(await createTemplate(deps, principal.appId, body.request, body.files)), 201));

export const handler = lambda(definition);
