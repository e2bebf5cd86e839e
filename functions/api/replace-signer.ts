import { replaceEnvelopeSigner } from '#shared/envelopes/draft-edit-actions.ts';
import { envelopeWrite, json, jsonBody, respond, route } from '#shared/http/endpoint.ts';
import { CONCURRENT } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { signerView } from '#shared/envelopes/envelope-views.ts';
import { CreateSignerRequest } from '#shared/envelopes/envelope-schemas.ts';
import { SignerResponse } from '#shared/envelopes/envelope-response-schemas.ts';
import { SignerParams } from '#shared/signing/signing-schemas.ts';

export const definition = route({
  method: 'PUT', path: '/v1/envelopes/{id}/signers/{signerId}', auth: 'bearer', tag: 'Envelopes',
  operationId: 'replaceSigner', summary: 'Change a signer of a draft',
  description: 'Replaces the signer\'s name, email, phone, routing order, `authMethod`, locale and `embedded` (the body of `POST /v1/envelopes/{id}/signers`); their id and fields stay.',
  params: SignerParams,
  body: jsonBody(CreateSignerRequest),
  success: { status: 200, description: 'The signer as it is now', content: json(SignerResponse) },
  errors: { 400: 'Validation error, an email another signer has, or the envelope is not in draft', 404: 'No such envelope for this application, or no such signer on it', 409: CONCURRENT },
  authoring: { kind: 'envelope', mode: 'full' },
  access: { ...envelopeWrite },
}, (deps) => async ({ params, body, principal, meta }) =>
  respond(SignerResponse, signerView(await replaceEnvelopeSigner(deps, principal.appId, params.id, params.signerId, body, meta))));

export const handler = lambda(definition);
