import { sendEnvelopeNow } from '#shared/envelopes/envelope-actions.ts';
import { envelopeWrite, invites, json, jsonBody, respond, route } from '#shared/http/endpoint.ts';
import { CONCURRENT, NO_ENVELOPE } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { withCheckedApplication } from '#shared/http/app-cache.ts';
import { envelopeView } from '#shared/envelopes/envelope-views.ts';
import { IdParams } from '#shared/http/common-schemas.ts';
import { SendRequest } from '#shared/envelopes/envelope-schemas.ts';
import { EnvelopeResponse } from '#shared/envelopes/envelope-response-schemas.ts';

export const definition = route({
  method: 'POST', path: '/v1/envelopes/{id}/send', auth: 'bearer', tag: 'Envelopes',
  operationId: 'sendEnvelope', summary: 'Send a draft envelope to its first routing group',
  description: "Invites the lowest routing-order group by email (and SMS for `sms_otp` signers with a phone); the answer carries each of those signers' `signingUrl` (null for later groups, invited when the group before them has signed). The envelope needs a document, and every signer a field.",
  params: IdParams,
  body: jsonBody(SendRequest, { optional: true }),
  success: { status: 200, description: 'The sent envelope; `signers[].signingUrl` carries the first routing group\'s links', content: json(EnvelopeResponse) },
  errors: { 400: 'Not in draft, or a signer without fields, or no signers or fields', 403: 'Suspended application or envelope quota reached', 404: NO_ENVELOPE, 409: CONCURRENT },
  authoring: { kind: 'envelope', mode: 'full' },
  access: { ...envelopeWrite, ...invites },
}, (deps) => async ({ params, body, principal, application, meta }) => {
  // The quota's plan is the application record the pipeline checked for this request.
  const { envelope, signingUrls } = await sendEnvelopeNow(withCheckedApplication(deps, application), principal.appId, params.id, body.message, meta);
  return respond(EnvelopeResponse, envelopeView(envelope, { signingUrls }));
});

export const handler = lambda(definition);
