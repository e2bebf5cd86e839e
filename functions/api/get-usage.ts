import { usageSummary } from '#domain/use-cases/console.ts';
import { bearerAuth } from '#http/auth.ts';
import { lambda } from '#http/lambda.ts';
import { ok } from '#http/responses.ts';
import { route } from '#http/route.ts';
import type { Deps } from '#shared/deps.ts';

export const createHandler = (deps: Deps) =>
  route({ authenticate: bearerAuth(deps) }, async ({ principal }) => ok(await usageSummary(deps, principal.appId)));

export const handler = lambda(createHandler);
