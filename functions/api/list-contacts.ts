import { listContacts } from '#domain/use-cases/console.ts';
import { bearerAuth } from '#http/auth.ts';
import { lambda } from '#http/lambda.ts';
import { ok } from '#http/responses.ts';
import { route } from '#http/route.ts';
import { ContactsQuery } from '#schemas/console.ts';
import type { Deps } from '#shared/deps.ts';

export const createHandler = (deps: Deps) =>
  route({ authenticate: bearerAuth(deps), query: ContactsQuery }, async ({ query, principal }) =>
    ok(await listContacts(deps, principal.appId, query.search ?? null)));

export const handler = lambda(createHandler);
