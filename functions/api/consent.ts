import { consentToSign } from '#domain/use-cases/signing.ts';
import { lambda } from '#http/lambda.ts';
import { ok } from '#http/responses.ts';
import { route } from '#http/route.ts';
import { TokenParams } from '#schemas/signing.ts';
import type { Deps } from '#shared/deps.ts';

export const createHandler = (deps: Deps) =>
  route({ params: TokenParams }, async ({ params, meta }) => ok(await consentToSign(deps, params.token, meta)));

export const handler = lambda(createHandler);
