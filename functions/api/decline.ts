import { declineToSign } from '#domain/use-cases/signing.ts';
import { lambda } from '#http/lambda.ts';
import { ok } from '#http/responses.ts';
import { jsonBody, route } from '#http/route.ts';
import { DeclineRequest, TokenParams } from '#schemas/signing.ts';
import type { Deps } from '#shared/deps.ts';

export const createHandler = (deps: Deps) =>
  route({ params: TokenParams, body: jsonBody(DeclineRequest, { optional: true }) }, async ({ params, body, meta }) =>
    ok(await declineToSign(deps, params.token, body.reason, meta)));

export const handler = lambda(createHandler);
