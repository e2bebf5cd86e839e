import { listEnvelopes } from '#domain/use-cases/envelopes.ts';
import { bearerAuth } from '#http/auth.ts';
import { lambda } from '#http/lambda.ts';
import { ok } from '#http/responses.ts';
import { route } from '#http/route.ts';
import { envelopeView } from '#http/views.ts';
import { ListEnvelopesQuery } from '#schemas/envelopes.ts';
import type { Deps } from '#shared/deps.ts';

export const createHandler = (deps: Deps) =>
  route({ authenticate: bearerAuth(deps), query: ListEnvelopesQuery }, async ({ query, principal }) => {
    const { page, pageSize, tenantId } = query;
    const result = await listEnvelopes(deps, { appId: principal.appId, tenantId, status: query.status ?? null, page, pageSize });
    return ok({ data: result.data.map((e) => envelopeView(e)), total: result.total, page, pageSize });
  });

export const handler = lambda(createHandler);
