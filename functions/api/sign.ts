import { signDocument } from '#domain/use-cases/signing.ts';
import { lambda } from '#http/lambda.ts';
import { ok } from '#http/responses.ts';
import { jsonBody, route } from '#http/route.ts';
import { SignRequest, TokenParams } from '#schemas/signing.ts';
import type { Deps } from '#shared/deps.ts';

export const createHandler = (deps: Deps) =>
  route({ params: TokenParams, body: jsonBody(SignRequest) }, async ({ params, body, meta }) =>
    ok(await signDocument(deps, params.token, body, meta)));

export const handler = lambda(createHandler);
