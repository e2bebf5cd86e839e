import { removeEnvelopeSigner } from '#shared/envelopes/draft-edit-actions.ts';
import { envelopeWrite, route } from '#shared/http/endpoint.ts';
import { CONCURRENT } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { noContent } from '#shared/http/responses.ts';
import { SignerParams } from '#shared/signing/signing-schemas.ts';

export const definition = route({
  method: 'DELETE', path: '/v1/envelopes/{id}/signers/{signerId}', auth: 'bearer', tag: 'Envelopes',
  operationId: 'deleteSigner', summary: 'Remove a signer from a draft, with their fields',
  params: SignerParams,
  success: { status: 204, description: 'Removed' },
  errors: { 400: 'The envelope is not in draft', 404: 'No such envelope for this application, or no such signer on it', 409: CONCURRENT },
  authoring: { kind: 'envelope', mode: 'full' },
  access: { ...envelopeWrite },
}, (deps) => async ({ params, principal, meta }) => {
  await removeEnvelopeSigner(deps, principal.appId, params.id, params.signerId, meta);
  return noContent();
});

export const handler = lambda(definition);
