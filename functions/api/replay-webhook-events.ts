import { MAX_REPLAY_EVENTS, replayEvents } from '#shared/webhooks/catch-up-actions.ts';
import { bearerAccess, json, jsonBody, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { IdParams } from '#shared/http/common-schemas.ts';
import { ReplayResponse } from '#shared/webhooks/webhook-response-schemas.ts';
import { ReplayRequest } from '#shared/webhooks/webhook-schemas.ts';

export const definition = route({
  method: 'POST', path: '/v1/webhooks/{id}/replay', auth: 'bearer', tag: 'Webhooks', adminOnly: true,
  operationId: 'replayWebhookEvents', summary: 'Deliver the events of a time range again to this webhook',
  description:
    'Queues a new delivery of every event created from `since` (at most 30 days ago) until `until` (default: now) that this webhook ' +
    `subscribes to, oldest first, at most ${String(MAX_REPLAY_EVENTS)} per request (\`more\`: replay the rest). Each carries the event's ` +
    'own id and body, signed afresh, and follows the usual retry schedule; it is listed among the webhook\'s deliveries.',
  params: IdParams,
  body: jsonBody(ReplayRequest),
  success: { status: 202, description: 'The deliveries are queued', content: json(ReplayResponse) },
  errors: { 400: 'A malformed timestamp, or `until` not after `since`', 404: 'No such webhook for this application' },
  // Creates delivery records and starts a retry workflow for each.
  access: { ...bearerAccess, table: 'write', starts: ['webhookRetry'], timeoutSeconds: 29 },
}, (deps) => async ({ params, body, principal }) =>
  respond(ReplayResponse, await replayEvents(deps, principal.appId, params.id, { since: body.since, until: body.until }), 202));

export const handler = lambda(definition);
