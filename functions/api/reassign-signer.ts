import { reassignBySender } from '#shared/envelopes/reassign-actions.ts';
import { envelopeWrite, invites, json, jsonBody, respond, route } from '#shared/http/endpoint.ts';
import { CONCURRENT } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { signerView } from '#shared/envelopes/envelope-views.ts';
import { ReassignRequest } from '#shared/envelopes/envelope-schemas.ts';
import { SignerResponse } from '#shared/envelopes/envelope-response-schemas.ts';
import { SignerParams } from '#shared/signing/signing-schemas.ts';

export const definition = route({
  method: 'POST', path: '/v1/envelopes/{id}/signers/{signerId}/reassign', auth: 'bearer', tag: 'Envelopes',
  operationId: 'reassignSigner', summary: "Hand a signer's place to someone else",
  description:
    'Someone else signs in this signer\'s place: the same signer (id, fields, routing order) with a new name, email and, optionally, phone, ' +
    'authMethod and locale (absent: the slot\'s own). Every link of the old person stops working at once (401 `link_replaced`): signing links, ' +
    'an embedded URL, a verified one-time code. If the signer\'s routing group is current, the new person is invited now; otherwise when it is reached. ' +
    'Audit event and webhook event `signer.reassigned` (`{ from, to, by: "sender", reason }`).',
  params: SignerParams,
  body: jsonBody(ReassignRequest),
  success: { status: 200, description: 'The signer with the new identity', content: json(SignerResponse) },
  errors: {
    400: 'Validation error (another signer has that email), or the envelope is not `sent` or `in_progress`',
    404: 'No such envelope for this application, or no such signer on it',
    409: `The signer already signed or declined; or: ${CONCURRENT.toLowerCase()}`,
  },
  access: { ...envelopeWrite, ...invites },
}, (deps) => async ({ params, body, principal, meta }) =>
  respond(SignerResponse, signerView(await reassignBySender(deps, principal.appId, params.id, params.signerId, body, meta))));

export const handler = lambda(definition);
