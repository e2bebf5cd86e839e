import { readTemplate } from '#domain/use-cases/templates.ts';
import { bearerAccess, json, respond, route } from '#http/endpoint.ts';
import { lambda } from '#http/lambda.ts';
import { templateView } from '#http/template-views.ts';
import { IdParams } from '#schemas/common.ts';
import { TemplateResponse } from '#schemas/template-responses.ts';

export const definition = route({
  method: 'GET', path: '/v1/templates/{id}', auth: 'bearer', tag: 'Templates',
  operationId: 'getTemplate', summary: 'Read a template',
  description: 'The template with its roles, documents and fields (bound to roles, with labels, prefills and read-only values).',
  params: IdParams,
  success: { status: 200, description: 'The template', content: json(TemplateResponse) },
  errors: { 404: 'No such template for this application' },
  access: { ...bearerAccess },
}, (deps) => async ({ params, principal }) => respond(TemplateResponse, templateView(await readTemplate(deps, principal.appId, params.id))));

export const handler = lambda(definition);
