import { resendDelivery } from '#domain/use-cases/webhooks.ts';
import { bearerAuth } from '#http/auth.ts';
import { lambda } from '#http/lambda.ts';
import { ok } from '#http/responses.ts';
import { route } from '#http/route.ts';
import { deliveryView } from '#http/views.ts';
import { DeliveryParams } from '#schemas/webhooks.ts';
import type { Deps } from '#shared/deps.ts';

export const createHandler = (deps: Deps) =>
  route({ authenticate: bearerAuth(deps), params: DeliveryParams }, async ({ params, principal }) =>
    ok(deliveryView(await resendDelivery(deps, principal.appId, params.id, params.deliveryId))));

export const handler = lambda(createHandler);
