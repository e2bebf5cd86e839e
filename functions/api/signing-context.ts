import { CONSENT_DISCLOSURE } from '#shared/signing/signing.ts';
import { readSigningContext } from '#shared/signing/signing-actions.ts';
import { json, linkAccess, respond, route } from '#shared/http/endpoint.ts';
import { CONCURRENT, LINK_UNUSABLE, LINK_USED } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { completedFieldView, signingContextView } from '#shared/signing/signing-views.ts';
import { SigningContextResponse } from '#shared/signing/signing-response-schemas.ts';
import { TokenParams } from '#shared/signing/signing-schemas.ts';

export const definition = route({
  method: 'GET', path: '/v1/signing/{token}', auth: 'link', tag: 'Signing',
  operationId: 'getSigningContext', summary: "The signer's signing context",
  description: 'The first read marks the signer `viewed` (and the envelope `in_progress`). Gates: OTP (when the signer\'s `authMethod` needs it), then consent, then sign.',
  params: TokenParams,
  success: { status: 200, description: "The signing context, with only this signer's fields", content: json(SigningContextResponse) },
  errors: { 401: LINK_UNUSABLE, 409: CONCURRENT, 410: LINK_USED },
  // Later signers see what earlier ones entered: drawn signatures are read from signatures/; page geometry from original/.
  access: { ...linkAccess, documents: { read: ['original/', 'signatures/'] } },
}, (deps) => async ({ params, meta }) => {
  const { envelope, signer, completed, pages } = await readSigningContext(deps, params.token, meta);
  return respond(SigningContextResponse, signingContextView(envelope, signer, CONSENT_DISCLOSURE, pages, completed.map(completedFieldView)));
});

export const handler = lambda(definition);
