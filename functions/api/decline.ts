import { declineToSign } from '#domain/use-cases/signing.ts';
import { json, jsonBody, linkAccess, respond, route } from '#http/endpoint.ts';
import { CONCURRENT, LINK_BEFORE_OTP } from '#http/error-docs.ts';
import { lambda } from '#http/lambda.ts';
import { DeclineResultResponse } from '#schemas/signing-responses.ts';
import { DeclineRequest, TokenParams } from '#schemas/signing.ts';

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
