import { replaceTemplateField } from '#shared/templates/template-edit-actions.ts';
import { json, jsonBody, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { templateFieldView } from '#shared/templates/template-views.ts';
import { FieldParams } from '#shared/envelopes/draft-edit-schemas.ts';
import { ReplaceTemplateFieldRequest } from '#shared/templates/template-edit-schemas.ts';
import { TemplateResponse } from '#shared/templates/template-response-schemas.ts';

const TemplateFieldResponse = TemplateResponse.entries.fields.item;

export const definition = route({
  method: 'PUT', path: '/v1/templates/{id}/fields/{fieldId}', auth: 'bearer', tag: 'Templates',
  operationId: 'replaceTemplateField', summary: 'Move, resize or change a field of a template',
  description: 'Replaces the field\'s placement (by coordinates), type, role, label, `required`, value and `readOnly`, checked as a new field is. Without `documentId` it stays on its document.',
  params: FieldParams,
  body: jsonBody(ReplaceTemplateFieldRequest),
  success: { status: 200, description: 'The field as it is now', content: json(TemplateFieldResponse) },
  errors: { 400: 'Validation error, a role or document the template lacks, or a placement outside the page', 404: 'No such template for this application, or no such field on it', 409: 'The template is being changed by another request' },
  authoring: { kind: 'template', mode: 'fields' },
  access: { table: 'write', secrets: ['JWT_SECRET'], documents: { read: ['templates/'] } },
}, (deps) => async ({ params, body, principal }) =>
  respond(TemplateFieldResponse, templateFieldView(await replaceTemplateField(deps, principal.appId, params.id, params.fieldId, body))));

export const handler = lambda(definition);
