import { findWebhook } from '#domain/use-cases/webhooks.ts';
import { bearerAuth } from '#http/auth.ts';
import { lambda } from '#http/lambda.ts';
import { ok } from '#http/responses.ts';
import { route } from '#http/route.ts';
import { deliveryView } from '#http/views.ts';
import { IdParams } from '#schemas/common.ts';
import { DeliveriesQuery } from '#schemas/webhooks.ts';
import type { Deps } from '#shared/deps.ts';

export const createHandler = (deps: Deps) =>
  route({ authenticate: bearerAuth(deps), params: IdParams, query: DeliveriesQuery }, async ({ params, query, principal }) => {
    const webhook = await findWebhook(deps, principal.appId, params.id);
    const deliveries = await deps.webhooks.deliveries(principal.appId, webhook.id, query.status ?? null, query.limit);
    return ok({ data: deliveries.map(deliveryView) });
  });

export const handler = lambda(createHandler);
