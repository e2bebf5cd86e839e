import { templateAuthoringUrl } from '#shared/authoring/authoring-actions.ts';
import { AuthoringUrlRequest, AuthoringUrlResponse } from '#shared/authoring/authoring-schemas.ts';
import { bearerAccess, json, jsonBody, respond, route } from '#shared/http/endpoint.ts';
import { IdParams } from '#shared/http/common-schemas.ts';
import { lambda } from '#shared/http/lambda.ts';

export const definition = route({
  method: 'POST', path: '/v1/templates/{id}/authoring-url', auth: 'bearer', tag: 'Templates',
  operationId: 'createTemplateAuthoringUrl', summary: 'A URL of the editor for a template (embedded authoring)',
  description:
    'As for a draft (`POST /v1/envelopes/{id}/authoring-url`): fields are bound to the template\'s roles, and `full` mode edits the name, ' +
    'subject, message and roles. Valid 10 minutes until opened, opened once; the session may touch only this template.',
  params: IdParams,
  body: jsonBody(AuthoringUrlRequest, { optional: true }),
  success: { status: 200, description: 'The URL and when it stops working unopened', content: json(AuthoringUrlResponse) },
  errors: { 400: 'Validation error (a `returnUrl` that is not an HTTPS URL)', 404: 'No such template for this application' },
  access: { ...bearerAccess, secrets: ['JWT_SECRET', 'LINK_SECRET'] },
}, (deps) => async ({ params, body, principal }) =>
  respond(AuthoringUrlResponse, await templateAuthoringUrl(deps, principal.appId, params.id, body)));

export const handler = lambda(definition);
