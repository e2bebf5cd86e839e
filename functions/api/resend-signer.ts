import { resendLink } from '#domain/use-cases/routing.ts';
import { bearerAuth } from '#http/auth.ts';
import { lambda } from '#http/lambda.ts';
import { ok } from '#http/responses.ts';
import { route } from '#http/route.ts';
import { SignerParams } from '#schemas/signing.ts';
import type { Deps } from '#shared/deps.ts';

export const createHandler = (deps: Deps) =>
  route({ authenticate: bearerAuth(deps), params: SignerParams }, async ({ params, principal, meta }) =>
    ok(await resendLink(deps, principal.appId, params.id, params.signerId, meta)));

export const handler = lambda(createHandler);
