import { resendLink } from '#shared/envelopes/routing-actions.ts';
import { envelopeWrite, invites, json, respond, route } from '#shared/http/endpoint.ts';
import { CONCURRENT } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { SigningLinkResponse } from '#shared/signing/signing-response-schemas.ts';
import { SignerParams } from '#shared/signing/signing-schemas.ts';

export const definition = route({
  method: 'POST', path: '/v1/envelopes/{id}/signers/{signerId}/resend', auth: 'bearer', tag: 'Envelopes',
  operationId: 'resendSigningLink', summary: "Re-issue a live signer's signing link",
  description:
    'Issues a new signing link to a signer who was invited and has not signed or declined, for instance after the old link expired ' +
    '(a link carries the signer\'s link version; a newer one retires it), and emails it to them. The previous link stops working at once. ' +
    'A link locked after too many one-time codes (`otp_locked`) is unlocked: the new link starts a fresh budget of codes (audit event `signer.otp_unlocked`).',
  params: SignerParams,
  success: { status: 200, description: 'The new signing link', content: json(SigningLinkResponse) },
  errors: {
    400: 'The envelope is not `sent` or `in_progress`, or the signer is not yet invited or already signed or declined',
    404: 'No such envelope for this application, or no such signer on it',
    409: CONCURRENT,
  },
  access: { ...envelopeWrite, ...invites },
}, (deps) => async ({ params, principal, meta }) =>
  respond(SigningLinkResponse, await resendLink(deps, principal.appId, params.id, params.signerId, meta)));

export const handler = lambda(definition);
