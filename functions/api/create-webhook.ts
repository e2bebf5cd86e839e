import { createWebhook } from '#domain/use-cases/webhooks.ts';
import { bearerAuth } from '#http/auth.ts';
import { lambda } from '#http/lambda.ts';
import { created } from '#http/responses.ts';
import { jsonBody, route } from '#http/route.ts';
import { webhookView } from '#http/views.ts';
import { CreateWebhookRequest } from '#schemas/webhooks.ts';
import type { Deps } from '#shared/deps.ts';

export const createHandler = (deps: Deps) =>
  route({ authenticate: bearerAuth(deps), body: jsonBody(CreateWebhookRequest) }, async ({ body, principal }) =>
    created(webhookView(await createWebhook(deps, principal.appId, body))));

export const handler = lambda(createHandler);
