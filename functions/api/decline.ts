import { declineToSign } from '#shared/signing/signing-actions.ts';
import { json, jsonBody, linkAccess, respond, route } from '#shared/http/endpoint.ts';
import { CONCURRENT, LINK_BEFORE_OTP } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { DeclineResultResponse } from '#shared/signing/signing-response-schemas.ts';
import { DeclineRequest, TokenParams } from '#shared/signing/signing-schemas.ts';

export const definition = route({
  method: 'POST', path: '/v1/signing/{token}/decline', auth: 'link', tag: 'Signing',
  operationId: 'decline', summary: 'Decline to sign',
  description: 'Declining ends the envelope (`declined`) for every signer; the reason goes to the audit trail.',
  params: TokenParams,
  body: jsonBody(DeclineRequest, { optional: true }),
  success: { status: 200, description: 'The envelope is declined', content: json(DeclineResultResponse) },
  errors: { 400: 'Validation error', 401: LINK_BEFORE_OTP, 409: `The signer already signed or declined; or: ${CONCURRENT.toLowerCase()}` },
  access: { ...linkAccess },
}, (deps) => async ({ params, body, meta }) =>
  respond(DeclineResultResponse, await declineToSign(deps, params.token, body.reason, meta)));

export const handler = lambda(definition);
