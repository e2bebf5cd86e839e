import { bearerAuth } from '#http/auth.ts';
import { lambda } from '#http/lambda.ts';
import { ok } from '#http/responses.ts';
import { route } from '#http/route.ts';
import { TenantParams } from '#schemas/tenants.ts';
import type { Deps } from '#shared/deps.ts';

/** A tenant's settings: the stored ones, or the defaults for a tenant that has set none. */
export const createHandler = (deps: Deps) =>
  route({ authenticate: bearerAuth(deps), params: TenantParams }, async ({ params, principal }) => {
    const { appId: _app, ...settings } = await deps.tenants.get(principal.appId, params.tenantId);
    return ok(settings);
  });

export const handler = lambda(createHandler);
