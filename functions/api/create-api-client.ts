import { bearerAccess, json, jsonBody, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { createClient } from '#shared/console/team-actions.ts';
import { CreateApiClientRequest, CreatedApiClientResponse } from '#shared/console/team-schemas.ts';

export const definition = route({
  method: 'POST', path: '/v1/console/clients', auth: 'bearer', tag: 'Console', adminOnly: true,
  operationId: 'createApiClient', summary: 'Create API client credentials',
  description: 'A further client id and secret for `POST /oauth/token`. The secret is in this answer only (stored hashed); keep it now. Administrators only.',
  body: jsonBody(CreateApiClientRequest),
  success: { status: 201, description: 'Created, with its secret', content: json(CreatedApiClientResponse) },
  errors: { 400: 'No name' },
  access: { ...bearerAccess, table: 'write' },
  withheldFromReplay: ['clientSecret'],
}, (deps) => async ({ body, principal }) => respond(CreatedApiClientResponse, await createClient(deps, principal.appId, body.name), 201, { 'cache-control': 'no-store' }));

export const handler = lambda(definition);
