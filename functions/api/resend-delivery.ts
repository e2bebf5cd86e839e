import { resendDelivery } from '#shared/webhooks/webhook-actions.ts';
import { bearerAccess, json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { deliveryView } from '#shared/webhooks/webhook-views.ts';
import { DeliveryResponse } from '#shared/webhooks/webhook-response-schemas.ts';
import { DeliveryParams } from '#shared/webhooks/webhook-schemas.ts';

export const definition = route({
  method: 'POST', path: '/v1/webhooks/{id}/deliveries/{deliveryId}/resend', auth: 'bearer', tag: 'Webhooks', adminOnly: true,
  operationId: 'resendDelivery', summary: 'Send a delivery again now',
  description: 'Sends the delivery again now, with the same body and event id; the answer says how it went.',
  params: DeliveryParams,
  success: { status: 200, description: 'The delivery after the attempt', content: json(DeliveryResponse) },
  errors: { 404: 'No such webhook or delivery for this application' },
  // One attempt now: opens the signing secret (DATA_KEY) and POSTs to the endpoint (outbound internet, no VPC).
  access: { ...bearerAccess, table: 'write', secrets: ['JWT_SECRET', 'DATA_KEY'] },
}, (deps) => async ({ params, principal }) =>
  respond(DeliveryResponse, deliveryView(await resendDelivery(deps, principal.appId, params.id, params.deliveryId))));

export const handler = lambda(definition);
