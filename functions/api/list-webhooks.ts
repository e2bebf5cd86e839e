import { bearerAccess, json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { webhookView } from '#shared/webhooks/webhook-views.ts';
import { WebhookListResponse } from '#shared/webhooks/webhook-response-schemas.ts';

export const definition = route({
  method: 'GET', path: '/v1/webhooks', auth: 'bearer', tag: 'Webhooks', adminOnly: true,
  operationId: 'listWebhooks', summary: "The application's webhooks",
  description: 'Every webhook of the calling application, with its events and retry schedule (never its secret).',
  success: { status: 200, description: "The application's webhooks (secrets are never returned)", content: json(WebhookListResponse) },
  errors: {},
  access: { ...bearerAccess },
}, (deps) => async ({ principal }) =>
  respond(WebhookListResponse, (await deps.webhooks.list(principal.appId)).map(webhookView)));

export const handler = lambda(definition);
