import { listEnvelopes } from '#shared/envelopes/envelope-actions.ts';
import { bearerAccess, json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { envelopeView } from '#shared/envelopes/envelope-views.ts';
import { ListEnvelopesQuery } from '#shared/envelopes/envelope-schemas.ts';
import { EnvelopeListResponse } from '#shared/envelopes/envelope-response-schemas.ts';

export const definition = route({
  method: 'GET', path: '/v1/envelopes', auth: 'bearer', tag: 'Envelopes',
  operationId: 'listEnvelopes', summary: "List a tenant's envelopes, newest first",
  description: 'Envelopes of one `tenantId`, optionally of one `status` and matching `q` (part of the subject or of a signer\'s email, any case; among the tenant\'s newest 5,000), newest first, paged with `page` and `pageSize` (at most 100). The list carries no audit log: read one envelope for it.',
  query: ListEnvelopesQuery,
  success: { status: 200, description: "A page of the tenant's envelopes, newest first", content: json(EnvelopeListResponse) },
  errors: { 400: 'Invalid query parameter' },
  access: { ...bearerAccess },
}, (deps) => async ({ query, principal }) => {
  const { page, pageSize, tenantId } = query;
  const result = await listEnvelopes(deps, { appId: principal.appId, tenantId, status: query.status ?? null, search: query.q ?? null, page, pageSize });
  return respond(EnvelopeListResponse, { data: result.data.map((e) => envelopeView(e)), total: result.total, page, pageSize });
});

export const handler = lambda(definition);
