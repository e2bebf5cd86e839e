import { updateTemplate } from '#shared/templates/template-edit-actions.ts';
import { json, jsonBody, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { templateView } from '#shared/templates/template-views.ts';
import { IdParams } from '#shared/http/common-schemas.ts';
import { UpdateTemplateRequest } from '#shared/templates/template-edit-schemas.ts';
import { TemplateResponse } from '#shared/templates/template-response-schemas.ts';

export const definition = route({
  method: 'PATCH', path: '/v1/templates/{id}', auth: 'bearer', tag: 'Templates',
  operationId: 'updateTemplate', summary: 'Change a template\'s name, subject, message or roles',
  description: 'Sets what the request gives and leaves the rest. `roles` replaces them all (as the create body takes them); a role given `renamedFrom` is that role renamed and keeps its fields; the fields of a role left out are removed with it.',
  params: IdParams,
  body: jsonBody(UpdateTemplateRequest),
  success: { status: 200, description: 'The template', content: json(TemplateResponse) },
  errors: { 400: 'Validation error, nothing to change, two roles of one name, or a rename from no role', 404: 'No such template for this application', 409: 'The template is being changed by another request' },
  authoring: { kind: 'template', mode: 'full' },
  access: { table: 'write', secrets: ['JWT_SECRET'] },
}, (deps) => async ({ params, body, principal }) =>
  respond(TemplateResponse, templateView(await updateTemplate(deps, principal.appId, params.id, body))));

export const handler = lambda(definition);
