import { addTemplateFields } from '#shared/templates/template-actions.ts';
import { json, jsonBody, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { templateFieldView } from '#shared/templates/template-views.ts';
import { IdParams } from '#shared/http/common-schemas.ts';
import { AddTemplateFieldRequest } from '#shared/templates/template-schemas.ts';
import { TemplateFieldsResponse } from '#shared/templates/template-response-schemas.ts';

export const definition = route({
  method: 'POST', path: '/v1/templates/{id}/fields', auth: 'bearer', tag: 'Templates',
  operationId: 'addTemplateField', summary: 'Place a field on a template, bound to a role',
  description: 'By coordinates or by `anchor` (one field per occurrence, or the first); `documentId` is required when the template has more than one document. Answers `{ data: [field, ...] }`.',
  params: IdParams,
  body: jsonBody(AddTemplateFieldRequest),
  success: { status: 201, description: 'The fields placed', content: json(TemplateFieldsResponse) },
  errors: { 400: 'Validation error, a role or document the template lacks, a placement outside the page, or an anchor not found', 404: 'No such template for this application', 409: 'The template is being changed by another request' },
  authoring: { kind: 'template', mode: 'fields' },
  access: { table: 'write', secrets: ['JWT_SECRET'], documents: { read: ['templates/'] } },
}, (deps) => async ({ params, body, principal }) => {
  const fields = await addTemplateFields(deps, principal.appId, params.id, body);
  return respond(TemplateFieldsResponse, { data: fields.map(templateFieldView) }, 201);
});

export const handler = lambda(definition);
