import { deleteContact } from '#domain/use-cases/console.ts';
import { bearerAuth } from '#http/auth.ts';
import { lambda } from '#http/lambda.ts';
import { noContent } from '#http/responses.ts';
import { route } from '#http/route.ts';
import { IdParams } from '#schemas/common.ts';
import type { Deps } from '#shared/deps.ts';

export const createHandler = (deps: Deps) =>
  route({ authenticate: bearerAuth(deps), params: IdParams }, async ({ params, principal }) => {
    await deleteContact(deps, principal.appId, params.id);
    return noContent();
  });

export const handler = lambda(createHandler);
