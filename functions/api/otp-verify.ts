import { verifyCode } from '#domain/use-cases/signing.ts';
import { lambda } from '#http/lambda.ts';
import { ok } from '#http/responses.ts';
import { jsonBody, route } from '#http/route.ts';
import { OtpVerifyRequest, TokenParams } from '#schemas/signing.ts';
import type { Deps } from '#shared/deps.ts';

export const createHandler = (deps: Deps) =>
  route({ params: TokenParams, body: jsonBody(OtpVerifyRequest) }, async ({ params, body, meta }) =>
    ok(await verifyCode(deps, params.token, body.code, meta)));

export const handler = lambda(createHandler);
