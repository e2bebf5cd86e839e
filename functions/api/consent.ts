import { consentToSign } from '#shared/signing/signing-actions.ts';
import { json, linkAccess, respond, route } from '#shared/http/endpoint.ts';
import { CONCURRENT, LINK_BEFORE_OTP, LINK_USED } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { ConsentResponse } from '#shared/signing/signing-response-schemas.ts';
import { TokenParams } from '#shared/signing/signing-schemas.ts';

export const definition = route({
  method: 'POST', path: '/v1/signing/{token}/consent', auth: 'link', tag: 'Signing',
  operationId: 'giveConsent', summary: 'Consent to sign electronically',
  description: 'Consent to sign electronically, given once; the consent, IP address, user agent and disclosure version go to the audit trail.',
  params: TokenParams,
  success: { status: 200, description: 'Consent recorded', content: json(ConsentResponse) },
  errors: { 401: LINK_BEFORE_OTP, 409: `Consent was already given; or: ${CONCURRENT.toLowerCase()}`, 410: LINK_USED },
  access: { ...linkAccess },
}, (deps) => async ({ params, meta }) =>
  respond(ConsentResponse, await consentToSign(deps, params.token, meta)));

export const handler = lambda(definition);
