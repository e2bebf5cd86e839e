import { openAuthoring } from '#shared/authoring/authoring-actions.ts';
import { AuthoringOpenResponse } from '#shared/authoring/authoring-schemas.ts';
import { json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { TokenParams } from '#shared/signing/signing-schemas.ts';

export const definition = route({
  method: 'POST', path: '/v1/authoring/{token}/open', auth: 'link', tag: 'Envelopes',
  operationId: 'openAuthoring', summary: 'The editor opens its URL (once)',
  description:
    'Called by the editor at `/author/{token}`: spends the URL and answers the session (a bearer token for this one draft or template), ' +
    'what it may do, the origins the page may post its events to and the `returnUrl`.',
  params: TokenParams,
  success: { status: 200, description: 'The authoring session', content: json(AuthoringOpenResponse) },
  errors: {
    401: 'The URL is not valid or expired unopened (`link_expired`), was already opened (`link_opened`), or its envelope is no longer a draft or its template was deleted (`link_invalid`)',
  },
  access: { table: 'read', secrets: ['JWT_SECRET', 'LINK_SECRET'] },
}, (deps) => async ({ params }) => respond(AuthoringOpenResponse, await openAuthoring(deps, params.token)));

export const handler = lambda(definition);
