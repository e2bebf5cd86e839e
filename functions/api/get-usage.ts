import { usageSummary } from '#shared/console/console-actions.ts';
import { bearerAccess, json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { UsageResponse } from '#shared/console/console-response-schemas.ts';

export const definition = route({
  method: 'GET', path: '/v1/console/usage', auth: 'bearer', tag: 'Console',
  operationId: 'getUsage', summary: "The application's usage in the current billing period",
  description:
    'Counts envelopes sent in the current calendar month (UTC). With `overageAllowed` false, a send that would go beyond `envelopesLimit` ' +
    'is refused with 403 `quota_exceeded`.',
  success: { status: 200, description: 'The usage summary of the current billing period', content: json(UsageResponse) },
  errors: {},
  access: { ...bearerAccess },
}, (deps) => async ({ principal }) => respond(UsageResponse, await usageSummary(deps, principal.appId)));

export const handler = lambda(definition);
