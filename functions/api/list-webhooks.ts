import { bearerAuth } from '#http/auth.ts';
import { lambda } from '#http/lambda.ts';
import { ok } from '#http/responses.ts';
import { route } from '#http/route.ts';
import { webhookView } from '#http/views.ts';
import type { Deps } from '#shared/deps.ts';

export const createHandler = (deps: Deps) =>
  route({ authenticate: bearerAuth(deps) }, async ({ principal }) => ok((await deps.webhooks.list(principal.appId)).map(webhookView)));

export const handler = lambda(createHandler);
