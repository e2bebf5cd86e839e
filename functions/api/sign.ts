import { signDocument } from '#shared/signing/signing-actions.ts';
import { json, jsonBody, linkAccess, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { SignResultResponse } from '#shared/signing/signing-response-schemas.ts';
import { SignRequest, TokenParams } from '#shared/signing/signing-schemas.ts';
import { CONCURRENT, LINK_BEFORE_OTP } from '#shared/http/error-docs.ts';

export const definition = route({
  method: 'POST', path: '/v1/signing/{token}/sign', auth: 'link', tag: 'Signing',
  operationId: 'sign', summary: "Submit the signer's field values",
  description:
    'Records the signer\'s field values: every required field of the signer needs a value, and a value for another signer\'s field is a 400. When this completes the routing group the next group is invited; ' +
    'when every signer has signed, the document is sealed and `envelope.completed` is delivered.',
  params: TokenParams,
  body: jsonBody(SignRequest),
  success: { status: 200, description: 'The signature is recorded', content: json(SignResultResponse) },
  errors: {
    400: 'Validation error: a required field without a value, an invalid value, or a value for a field that is not the signer\'s',
    401: `${LINK_BEFORE_OTP}, or consent is not given yet`,
    409: `The signer already signed or declined; or: ${CONCURRENT.toLowerCase()}`,
  },
  // The last signature queues sealing (a workflow start); a finished routing group queues the next one.
  // Drawn signatures are staged before the commit; a refused or lost request deletes its own (decision 19).
  access: { ...linkAccess, documents: { write: ['signatures/'], delete: ['signatures/'] }, starts: ['seal'] },
}, (deps) => async ({ params, body, meta }) => respond(SignResultResponse, await signDocument(deps, params.token, body, meta)));

export const handler = lambda(definition);
