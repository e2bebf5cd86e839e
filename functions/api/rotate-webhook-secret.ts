import { rotateWebhookSecret } from '#shared/webhooks/webhook-actions.ts';
import { bearerAccess, json, jsonBody, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { webhookView } from '#shared/webhooks/webhook-views.ts';
import { IdParams } from '#shared/http/common-schemas.ts';
import { SecretRotationResponse } from '#shared/webhooks/webhook-response-schemas.ts';
import { RotateSecretRequest } from '#shared/webhooks/webhook-schemas.ts';

export const definition = route({
  method: 'POST', path: '/v1/webhooks/{id}/rotate-secret', auth: 'bearer', tag: 'Webhooks', adminOnly: true,
  operationId: 'rotateWebhookSecret', summary: "Replace a webhook's signing secret, the old one overlapping",
  description:
    'Replaces the signing secret with `secret` (at least 16 characters), or with a generated one, returned here once and never again. ' +
    'The current secret keeps signing beside it for `expireCurrentInHours` (0 to 72, default 24; 0 stops it at once): until then ' +
    '`X-Service-Signature-V2` carries two `v1=` values, and `X-Service-Signature` is signed with the new secret. Rotating again ' +
    'during an overlap ends the older secret at once. Two rotations at once: one answers 409. A repeat with the same ' +
    'Idempotency-Key answers the rotation again with `secret` null: the secret is never stored outside its sealed form.',
  params: IdParams,
  body: jsonBody(RotateSecretRequest),
  success: { status: 200, description: 'The webhook, its new secret (shown this once) and when the previous one stops signing', content: json(SecretRotationResponse) },
  errors: { 400: 'A secret that is too short, or an overlap outside 0..72 hours', 404: 'No such webhook for this application', 409: 'Another rotation of this webhook happened meanwhile' },
  // The new secret is stored sealed under DATA_KEY.
  access: { ...bearerAccess, table: 'write', secrets: ['JWT_SECRET', 'DATA_KEY'] },
  withheldFromReplay: ['secret'],
}, (deps) => async ({ params, body, principal }) => {
  const rotation = await rotateWebhookSecret(deps, principal.appId, params.id, { secret: body.secret, expireCurrentInHours: body.expireCurrentInHours });
  return respond(SecretRotationResponse, { ...webhookView(rotation.webhook), secret: rotation.secret, previousSecretExpiresAt: rotation.previousSecretExpiresAt });
});

export const handler = lambda(definition);
