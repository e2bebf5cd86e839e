import { openEmbedded } from '#shared/signing/embedding-actions.ts';
import { json, linkAccess, respond, route } from '#shared/http/endpoint.ts';
import { CONCURRENT } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { EmbeddedSessionResponse } from '#shared/signing/signing-response-schemas.ts';
import { TokenParams } from '#shared/signing/signing-schemas.ts';

export const definition = route({
  method: 'POST', path: '/v1/embedded/{token}/open', auth: 'link', tag: 'Signing',
  operationId: 'openEmbeddedSigning', summary: 'The embedded signing page opens its URL (once)',
  description:
    'Called by the signing page at `/embed/{token}`: spends the URL and answers the signer\'s signing link token, ' +
    'with the origins the page may post its events to and the `returnUrl`.',
  params: TokenParams,
  success: { status: 200, description: 'The signing session', content: json(EmbeddedSessionResponse) },
  errors: {
    401: 'The URL is not valid, expired unopened, or was replaced by a newer one; or the envelope is voided, declined, expired or complete',
    409: CONCURRENT,
    410: 'The URL was already opened, or the signer already signed or declined',
  },
  access: { ...linkAccess },
}, (deps) => async ({ params, meta }) =>
  respond(EmbeddedSessionResponse, await openEmbedded(deps, params.token, meta)));

export const handler = lambda(definition);
