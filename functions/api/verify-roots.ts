import { sealTrustAnchors } from '#shared/verify/verification-actions.ts';
import { route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';

/** PEM, 64 characters a line (RFC 7468). */
const pem = (der: Uint8Array) => `-----BEGIN CERTIFICATE-----\n${Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`;

export const definition = route({
  method: 'GET', path: '/v1/verify/roots.pem', auth: 'none', tag: 'Meta',
  operationId: 'verifyTrustAnchors', summary: "The root certificate of this service's seal chain (PEM)",
  description: 'No authentication: the trust anchor a validator needs to pass this service\'s seals (`npm run verify -- --service <url>` and the `/verify` page use it). '
    + 'It is the top certificate of the chain the seal carries (the one `npm run seal-cert -- import` stored, else the one issued at deploy), read again within a minute of an import. '
    + 'A deployment sealing at a trust service provider publishes none (404): that provider publishes its root. Rate-limited per address like every unauthenticated route.',
  success: {
    status: 200, description: 'The root certificate(s), PEM',
    content: { 'application/x-pem-file': { jsonSchema: { type: 'string', description: 'One or more PEM certificates (RFC 7468)' } } },
  },
  errors: { 404: 'This service publishes no trust anchors (the seal key is held by a trust service provider)' },
  access: { sealChain: true },
}, (deps) => async () => {
  const anchors = await sealTrustAnchors(deps);
  return { statusCode: 200, headers: { 'content-type': 'application/x-pem-file', 'cache-control': 'public, max-age=300' }, body: anchors.map(pem).join('') };
});

export const handler = lambda(definition);
