import { deleteWebhook } from '#domain/use-cases/webhooks.ts';
import { bearerAccess, route } from '#http/endpoint.ts';
import { lambda } from '#http/lambda.ts';
import { noContent } from '#http/responses.ts';
import { IdParams } from '#schemas/common.ts';

export const definition = route({
  method: 'DELETE', path: '/v1/webhooks/{id}', auth: 'bearer', tag: 'Webhooks',
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
