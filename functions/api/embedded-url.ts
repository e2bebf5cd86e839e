import { embeddedUrl } from '#shared/signing/embedding-actions.ts';
import { envelopeWrite, json, jsonBody, respond, route } from '#shared/http/endpoint.ts';
import { CONCURRENT } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { EmbeddedUrlResponse } from '#shared/signing/signing-response-schemas.ts';
import { EmbeddedUrlRequest, SignerParams } from '#shared/signing/signing-schemas.ts';

export const definition = route({
  method: 'POST', path: '/v1/envelopes/{id}/signers/{signerId}/embedded-url', auth: 'bearer', tag: 'Signing',
  operationId: 'createEmbeddedSigningUrl', summary: 'A signing URL to open inside your own app (embedded signing)',
  description:
    'For a signer of the current routing group who has not signed or declined. The URL is valid 5 minutes until it is ' +
    'first opened, and opens once; the signer then passes the usual gates (their `authMethod` applies). Frame it on one of the ' +
    "application's `embedOrigins` (`PUT /v1/console/settings`); the page posts `loaded`, `signed`, `declined` and `error` to the parent. " +
    'Issuing a new URL replaces an unopened one.',
  params: SignerParams,
  body: jsonBody(EmbeddedUrlRequest, { optional: true }),
  success: { status: 200, description: 'The URL and when it stops working unopened', content: json(EmbeddedUrlResponse) },
  errors: {
    400: "A `returnUrl` that is not an HTTPS URL; the envelope is not `sent` or `in_progress`; the signer's routing group is not current, or they signed or declined",
    404: 'No such envelope for this application, or no such signer on it',
    409: CONCURRENT,
  },
  access: { ...envelopeWrite, secrets: ['JWT_SECRET', 'LINK_SECRET'] },
}, (deps) => async ({ params, body, principal, meta }) =>
  respond(EmbeddedUrlResponse, await embeddedUrl(deps, principal.appId, params.id, params.signerId, body.returnUrl, meta)));

export const handler = lambda(definition);
