import { verifyCode } from '#shared/signing/signing-actions.ts';
import { json, jsonBody, linkAccess, respond, route } from '#shared/http/endpoint.ts';
import { otpGuessBound, OTP_LIFETIME_WRONG_TRIES } from '#shared/signing/otp-budget.ts';
import { CONCURRENT, grouped, LINK_UNUSABLE, LINK_USED, OTP_LOCK_EFFECTS } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { OtpVerificationResponse } from '#shared/signing/signing-response-schemas.ts';
import { OtpVerifyRequest, TokenParams } from '#shared/signing/signing-schemas.ts';

export const definition = route({
  method: 'POST', path: '/v1/signing/{token}/otp/verify', auth: 'link', tag: 'Signing',
  operationId: 'verifyOtp', summary: 'Verify the one-time code',
  description:
    'Three wrong attempts void the code (`signer.otp_failed`); a new one must then be requested. Verifying an already verified signer answers `verified: true`. ' +
    `A link takes ${String(OTP_LIFETIME_WRONG_TRIES)} wrong codes over its whole life, so a guesser hits a 6-digit code with a chance of at most ` +
    `1 in ${grouped(1 / otpGuessBound())}: the last of them locks the link: ${OTP_LOCK_EFFECTS}.`,
  params: TokenParams,
  body: jsonBody(OtpVerifyRequest),
  success: { status: 200, description: 'The signer is verified', content: json(OtpVerificationResponse) },
  errors: {
    400: 'Validation error, a code that is incorrect, expired or never requested, or a signer that needs no code',
    401: LINK_UNUSABLE,
    409: CONCURRENT,
    410: LINK_USED,
  },
  access: { ...linkAccess },
}, (deps) => async ({ params, body, meta }) => respond(OtpVerificationResponse, await verifyCode(deps, params.token, body.code, meta)));

export const handler = lambda(definition);
