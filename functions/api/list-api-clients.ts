import { bearerAccess, json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { listClients } from '#shared/console/team-actions.ts';
import { ApiClientListResponse } from '#shared/console/team-schemas.ts';

export const definition = route({
  method: 'GET', path: '/v1/console/clients', auth: 'bearer', tag: 'Console', adminOnly: true,
  operationId: 'listApiClients', summary: "The application's API clients",
  description: "The application's own client (`primary`) first, then those created here, oldest first; never a secret. Administrators only.",
  success: { status: 200, description: 'The clients', content: json(ApiClientListResponse) },
  errors: {},
  access: { ...bearerAccess },
}, (deps) => async ({ principal }) => respond(ApiClientListResponse, await listClients(deps, principal.appId)));

export const handler = lambda(definition);
