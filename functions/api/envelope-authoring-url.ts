import { envelopeAuthoringUrl } from '#shared/authoring/authoring-actions.ts';
import { AuthoringUrlRequest, AuthoringUrlResponse } from '#shared/authoring/authoring-schemas.ts';
import { envelopeWrite, json, jsonBody, respond, route } from '#shared/http/endpoint.ts';
import { CONCURRENT, NO_ENVELOPE } from '#shared/http/error-docs.ts';
import { IdParams } from '#shared/http/common-schemas.ts';
import { lambda } from '#shared/http/lambda.ts';

export const definition = route({
  method: 'POST', path: '/v1/envelopes/{id}/authoring-url', auth: 'bearer', tag: 'Envelopes',
  operationId: 'createEnvelopeAuthoringUrl', summary: 'A URL of the editor for a draft (embedded authoring)',
  description:
    'Someone places the fields (and in `full` mode changes the subject, message, signers and documents, and sends) by pointing, in your app. ' +
    'The URL is valid 10 minutes until it is first opened, and opens once; the session it opens may touch only this draft, lives while it is ' +
    "used (60 minutes idle, at most 8 hours), and its changes go through these same routes (the audit log records them as your application's). " +
    "Frame it on one of the application's `embedOrigins`; the page posts `authoring.loaded`, `authoring.saved`, `authoring.sent`, `authoring.closed` and `error` to the parent.",
  params: IdParams,
  body: jsonBody(AuthoringUrlRequest, { optional: true }),
  success: { status: 200, description: 'The URL and when it stops working unopened', content: json(AuthoringUrlResponse) },
  errors: { 400: 'Validation error (a `returnUrl` that is not an HTTPS URL), or the envelope is not in draft', 404: NO_ENVELOPE, 409: CONCURRENT },
  access: { ...envelopeWrite, secrets: ['JWT_SECRET', 'LINK_SECRET'] },
}, (deps) => async ({ params, body, principal, meta }) =>
  respond(AuthoringUrlResponse, await envelopeAuthoringUrl(deps, principal.appId, params.id, body, meta)));

export const handler = lambda(definition);
