import { readEnvelope } from '#domain/use-cases/envelopes.ts';
import { bearerAuth } from '#http/auth.ts';
import { lambda } from '#http/lambda.ts';
import { ok } from '#http/responses.ts';
import { route } from '#http/route.ts';
import { envelopeView } from '#http/views.ts';
import { IdParams } from '#schemas/common.ts';
import type { Deps } from '#shared/deps.ts';

export const createHandler = (deps: Deps) =>
  route({ authenticate: bearerAuth(deps), params: IdParams }, async ({ params, principal }) => {
    const { envelope, auditLog } = await readEnvelope(deps, principal.appId, params.id);
    return ok(envelopeView(envelope, { auditLog }));
  });

export const handler = lambda(createHandler);
