import { removeEnvelopeDocument } from '#shared/envelopes/document-actions.ts';
import { envelopeWrite, route } from '#shared/http/endpoint.ts';
import { CONCURRENT } from '#shared/http/error-docs.ts';
import { lambda } from '#shared/http/lambda.ts';
import { noContent } from '#shared/http/responses.ts';
import { DocumentParams } from '#shared/envelopes/envelope-schemas.ts';

export const definition = route({
  method: 'DELETE', path: '/v1/envelopes/{id}/documents/{documentId}', auth: 'bearer', tag: 'Envelopes',
  operationId: 'deleteDocument', summary: 'Remove a document from a draft',
  description: 'Removes a document from a draft, with the fields on it; the others keep their order.',
  params: DocumentParams,
  success: { status: 204, description: 'Removed' },
  errors: { 400: 'The envelope is not in draft', 404: 'No such envelope or document for this application', 409: CONCURRENT },
  authoring: { kind: 'envelope', mode: 'full' },
  access: { ...envelopeWrite },
}, (deps) => async ({ params, principal, meta }) => {
  await removeEnvelopeDocument(deps, principal.appId, params.id, params.documentId, meta);
  return noContent();
});

export const handler = lambda(definition);
