import { saveContact } from '#domain/use-cases/console.ts';
import { bearerAuth } from '#http/auth.ts';
import { lambda } from '#http/lambda.ts';
import { ok } from '#http/responses.ts';
import { jsonBody, route } from '#http/route.ts';
import { ContactRequest } from '#schemas/console.ts';
import type { Deps } from '#shared/deps.ts';

/** 200 whether created or updated (spec 4.6): the contact is keyed by (application, email). */
export const createHandler = (deps: Deps) =>
  route({ authenticate: bearerAuth(deps), body: jsonBody(ContactRequest) }, async ({ body, principal }) =>
    ok(await saveContact(deps, principal.appId, body)));

export const handler = lambda(createHandler);
