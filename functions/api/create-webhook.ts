import { createWebhook } from '#shared/webhooks/webhook-actions.ts';
import { bearerAccess, json, jsonBody, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { webhookView } from '#shared/webhooks/webhook-views.ts';
import { WebhookResponse } from '#shared/webhooks/webhook-response-schemas.ts';
import { CreateWebhookRequest } from '#shared/webhooks/webhook-schemas.ts';

export const definition = route({
  method: 'POST', path: '/v1/webhooks', auth: 'bearer', tag: 'Webhooks', adminOnly: true,
  operationId: 'createWebhook', summary: 'Subscribe an HTTPS endpoint to events',
  description:
    'Subscribes an HTTPS endpoint to events. Deliveries are signed with `X-Service-Signature: sha256=<hex HMAC-SHA256 of the body>` ' +
    'and with `X-Service-Signature-V2: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` (refuse a `t` older than a few minutes), ' +
    'keyed with `secret` when given, else with the client secret of the application; `rotate-secret` replaces the key.',
  body: jsonBody(CreateWebhookRequest),
  success: { status: 201, description: 'The webhook', content: json(WebhookResponse) },
  errors: { 400: 'Not an HTTPS URL, an unknown event name, no events, or a secret that is too short' },
  // A webhook's own secret is stored sealed under DATA_KEY.
  access: { ...bearerAccess, table: 'write', secrets: ['JWT_SECRET', 'DATA_KEY'] },
}, (deps) => async ({ body, principal }) =>
  respond(WebhookResponse, webhookView(await createWebhook(deps, principal.appId, body)), 201));

export const handler = lambda(definition);
