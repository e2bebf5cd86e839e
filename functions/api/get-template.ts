import { readTemplate } from '#shared/templates/template-actions.ts';
import { bearerAccess, json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { templateView } from '#shared/templates/template-views.ts';
import { IdParams } from '#shared/http/common-schemas.ts';
import { TemplateResponse } from '#shared/templates/template-response-schemas.ts';

export const definition = route({
  method: 'GET', path: '/v1/templates/{id}', auth: 'bearer', tag: 'Templates',
  operationId: 'getTemplate', summary: 'Read a template',
  description: 'The template with its roles, documents and fields (bound to roles, with labels, prefills and read-only values).',
  params: IdParams,
  success: { status: 200, description: 'The template', content: json(TemplateResponse) },
  errors: { 404: 'No such template for this application' },
  authoring: { kind: 'template', mode: 'fields' },
  access: { ...bearerAccess },
}, (deps) => async ({ params, principal }) => respond(TemplateResponse, templateView(await readTemplate(deps, principal.appId, params.id))));

export const handler = lambda(definition);
