import { addEnvelopeSigner } from '#shared/envelopes/envelope-actions.ts';
import { envelopeWrite, json, jsonBody, respond, route } from '#shared/http/endpoint.ts';
import { CONCURRENT, NO_ENVELOPE } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { signerView } from '#shared/envelopes/envelope-views.ts';
import { IdParams } from '#shared/http/common-schemas.ts';
import { CreateSignerRequest } from '#shared/envelopes/envelope-schemas.ts';
import { SignerResponse } from '#shared/envelopes/envelope-response-schemas.ts';

export const definition = route({
  method: 'POST', path: '/v1/envelopes/{id}/signers', auth: 'bearer', tag: 'Envelopes',
  operationId: 'addSigner', summary: 'Add a signer to a draft envelope',
  description: 'Adds a signer to a draft envelope; place their fields with `POST /v1/envelopes/{id}/fields` and the signer id from the answer.',
  params: IdParams,
  body: jsonBody(CreateSignerRequest),
  success: { status: 201, description: 'The new signer', content: json(SignerResponse) },
  errors: { 400: 'Validation error, or the envelope is not in draft', 404: NO_ENVELOPE, 409: CONCURRENT },
  authoring: { kind: 'envelope', mode: 'full' },
  access: { ...envelopeWrite },
}, (deps) => async ({ params, body, principal, meta }) =>
  respond(SignerResponse, signerView(await addEnvelopeSigner(deps, principal.appId, params.id, body, meta)), 201));

export const handler = lambda(definition);
