import { requestCode } from '#shared/signing/signing-actions.ts';
import { json, linkAccess, respond, route } from '#shared/http/endpoint.ts';
import { OTP_LIFETIME_CODES } from '#shared/signing/otp-budget.ts';
import { CONCURRENT, LINK_UNUSABLE, LINK_USED, OTP_LOCK_EFFECTS } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { OtpRequestedResponse } from '#shared/signing/signing-response-schemas.ts';
import { TokenParams } from '#shared/signing/signing-schemas.ts';

export const definition = route({
  method: 'POST', path: '/v1/signing/{token}/otp/request', auth: 'link', tag: 'Signing',
  operationId: 'requestOtp', summary: 'Send a one-time code to the signer',
  description:
    'Sends a fresh 6-digit code, valid for 10 minutes, by SMS to `sms_otp` signers with a phone, otherwise by email. A new code replaces the previous one. ' +
    `A link may have ${String(OTP_LIFETIME_CODES)} codes sent over its whole life: asking for one more sends nothing and locks the link: ${OTP_LOCK_EFFECTS}.`,
  params: TokenParams,
  success: { status: 200, description: 'Where the code went', content: json(OtpRequestedResponse) },
  errors: {
    400: 'This signer needs no code (`authMethod` `none`)',
    401: LINK_UNUSABLE,
    409: CONCURRENT,
    410: LINK_USED,
    429: 'More than 5 code requests in 10 minutes; `Retry-After` says when to ask again',
  },
  access: { ...linkAccess, mail: true, sms: true },
}, (deps) => async ({ params, meta }) =>
  respond(OtpRequestedResponse, await requestCode(deps, params.token, meta)));

export const handler = lambda(definition);
