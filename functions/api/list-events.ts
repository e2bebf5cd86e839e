import { listEvents } from '#shared/webhooks/catch-up-actions.ts';
import { eventObject } from '#shared/webhooks/webhooks.ts';
import { bearerAccess, json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { EventListResponse } from '#shared/webhooks/webhook-response-schemas.ts';
import { encodeCursor, EventsQuery } from '#shared/webhooks/webhook-schemas.ts';

export const definition = route({
  method: 'GET', path: '/v1/events', auth: 'bearer', tag: 'Webhooks',
  operationId: 'listEvents', summary: "The application's events of the last 30 days, oldest first",
  description:
    'Every webhook event of the application (all its tenants) from the last 30 days, oldest first, each in the body its deliveries ' +
    'carry: a receiver that was down catches up here. Filter by `type`, `envelopeId`, `since` and `until`; page with `limit` (at most ' +
    '100) and `after` = the previous page\'s `nextCursor`. Keep the last `nextCursor` to poll for newer events: no event is skipped or ' +
    'listed twice along one chain of cursors, even while new ones are written. An event is listed a few seconds after its change.',
  query: EventsQuery,
  success: { status: 200, description: 'A page of events, oldest first', content: json(EventListResponse) },
  errors: { 400: 'Invalid query parameter (an unknown event type, a malformed id, timestamp or cursor)' },
  access: { ...bearerAccess },
}, (deps) => async ({ query, principal }) => {
  const page = await listEvents(deps, principal.appId, {
    type: query.type ?? null, envelopeId: query.envelopeId ?? null, since: query.since ?? null, until: query.until ?? null, after: query.after ?? null, limit: query.limit,
  });
  return respond(EventListResponse, { data: page.data.map((e) => eventObject(e, deps.config)), nextCursor: encodeCursor(page.position), hasMore: page.hasMore });
});

export const handler = lambda(definition);
