import { readEnvelope } from '#shared/envelopes/envelope-actions.ts';
import { bearerAccess, envelopeWrite, json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { envelopeView } from '#shared/envelopes/envelope-views.ts';
import { IdParams } from '#shared/http/common-schemas.ts';
import { EnvelopeResponse } from '#shared/envelopes/envelope-response-schemas.ts';

export const definition = route({
  method: 'GET', path: '/v1/envelopes/{id}', auth: 'bearer', tag: 'Envelopes',
  operationId: 'getEnvelope', summary: 'Read an envelope with signers, fields, documents and audit log',
  description: 'The envelope as it is now: status, signers with their status, fields, documents (original and, once completed, sealed) and the hash-chained audit log. Reading it applies a passed deadline (the envelope expires at once).',
  params: IdParams,
  success: { status: 200, description: 'The envelope with signers, fields, documents and audit log', content: json(EnvelopeResponse) },
  errors: { 404: 'No such envelope for this application' },
  authoring: { kind: 'envelope', mode: 'fields' },
  // Reading applies a passed deadline (lazy expiry): a commit.
  access: { ...bearerAccess, ...envelopeWrite },
}, (deps) => async ({ params, principal }) => {
  const { envelope, auditLog } = await readEnvelope(deps, principal.appId, params.id);
  return respond(EnvelopeResponse, envelopeView(envelope, { auditLog }));
});

export const handler = lambda(definition);
