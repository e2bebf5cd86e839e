import { reassignBySigner } from '#shared/envelopes/reassign-actions.ts';
import { invites, json, jsonBody, linkAccess, respond, route } from '#shared/http/endpoint.ts';
import { CONCURRENT, LINK_BEFORE_OTP } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { ReassignResultResponse } from '#shared/signing/signing-response-schemas.ts';
import { SigningReassignRequest, TokenParams } from '#shared/signing/signing-schemas.ts';

export const definition = route({
  method: 'POST', path: '/v1/signing/{token}/reassign', auth: 'link', tag: 'Signing',
  operationId: 'reassignFromSigning', summary: 'Someone else should sign',
  description:
    'The signer names who should sign in their place (after the one-time code, when one is required). Only when the envelope was created with ' +
    '`allowReassign: true` (403 `reassign_not_allowed` otherwise). The person named is invited; this link stops working at once. ' +
    'Audit event and webhook event `signer.reassigned` (`by: "signer"`).',
  params: TokenParams,
  body: jsonBody(SigningReassignRequest),
  success: { status: 200, description: 'The place is handed over', content: json(ReassignResultResponse) },
  errors: {
    400: 'Validation error (another signer of the envelope has that email)',
    401: LINK_BEFORE_OTP,
    403: 'The envelope does not allow a signer to hand their place over (`reassign_not_allowed`)',
    409: `The signer already signed or declined; or: ${CONCURRENT.toLowerCase()}`,
  },
  access: { ...linkAccess, ...invites, secrets: ['LINK_SECRET'] },
}, (deps) => async ({ params, body, meta }) =>
  respond(ReassignResultResponse, await reassignBySigner(deps, params.token, body, meta)));

export const handler = lambda(definition);
