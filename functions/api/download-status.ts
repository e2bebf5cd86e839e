import { downloadStatus } from '#domain/use-cases/download.ts';
import { lambda } from '#http/lambda.ts';
import { ok } from '#http/responses.ts';
import { route } from '#http/route.ts';
import { TokenParams } from '#schemas/signing.ts';
import type { Deps } from '#shared/deps.ts';

export const createHandler = (deps: Deps) =>
  route({ params: TokenParams }, async ({ params }) => ok(await downloadStatus(deps, params.token)));

export const handler = lambda(createHandler);
