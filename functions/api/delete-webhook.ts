import { deleteWebhook } from '#shared/webhooks/webhook-actions.ts';
import { bearerAccess, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { noContent } from '#shared/http/responses.ts';
import { IdParams } from '#shared/http/common-schemas.ts';

export const definition = route({
  method: 'DELETE', path: '/v1/webhooks/{id}', auth: 'bearer', tag: 'Webhooks', adminOnly: true,
  operationId: 'deleteWebhook', summary: 'Remove a webhook',
  description: 'Removes the webhook: no further deliveries are made to it.',
  params: IdParams,
  success: { status: 204, description: 'Deleted; no more deliveries start for it' },
  errors: { 404: 'No such webhook for this application' },
  access: { ...bearerAccess, table: 'write' },
}, (deps) => async ({ params, principal }) => {
  await deleteWebhook(deps, principal.appId, params.id);
  return noContent();
});

export const handler = lambda(definition);
