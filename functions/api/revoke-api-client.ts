import { bearerAccess, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { noContent } from '#shared/http/responses.ts';
import { revokeClient } from '#shared/console/team-actions.ts';
import { ClientParams } from '#shared/console/team-schemas.ts';

export const definition = route({
  method: 'DELETE', path: '/v1/console/clients/{clientId}', auth: 'bearer', tag: 'Console', adminOnly: true,
  operationId: 'revokeApiClient', summary: 'Revoke API client credentials',
  description: "No new tokens for it, and the tokens it holds are refused from the next request on. The application's own client is rotated, not revoked. Administrators only.",
  params: ClientParams,
  success: { status: 204, description: 'Revoked' },
  errors: { 404: 'No such client in this application', 409: "The application's own client" },
  access: { ...bearerAccess, table: 'write' },
}, (deps) => async ({ params, principal }) => {
  await revokeClient(deps, principal.appId, params.clientId);
  return noContent();
});

export const handler = lambda(definition);
