import { readEnvelope } from '#domain/use-cases/envelopes.ts';
import { bearerAccess, envelopeWrite, json, respond, route } from '#http/endpoint.ts';
import { lambda } from '#http/lambda.ts';
import { envelopeView } from '#http/views.ts';
import { IdParams } from '#schemas/common.ts';
import { EnvelopeResponse } from '#schemas/envelope-responses.ts';

export const definition = route({
  method: 'GET', path: '/v1/envelopes/{id}', auth: 'bearer', tag: 'Envelopes',
  operationId: 'getEnvelope', summary: 'Read an envelope with signers, fields, documents and audit log',
  description: 'The envelope as it is now: status, signers with their status, fields, documents (original and, once completed, sealed) and the hash-chained audit log. Reading it applies a passed deadline (the envelope expires at once).',
  params: IdParams,
  success: { status: 200, description: 'The envelope with signers, fields, documents and audit log', content: json(EnvelopeResponse) },
  errors: { 404: 'No such envelope for this application' },
  // Reading applies a passed deadline (lazy expiry): a commit.
  access: { ...bearerAccess, ...envelopeWrite },
}, (deps) => async ({ params, principal }) => {
  const { envelope, auditLog } = await readEnvelope(deps, principal.appId, params.id);
  return respond(EnvelopeResponse, envelopeView(envelope, { auditLog }));
});

export const handler = lambda(definition);
