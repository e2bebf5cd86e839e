import { listTemplates } from '#shared/templates/template-actions.ts';
import { bearerAccess, json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { templateView } from '#shared/templates/template-views.ts';
import { ListTemplatesQuery } from '#shared/templates/template-schemas.ts';
import { TemplateListResponse } from '#shared/templates/template-response-schemas.ts';

export const definition = route({
  method: 'GET', path: '/v1/templates', auth: 'bearer', tag: 'Templates',
  operationId: 'listTemplates', summary: "List a tenant's templates, newest first",
  description: 'Templates of one `tenantId`, newest first, paged with `page` and `pageSize` (at most 100), with the tenant\'s `total`.',
  query: ListTemplatesQuery,
  success: { status: 200, description: "A page of the tenant's templates, newest first", content: json(TemplateListResponse) },
  errors: { 400: 'Invalid query parameter' },
  access: { ...bearerAccess },
}, (deps) => async ({ query, principal }) => {
  const { tenantId, page, pageSize } = query;
  const result = await listTemplates(deps, { appId: principal.appId, tenantId, page, pageSize });
  return respond(TemplateListResponse, { data: result.data.map(templateView), total: result.total, page, pageSize });
});

export const handler = lambda(definition);
