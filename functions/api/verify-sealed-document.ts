import { sealedDocument } from '#shared/verify/verification-actions.ts';
import { json, respond, route } from '#shared/http/endpoint.ts';
import { lambda } from '#shared/http/lambda.ts';
import { SealedDocumentParams, SealRecordResponse } from '#shared/verify/verification-schemas.ts';

export const definition = route({
  method: 'GET', path: '/v1/verify/{envelopeId}/{documentId}', auth: 'none', tag: 'Meta',
  operationId: 'verifySealedDocument', summary: 'The seal record of a document by the ids its audit certificate prints',
  description: 'No authentication: the ids come from the audit certificate (its QR code opens `/verify#<envelopeId>.<documentId>`). '
    + "The answer carries the sealed file's `sha256`, so a page can compare a dropped file with it, and names no person or email. "
    + 'Rate-limited per address like every unauthenticated route.',
  params: SealedDocumentParams,
  success: { status: 200, description: 'The envelope completed and sealed this document', content: json(SealRecordResponse) },
  errors: { 404: 'No sealed document with these ids (or they do not belong together)' },
  access: { table: 'read' },
}, (deps) => async ({ params }) => respond(SealRecordResponse, await sealedDocument(deps, params.envelopeId, params.documentId), 200, { 'cache-control': 'no-store' }));

export const handler = lambda(definition);
