import { listBulkEnvelopes } from '#shared/templates/bulk-send-actions.ts';
import { bearerAccess, json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { IdParams } from '#shared/http/common-schemas.ts';
import { PageQuery } from '#shared/templates/template-schemas.ts';
import { BulkSendEnvelopesResponse } from '#shared/templates/template-response-schemas.ts';

export const definition = route({
  method: 'GET', path: '/v1/bulk-sends/{id}/envelopes', auth: 'bearer', tag: 'Templates',
  operationId: 'listBulkSendEnvelopes', summary: 'The envelopes a bulk send made, by row',
  description: 'The envelopes a bulk send made, by row number, with their status, paged with `page` and `pageSize`.',
  params: IdParams,
  query: PageQuery,
  success: { status: 200, description: 'A page of `{ row, envelopeId, status }`, by row', content: json(BulkSendEnvelopesResponse) },
  errors: { 400: 'Invalid query parameter', 404: 'No such bulk send for this application' },
  access: { ...bearerAccess },
}, (deps) => async ({ params, query, principal }) =>
  respond(BulkSendEnvelopesResponse, await listBulkEnvelopes(deps, principal.appId, params.id, query.page, query.pageSize)));

export const handler = lambda(definition);
