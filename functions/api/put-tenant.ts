import { bearerAuth } from '#http/auth.ts';
import { lambda } from '#http/lambda.ts';
import { ok } from '#http/responses.ts';
import { jsonBody, route } from '#http/route.ts';
import { TenantParams, TenantSettingsRequest } from '#schemas/tenants.ts';
import type { Deps } from '#shared/deps.ts';

/** Sets a tenant's defaults; envelopes created from now on take them (existing ones keep theirs). */
export const createHandler = (deps: Deps) =>
  route({ authenticate: bearerAuth(deps), params: TenantParams, body: jsonBody(TenantSettingsRequest) }, async ({ params, body, principal }) => {
    const current = await deps.tenants.get(principal.appId, params.tenantId);
    const next = { ...current, ...body };
    await deps.tenants.put(next);
    const { appId: _app, ...settings } = next;
    return ok(settings);
  });

export const handler = lambda(createHandler);
