import { CONSENT_DISCLOSURE } from '#domain/signing.ts';
import { readSigningContext } from '#domain/use-cases/signing.ts';
import { json, linkAccess, respond, route } from '#http/endpoint.ts';
import { CONCURRENT, LINK_UNUSABLE, LINK_USED } from '#http/error-docs.ts';
import { lambda } from '#http/lambda.ts';
import { completedFieldView, signingContextView } from '#http/signing-views.ts';
import { SigningContextResponse } from '#schemas/signing-responses.ts';
import { TokenParams } from '#schemas/signing.ts';

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
