import { findWebhook } from '#shared/webhooks/webhook-actions.ts';
import { bearerAccess, json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { deliveryView } from '#shared/webhooks/webhook-views.ts';
import { IdParams } from '#shared/http/common-schemas.ts';
import { DeliveryListResponse } from '#shared/webhooks/webhook-response-schemas.ts';
import { DeliveriesQuery } from '#shared/webhooks/webhook-schemas.ts';

export const definition = route({
  method: 'GET', path: '/v1/webhooks/{id}/deliveries', auth: 'bearer', tag: 'Webhooks', adminOnly: true,
  operationId: 'listDeliveries', summary: "A webhook's deliveries, newest first",
  description: 'The failed-deliveries console, newest first: `?status=failed` lists what needs a resend.',
  params: IdParams,
  query: DeliveriesQuery,
  success: { status: 200, description: "The webhook's deliveries, newest first", content: json(DeliveryListResponse) },
  errors: { 400: 'Invalid query parameter', 404: 'No such webhook for this application' },
  access: { ...bearerAccess },
}, (deps) => async ({ params, query, principal }) => {
  const webhook = await findWebhook(deps, principal.appId, params.id);
  const deliveries = await deps.webhooks.deliveries(principal.appId, webhook.id, query.status ?? null, query.limit);
  return respond(DeliveryListResponse, { data: deliveries.map(deliveryView) });
});

export const handler = lambda(definition);
